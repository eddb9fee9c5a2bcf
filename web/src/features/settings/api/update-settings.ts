import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import type { Database } from "@/lib/database.types";
import { profileQueryOptions } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";
import { i18n } from "@/i18n/i18n";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { hasSelectableWindow, isWindowAllowed, type PlanId } from "@domain/plans";

/*
 * The rules below mirror the checks on `public.profiles` (migration 20261121000200_profiles.sql)
 * so the browser refuses what the database would refuse, with the same rule in words:
 * - profiles_threshold_range: user_threshold between 1 and 100 (numeric(5, 1): one decimal)
 * - profiles_email_alert_format and the plan-rules trigger (e-mail alerts on enterprise only)
 * - profiles_discord_webhook_format, profiles_telegram_chat_format
 * - profiles_enforce_plan_rules: the window must be one the plan offers (decision 0005)
 * Messages are keys of the `settings` namespace.
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
    emailAlert:
      plan === "enterprise"
        ? optionalText(EMAIL_ALERT_PATTERN, "settings:email.invalid")
        : optionalText(/^$/, "settings:email.enterpriseOnly"),
    discordWebhookUrl: optionalText(DISCORD_WEBHOOK_PATTERN, "settings:discord.invalid"),
    telegramChatId: optionalText(TELEGRAM_CHAT_PATTERN, "settings:telegram.invalid"),
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
 * The columns to write. The window is left out when the user cannot choose one (basic keeps
 * its fixed 30 minutes); the alert e-mail is left out below enterprise.
 */
export function toProfileUpdate(input: SettingsInput, account: SettingsAccount): ProfileUpdate {
  const update: ProfileUpdate = {
    user_threshold: input.threshold,
    discord_webhook_url: input.discordWebhookUrl,
    telegram_chat_id: input.telegramChatId,
  };
  if (canChooseWindow(account)) update.selected_window_minutes = input.windowMinutes;
  if (account.plan === "enterprise") update.email_alert = input.emailAlert;
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
