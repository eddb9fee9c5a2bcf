import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import {
  Form,
  FormControl,
  FormDescription,
  FormField,
  FormItem,
  FormLabel,
  FormMessage,
} from "@/components/ui/form";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { EXCHANGE_LABEL_KEYS, exchangeSelectionsOf } from "@/lib/exchange-selection";
import type { Profile } from "@/lib/profile-query";
import { serverRuleText } from "@/lib/server-rule-error";
import { useSessionExpiredHandler } from "@/lib/session-expired";
import { cn } from "@/lib/utils";
import { EXCHANGE_SELECTIONS } from "@domain/market";
import {
  allowedWindows,
  effectiveWindow,
  hasSelectableWindow,
  windowLabel,
  type PlanId,
} from "@domain/plans";
import {
  canChooseWindow,
  createSettingsSchema,
  THRESHOLD_MAX,
  THRESHOLD_MIN,
  toProfileUpdate,
  useUpdateSettings,
  type SettingsFormValues,
  type SettingsInput,
} from "../api/update-settings";
import { NativeSelect } from "@/components/ui/native-select";

type AlertSettingsFormProps = {
  profile: Pick<
    Profile,
    | "id"
    | "plan"
    | "subscription_active"
    | "selected_window_minutes"
    | "user_threshold"
    | "selected_exchanges"
    | "email_alert"
    | "discord_webhook_url"
    | "telegram_chat_id"
  >;
};

function toFormValues(input: {
  plan: PlanId;
  windowMinutes: number;
  threshold: number;
  selectedExchanges: readonly string[];
  emailAlert: string | null;
  discordWebhookUrl: string | null;
  telegramChatId: string | null;
}): SettingsFormValues {
  // Below enterprise the alert channels are disabled and must stay empty; a value still stored
  // (the database clears them when the plan changes) would only block the save.
  const channel = (value: string | null) => (input.plan === "enterprise" ? (value ?? "") : "");
  return {
    windowMinutes: String(effectiveWindow(input.plan, input.windowMinutes)),
    threshold: String(input.threshold),
    selectedExchanges: exchangeSelectionsOf(input.selectedExchanges),
    emailAlert: channel(input.emailAlert),
    discordWebhookUrl: channel(input.discordWebhookUrl),
    telegramChatId: channel(input.telegramChatId),
  };
}

/**
 * A failed save: a plan rule's refusal in the user's language (its code is in `details`), else
 * the server's message with the hint when given.
 */
function failureText(error: Error & { hint?: unknown }, plan: PlanId): string | null {
  const translated = serverRuleText(error, plan);
  if (translated !== null) return translated;
  const parts = [error.message, typeof error.hint === "string" ? error.hint : ""]
    .map((part) => part.trim().replace(/\.$/, ""))
    .filter((part) => part !== "");
  return parts.length > 0 ? `${parts.join(". ")}.` : null;
}

/**
 * Time window, threshold, exchanges and alert channels; every field checked by the same rule as
 * the server.
 */
export function AlertSettingsForm({ profile }: AlertSettingsFormProps) {
  const { t } = useTranslation("settings");
  const account = { plan: profile.plan, subscriptionActive: profile.subscription_active };
  const schema = useMemo(() => createSettingsSchema(profile.plan), [profile.plan]);
  const form = useForm<SettingsFormValues, unknown, SettingsInput>({
    resolver: zodResolver(schema),
    defaultValues: toFormValues({
      plan: profile.plan,
      windowMinutes: profile.selected_window_minutes,
      threshold: profile.user_threshold,
      selectedExchanges: profile.selected_exchanges,
      emailAlert: profile.email_alert,
      discordWebhookUrl: profile.discord_webhook_url,
      telegramChatId: profile.telegram_chat_id,
    }),
  });
  const save = useUpdateSettings(profile.id);
  const handleSessionExpired = useSessionExpiredHandler();

  const onSubmit = form.handleSubmit((values) =>
    save.mutate(toProfileUpdate(values, account), {
      onSuccess: () => {
        form.reset(toFormValues({ plan: profile.plan, ...values }));
        toast.success(t("saved.title"), { description: t("saved.description") });
      },
      onError: (error) => {
        if (handleSessionExpired(error)) return;
        toast.error(t("saveFailed.title"), {
          description: failureText(error, profile.plan) ?? t("saveFailed.fallback"),
        });
      },
    }),
  );

  const selectable = hasSelectableWindow(profile.plan);
  const windowEnabled = canChooseWindow(account);
  const enterprise = profile.plan === "enterprise";
  const saving = save.isPending;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("alerts.title")}</CardTitle>
        <CardDescription>{t("alerts.description")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
            <FormField
              control={form.control}
              name="windowMinutes"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("window.label")}</FormLabel>
                  <FormControl>
                    <NativeSelect {...field} disabled={!windowEnabled}>
                      {selectable ? (
                        allowedWindows(profile.plan).map((minutes) => {
                          const label = windowLabel(minutes);
                          return (
                            <option key={minutes} value={String(minutes)}>
                              {t(label.unit === "seconds" ? "window.seconds" : "window.minutes", {
                                count: label.count,
                              })}
                            </option>
                          );
                        })
                      ) : (
                        <option value={field.value}>{t("window.fixed")}</option>
                      )}
                    </NativeSelect>
                  </FormControl>
                  <FormDescription>
                    {selectable && !profile.subscription_active
                      ? t("window.inactive")
                      : t("window.hint")}
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="threshold"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("threshold.label")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      type="number"
                      inputMode="decimal"
                      step={0.1}
                      min={THRESHOLD_MIN}
                      max={THRESHOLD_MAX}
                    />
                  </FormControl>
                  <FormDescription>{t("threshold.hint")}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="selectedExchanges"
              render={({ field, fieldState }) => (
                <FormItem>
                  <FormControl>
                    {/* The legend names the group; the ids and ARIA of FormControl go to it. */}
                    <fieldset className="flex flex-col gap-3">
                      <legend
                        className={cn(
                          "mb-3 text-sm leading-none font-medium",
                          fieldState.error && "text-destructive",
                        )}
                      >
                        {t("exchanges.label")}
                      </legend>
                      {EXCHANGE_SELECTIONS.map((value, index) => (
                        <label
                          key={value}
                          className="flex w-fit cursor-pointer items-center gap-2 text-sm"
                        >
                          <Checkbox
                            // The first box takes the focus when the field is refused.
                            ref={index === 0 ? field.ref : undefined}
                            name={field.name}
                            value={value}
                            checked={field.value.includes(value)}
                            onBlur={field.onBlur}
                            onChange={(event) =>
                              field.onChange(
                                event.target.checked
                                  ? [...field.value, value]
                                  : field.value.filter((selected) => selected !== value),
                              )
                            }
                          />
                          {t(`exchanges.options.${EXCHANGE_LABEL_KEYS[value]}`)}
                        </label>
                      ))}
                    </fieldset>
                  </FormControl>
                  <FormDescription>{t("exchanges.hint")}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="emailAlert"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("email.label")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      type="email"
                      inputMode="email"
                      autoComplete="email"
                      placeholder={t("email.placeholder")}
                      disabled={!enterprise}
                    />
                  </FormControl>
                  <FormDescription>
                    {enterprise ? t("email.hint") : t("email.enterpriseOnly")}
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="discordWebhookUrl"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("discord.label")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      type="url"
                      inputMode="url"
                      autoComplete="off"
                      spellCheck={false}
                      placeholder={t("discord.placeholder")}
                      disabled={!enterprise}
                    />
                  </FormControl>
                  <FormDescription>
                    {enterprise ? t("discord.hint") : t("discord.enterpriseOnly")}
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="telegramChatId"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t("telegram.label")}</FormLabel>
                  <FormControl>
                    <Input
                      {...field}
                      autoComplete="off"
                      autoCapitalize="none"
                      spellCheck={false}
                      placeholder={t("telegram.placeholder")}
                      disabled={!enterprise}
                    />
                  </FormControl>
                  <FormDescription>
                    {enterprise ? t("telegram.hint") : t("telegram.enterpriseOnly")}
                  </FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <Button type="submit" className="self-start" disabled={saving}>
              {saving && <Spinner />}
              {saving ? t("saving") : t("save")}
            </Button>
          </form>
        </Form>
      </CardContent>
    </Card>
  );
}
