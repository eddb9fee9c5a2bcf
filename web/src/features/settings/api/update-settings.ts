import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import type { Database } from "@/lib/database.types";
import { profileQueryOptions } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";
import { i18n } from "@/i18n/i18n";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { EXCHANGE_SELECTIONS } from "@domain/market";
import { hasSelectableWindow, isWindowAllowed, type PlanId } from "@domain/plans";

/*
 * The rules below mirror the checks on `public.profiles` (migrations 20261121000200_profiles.sql
 * and 20261121001400_alert_channels_and_window_rules.sql) so the browser refuses what the
 * database would refuse, with the same rule in words:
 * - profiles_threshold_range: user_threshold between 1 and 100 (numeric(5, 1): one decimal)
 * - profiles_selected_exchanges_values: selected_exchanges only holds coinbase, dex, cex-major
 *   (the database takes an empty list; the form asks for at least one, since none would hide
 *   every entry of the dashboard)
 * - profiles_email_alert_format, profiles_discord_webhook_format, profiles_telegram_chat_format
 * - profiles_enforce_plan_rules (decision 0005):
 *   - the window must be one the plan offers (`window_not_offered`), and only an active
 *     subscription may change it (`window_needs_active_subscription`);
 *   - e-mail alerts are enterprise only (`email_alert_enterprise_only`);
 *   - Discord and Telegram alerts are enterprise only too (`chat_alerts_enterprise_only`):
 *     below enterprise the fields must stay empty, and leaving enterprise clears them.
 * Messages are keys of the `settings` namespace. A refusal that still reaches the server carries
 * its rule's code in `details`; `serverRuleText` (@/lib/server-rule-error) translates it.
 */
export const EMAIL_ALERT_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;
export const DISCORD_WEBHOOK_PATTERN =
  /^https:\/\/(discord\.com|discordapp\.com|ptb\.discord\.com|canary\.discord\.com)\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+$/;
export const TELEGRAM_CHAT_PATTERN = /^(-?[0-9]{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

export const THRESHOLD_MIN = 1;
export const THRESHOLD_MAX = 100;
/** What an empty threshold field saves. */
export const THRESHOLD_DEFAULT = 10;

/** An optional text: trimmed, empty becomes null, anything else must match `pattern`. */
function optionalText(pattern: RegExp, error: string) {
  return z
    .string()
    .trim()
    .refine((value) => value === "" || pattern.test(value), { error })
    .transform((value) => (value === "" ? null : value));
}

const threshold = z
  .string()
  .trim()
  .transform((raw, ctx) => {
    if (raw === "") return THRESHOLD_DEFAULT;
    const value = Number(raw);
    if (!Number.isFinite(value)) {
      ctx.addIssue({ code: "custom", message: "settings:threshold.invalid" });
      return z.NEVER;
    }
    // The column keeps one decimal and rounds the rest, as here.
    return Math.round(value * 10) / 10;
  })
  .pipe(
    z
      .number()
      .min(THRESHOLD_MIN, { error: "settings:threshold.min" })
      .max(THRESHOLD_MAX, { error: "settings:threshold.max" }),
  );

/** The checked exchanges: at least one, saved once each in the order of `EXCHANGE_SELECTIONS`. */
const selectedExchanges = z
  .array(z.enum(EXCHANGE_SELECTIONS))
  .min(1, { error: "settings:exchanges.required" })
  .transform((values) => EXCHANGE_SELECTIONS.filter((value) => values.includes(value)));

/** The alert settings form for a plan: text fields in, column values out. */
export function createSettingsSchema(plan: PlanId) {
  return z.object({
    windowMinutes: z
      .string()
      .transform(Number)
      .refine((minutes) => isWindowAllowed(plan, minutes), {
        error: "settings:window.notOffered",
      }),
    threshold,
    selectedExchanges,
    // Below enterprise the alert channels must stay empty (the fields are disabled there).
    emailAlert:
      plan === "enterprise"
        ? optionalText(EMAIL_ALERT_PATTERN, "settings:email.invalid")
        : optionalText(/^$/, "settings:email.enterpriseOnly"),
    discordWebhookUrl:
      plan === "enterprise"
        ? optionalText(DISCORD_WEBHOOK_PATTERN, "settings:discord.invalid")
        : optionalText(/^$/, "settings:discord.enterpriseOnly"),
    telegramChatId:
      plan === "enterprise"
        ? optionalText(TELEGRAM_CHAT_PATTERN, "settings:telegram.invalid")
        : optionalText(/^$/, "settings:telegram.enterpriseOnly"),
  });
}

export type SettingsSchema = ReturnType<typeof createSettingsSchema>;
export type SettingsFormValues = z.input<SettingsSchema>;
export type SettingsInput = z.output<SettingsSchema>;

type ProfileUpdate = Database["public"]["Tables"]["profiles"]["Update"];

export type SettingsAccount = { plan: PlanId; subscriptionActive: boolean };

/** Who may change the window: a plan with a choice (pro, enterprise) and an active subscription. */
export function canChooseWindow({ plan, subscriptionActive }: SettingsAccount): boolean {
  return subscriptionActive && hasSelectableWindow(plan);
}

/**
 * The columns to write: threshold and exchanges always. The window is left out when the user cannot choose one (basic keeps
 * its fixed 30 minutes); the alert channels (e-mail, Discord, Telegram) are left out below
 * enterprise.
 */
export function toProfileUpdate(input: SettingsInput, account: SettingsAccount): ProfileUpdate {
  const update: ProfileUpdate = {
    user_threshold: input.threshold,
    selected_exchanges: input.selectedExchanges,
  };
  if (canChooseWindow(account)) update.selected_window_minutes = input.windowMinutes;
  if (account.plan === "enterprise") {
    update.email_alert = input.emailAlert;
    update.discord_webhook_url = input.discordWebhookUrl;
    update.telegram_chat_id = input.telegramChatId;
  }
  return update;
}

export async function updateSettings(userId: string, update: ProfileUpdate): Promise<void> {
  const { data, error, status } = await supabase
    .from("profiles")
    .update(update)
    .eq("id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

export function useUpdateSettings(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: ProfileUpdate) => updateSettings(userId, update),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: profileQueryOptions(userId).queryKey }),
  });
}
