import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import {
  formatAllowedWindows,
  SERVER_RULE_CODES,
  serverRuleCode,
  serverRuleText,
} from "./server-rule-error";
import { toRequestError } from "./session-expired";

/** A refusal as `updateSettings` / `updateWindow` throw it. */
const refusal = (details: string | undefined, hint?: string) =>
  toRequestError({ message: "refused in English", code: "23514", details, hint }, 400);

describe("serverRuleCode", () => {
  it.each(SERVER_RULE_CODES)("reads %s from details", (code) => {
    expect(serverRuleCode(refusal(code))).toBe(code);
    // A PostgrestError-like object works as well as a RequestError.
    expect(serverRuleCode({ message: "x", details: ` ${code} ` })).toBe(code);
  });

  it.each([undefined, "", "window_not_offered_v2", "Failing row contains (...)"])(
    "ignores details %j",
    (details) => {
      expect(serverRuleCode(refusal(details))).toBeNull();
    },
  );

  it.each([null, undefined, "window_not_offered", 42, { details: 7 }])("ignores %j", (error) => {
    expect(serverRuleCode(error)).toBeNull();
  });
});

describe("serverRuleText", () => {
  it.each([
    [
      "window_not_offered",
      "pro",
      "Your plan does not offer this time window. Available: 15 minutes, 20 minutes, 25 minutes, and 30 minutes.",
    ],
    [
      "window_not_offered",
      "basic",
      "Your plan does not offer this time window. Available: 30 minutes.",
    ],
    [
      "window_needs_active_subscription",
      "pro",
      "Your subscription is inactive: the time window cannot be changed.",
    ],
    [
      "email_alert_enterprise_only",
      "pro",
      "E-mail alerts are available on the Enterprise plan only.",
    ],
    [
      "chat_alerts_enterprise_only",
      "basic",
      "Discord and Telegram alerts are available on the Enterprise plan only.",
    ],
  ] as const)("translates %s (%s)", (code, plan, text) => {
    expect(serverRuleText(refusal(code, "Allowed windows: 15, 20, 25, 30"), plan)).toBe(text);
  });

  it("speaks the current language", async () => {
    await i18n.changeLanguage("de");
    expect(serverRuleText(refusal("window_not_offered"), "enterprise")).toBe(
      "Dein Tarif bietet dieses Zeitfenster nicht an. Verfügbar: 10 Sekunden, 5 Minuten, 10 Minuten, 15 Minuten, 20 Minuten, 25 Minuten und 30 Minuten.",
    );
    await i18n.changeLanguage("fr");
    expect(serverRuleText(refusal("chat_alerts_enterprise_only"), "pro")).toBe(
      "Les alertes Discord et Telegram sont réservées à la formule Enterprise.",
    );
    await i18n.changeLanguage("es");
    expect(serverRuleText(refusal("window_needs_active_subscription"), "pro")).toBe(
      "Tu suscripción está inactiva: no se puede cambiar la ventana de tiempo.",
    );
  });

  it("returns null for any other error, so the caller keeps its own text", () => {
    expect(serverRuleText(refusal(undefined, "Allowed windows: 15"), "pro")).toBeNull();
    expect(serverRuleText(new Error("network down"), "pro")).toBeNull();
  });
});

describe("formatAllowedWindows", () => {
  it("labels the windows as the settings form does", async () => {
    expect(formatAllowedWindows("enterprise")).toBe(
      "10 seconds, 5 minutes, 10 minutes, 15 minutes, 20 minutes, 25 minutes, and 30 minutes",
    );
    await i18n.changeLanguage("es");
    expect(formatAllowedWindows("pro")).toBe("15 minutos, 20 minutos, 25 minutos y 30 minutos");
  });
});
