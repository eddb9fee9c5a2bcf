import { allowedWindows, windowLabel, type PlanId } from "@domain/plans";
import { i18n } from "@/i18n/i18n";

/**
 * The plan rules on `public.profiles` (profiles_enforce_plan_rules, migration
 * 20261121001400_alert_channels_and_window_rules.sql) refuse a write with SQLSTATE 23514: an
 * English `message` for API callers and one of these stable codes in `details`, which the SPA
 * translates.
 */
export const SERVER_RULE_CODES = [
  "window_not_offered",
  "window_needs_active_subscription",
  "email_alert_enterprise_only",
  "chat_alerts_enterprise_only",
] as const;

export type ServerRuleCode = (typeof SERVER_RULE_CODES)[number];

function isServerRuleCode(value: string): value is ServerRuleCode {
  return (SERVER_RULE_CODES as readonly string[]).includes(value);
}

/** The rule code in an error's `details` (a PostgrestError or a `RequestError`), else null. */
export function serverRuleCode(error: unknown): ServerRuleCode | null {
  if (typeof error !== "object" || error === null) return null;
  const details = (error as { details?: unknown }).details;
  if (typeof details !== "string") return null;
  const code = details.trim();
  return isServerRuleCode(code) ? code : null;
}

/**
 * The plan's windows as the settings form labels them, joined the current language's way:
 * "15 minutes, 20 minutes, 25 minutes, and 30 minutes", "10 Sekunden, 5 Minuten, … und 30 Minuten".
 */
export function formatAllowedWindows(plan: PlanId): string {
  const labels = allowedWindows(plan).map((minutes) => {
    const label = windowLabel(minutes);
    return label.unit === "seconds"
      ? i18n.t("settings:window.seconds", { count: label.count })
      : i18n.t("settings:window.minutes", { count: label.count });
  });
  return new Intl.ListFormat(i18n.language, { style: "long", type: "conjunction" }).format(labels);
}

/**
 * The translated text for a refusal by a plan rule, in the current language; null for any other
 * error (the caller keeps its own text). `plan` is the account's plan: a refused window lists
 * the windows that plan offers.
 */
export function serverRuleText(error: unknown, plan: PlanId): string | null {
  switch (serverRuleCode(error)) {
    case "window_not_offered":
      return i18n.t("settings:serverRules.windowNotOffered", {
        windows: formatAllowedWindows(plan),
      });
    case "window_needs_active_subscription":
      return i18n.t("settings:serverRules.windowNeedsActiveSubscription");
    case "email_alert_enterprise_only":
      return i18n.t("settings:serverRules.emailAlertEnterpriseOnly");
    case "chat_alerts_enterprise_only":
      return i18n.t("settings:serverRules.chatAlertsEnterpriseOnly");
    case null:
      return null;
  }
}
