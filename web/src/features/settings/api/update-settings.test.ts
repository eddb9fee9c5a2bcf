import { describe, expect, it } from "vitest";
import type { ExchangeSelection } from "@domain/market";
import type { PlanId } from "@domain/plans";
import {
  canChooseWindow,
  createSettingsSchema,
  toProfileUpdate,
  type SettingsFormValues,
} from "./update-settings";

const valid: SettingsFormValues = {
  windowMinutes: "30",
  threshold: "10",
  selectedExchanges: ["coinbase", "dex", "cex-major"],
  emailAlert: "",
  discordWebhookUrl: "",
  telegramChatId: "",
};

function parse(plan: PlanId, values: Partial<SettingsFormValues>) {
  return createSettingsSchema(plan).safeParse({ ...valid, ...values });
}

function messages(plan: PlanId, values: Partial<SettingsFormValues>) {
  const result = parse(plan, values);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("settings schema: threshold (profiles_threshold_range, numeric(5, 1))", () => {
  it("turns an empty field into 10", () => {
    expect(parse("pro", { threshold: "" }).data?.threshold).toBe(10);
    expect(parse("pro", { threshold: "   " }).data?.threshold).toBe(10);
  });

  it.each([
    ["1", 1],
    ["2.5", 2.5],
    ["100", 100],
    ["12.34", 12.3],
    ["0.95", 1],
  ])("accepts %s as %d (one decimal, as the column keeps it)", (raw, value) => {
    expect(parse("pro", { threshold: raw }).data?.threshold).toBe(value);
  });

  it.each([
    ["0.9", "settings:threshold.min"],
    ["0", "settings:threshold.min"],
    ["-5", "settings:threshold.min"],
    ["100.1", "settings:threshold.max"],
    ["1000", "settings:threshold.max"],
    ["abc", "settings:threshold.invalid"],
  ])("refuses %s", (raw, message) => {
    expect(messages("pro", { threshold: raw })).toEqual([message]);
  });
});

describe("settings schema: exchanges (profiles_selected_exchanges_values)", () => {
  it.each([
    [["coinbase"], ["coinbase"]],
    [
      ["dex", "coinbase"],
      ["coinbase", "dex"],
    ],
    [
      ["cex-major", "dex", "coinbase"],
      ["coinbase", "dex", "cex-major"],
    ],
    [["dex", "dex"], ["dex"]],
  ] as const)("accepts %j as %j (once each, in a fixed order)", (selectedExchanges, saved) => {
    expect(
      parse("basic", { selectedExchanges: [...selectedExchanges] }).data?.selectedExchanges,
    ).toEqual(saved);
  });

  it("asks for at least one exchange", () => {
    expect(messages("pro", { selectedExchanges: [] })).toEqual(["settings:exchanges.required"]);
  });

  it("refuses a value the database does not know", () => {
    const result = createSettingsSchema("pro").safeParse({
      ...valid,
      selectedExchanges: ["coinbase", "binance"],
    });
    expect(result.success).toBe(false);
  });
});

describe("settings schema: window (profiles_enforce_plan_rules)", () => {
  it.each([
    ["basic", "30", true],
    ["basic", "15", false],
    ["none", "30", true],
    ["pro", "15", true],
    ["pro", "25", true],
    ["pro", "10", false],
    ["pro", "0", false],
    ["enterprise", "0", true],
    ["enterprise", "5", true],
    ["enterprise", "7", false],
  ] as const)("%s with %s minutes: %s", (plan, windowMinutes, ok) => {
    expect(messages(plan, { windowMinutes })).toEqual(ok ? [] : ["settings:window.notOffered"]);
  });
});

describe("settings schema: e-mail (profiles_email_alert_format, enterprise only)", () => {
  it.each(["alerts@example.com", "a.b+c_d%e-f@sub.example.co", "  x@y.io  "])(
    "accepts %s on enterprise",
    (emailAlert) => {
      expect(parse("enterprise", { emailAlert }).success).toBe(true);
    },
  );

  it.each(["plain", "a@b", "a@b.c", "a b@c.de", "a@b.c0m", "ä@b.de"])(
    "refuses %s",
    (emailAlert) => {
      expect(messages("enterprise", { emailAlert })).toEqual(["settings:email.invalid"]);
    },
  );

  it("stores an empty field as null and trims the address", () => {
    expect(parse("enterprise", { emailAlert: "" }).data?.emailAlert).toBeNull();
    expect(parse("enterprise", { emailAlert: " x@y.io " }).data?.emailAlert).toBe("x@y.io");
  });

  it("refuses an address below enterprise", () => {
    expect(messages("pro", { emailAlert: "alerts@example.com" })).toEqual([
      "settings:email.enterpriseOnly",
    ]);
    expect(parse("pro", { emailAlert: "" }).success).toBe(true);
  });
});

describe("settings schema: Discord (profiles_discord_webhook_format, enterprise only)", () => {
  it.each([
    "https://discord.com/api/webhooks/123456/abc_DEF-ghi",
    "https://discordapp.com/api/webhooks/1/x",
    "https://ptb.discord.com/api/webhooks/1/x",
    "https://canary.discord.com/api/webhooks/1/x",
  ])("accepts %s", (discordWebhookUrl) => {
    expect(parse("enterprise", { discordWebhookUrl }).data?.discordWebhookUrl).toBe(
      discordWebhookUrl,
    );
  });

  it.each([
    "http://discord.com/api/webhooks/1/x",
    "https://discord.gg/api/webhooks/1/x",
    "https://evil.com/discord.com/api/webhooks/1/x",
    "https://discord.com/api/webhooks/abc/x",
    "https://discord.com/api/webhooks/1/x/extra",
    "https://discord.com/api/webhooks/1/",
    "https://discord.com.evil.com/api/webhooks/1/x",
  ])("refuses %s", (discordWebhookUrl) => {
    expect(messages("enterprise", { discordWebhookUrl })).toEqual(["settings:discord.invalid"]);
  });

  it("stores an empty field as null", () => {
    expect(parse("enterprise", { discordWebhookUrl: " " }).data?.discordWebhookUrl).toBeNull();
  });

  it.each(["none", "basic", "pro"] as const)("refuses a webhook on %s", (plan) => {
    expect(messages(plan, { discordWebhookUrl: "https://discord.com/api/webhooks/1/x" })).toEqual([
      "settings:discord.enterpriseOnly",
    ]);
    expect(parse(plan, { discordWebhookUrl: " " }).data?.discordWebhookUrl).toBeNull();
  });
});

describe("settings schema: Telegram (profiles_telegram_chat_format, enterprise only)", () => {
  it.each([
    "123456789",
    "-1001234567890",
    "1".repeat(20),
    "@my_channel",
    "@abcde",
    `@a${"b".repeat(31)}`,
  ])("accepts %s", (telegramChatId) => {
    expect(parse("enterprise", { telegramChatId }).data?.telegramChatId).toBe(telegramChatId);
  });

  it.each([
    "1".repeat(21),
    "--1",
    "12a",
    "@abcd",
    `@a${"b".repeat(32)}`,
    "@1channel",
    "my_channel",
    "@my-channel",
  ])("refuses %s", (telegramChatId) => {
    expect(messages("enterprise", { telegramChatId })).toEqual(["settings:telegram.invalid"]);
  });

  it.each(["none", "basic", "pro"] as const)("refuses a chat ID on %s", (plan) => {
    expect(messages(plan, { telegramChatId: "@my_channel" })).toEqual([
      "settings:telegram.enterpriseOnly",
    ]);
    expect(parse(plan, { telegramChatId: "" }).data?.telegramChatId).toBeNull();
  });
});

describe("toProfileUpdate", () => {
  const input = {
    windowMinutes: 20,
    threshold: 7.5,
    selectedExchanges: ["coinbase", "dex"] satisfies ExchangeSelection[],
    emailAlert: "alerts@example.com",
    discordWebhookUrl: null,
    telegramChatId: "@my_channel",
  };

  it("leaves the window out for basic and the alert channels out below enterprise", () => {
    expect(toProfileUpdate(input, { plan: "basic", subscriptionActive: true })).toEqual({
      user_threshold: 7.5,
      selected_exchanges: ["coinbase", "dex"],
    });
  });

  it("sends the window for an active pro subscription, but no alert channel", () => {
    expect(toProfileUpdate(input, { plan: "pro", subscriptionActive: true })).toEqual({
      selected_window_minutes: 20,
      user_threshold: 7.5,
      selected_exchanges: ["coinbase", "dex"],
    });
  });

  it("sends window, e-mail, Discord and Telegram for enterprise, but not the window when inactive", () => {
    expect(toProfileUpdate(input, { plan: "enterprise", subscriptionActive: true })).toEqual({
      selected_window_minutes: 20,
      user_threshold: 7.5,
      selected_exchanges: ["coinbase", "dex"],
      email_alert: "alerts@example.com",
      discord_webhook_url: null,
      telegram_chat_id: "@my_channel",
    });
    const inactive = toProfileUpdate(input, { plan: "enterprise", subscriptionActive: false });
    expect(inactive).not.toHaveProperty("selected_window_minutes");
    expect(inactive).toMatchObject({
      email_alert: "alerts@example.com",
      discord_webhook_url: null,
      telegram_chat_id: "@my_channel",
    });
  });

  it("lets only active pro and enterprise subscriptions choose the window", () => {
    expect(canChooseWindow({ plan: "basic", subscriptionActive: true })).toBe(false);
    expect(canChooseWindow({ plan: "pro", subscriptionActive: false })).toBe(false);
    expect(canChooseWindow({ plan: "pro", subscriptionActive: true })).toBe(true);
    expect(canChooseWindow({ plan: "enterprise", subscriptionActive: true })).toBe(true);
  });
});
