import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { toast } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "@/components/ui/sonner";
import { i18n } from "@/i18n/i18n";
import type { Profile } from "@/lib/profile-query";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock, TEST_USER_ID, testProfile } from "@/testing/supabase-mock";
import { SettingsPage } from "./settings-page";

const USER_ID = TEST_USER_ID;

/** A pro subscriber named "ada" unless a test says otherwise. */
function profileRow(overrides: Partial<Profile> = {}): Profile {
  return testProfile({
    email: "ada@example.com",
    username: "ada",
    plan: "pro",
    subscription_active: true,
    selected_window_minutes: 15,
    ...overrides,
  });
}

function renderSettings(profile: Profile | null = profileRow()) {
  supabaseMock.signIn("ada@example.com");
  supabaseMock.setTable("profiles", { data: profile, error: null });
  const queryClient = createTestQueryClient();
  const router = createMemoryRouter(
    [
      { path: "/dashboard/settings", element: <SettingsPage /> },
      { path: "/auth/login", element: <p>Login page</p> },
    ],
    { initialEntries: ["/dashboard/settings"] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

const windowSelect = () => screen.getByRole("combobox", { name: "Time Window" });
const thresholdInput = () => screen.getByRole("spinbutton", { name: "Percentage Threshold" });
const emailInput = () => screen.getByRole("textbox", { name: "E-Mail for Alerts" });
const discordInput = () => screen.getByRole("textbox", { name: "Discord webhook URL" });
const telegramInput = () => screen.getByRole("textbox", { name: "Telegram chat ID" });
const exchangesGroup = () => screen.getByRole("group", { name: "Exchanges" });
const exchangeBox = (name: string) => within(exchangesGroup()).getByRole("checkbox", { name });
const EXCHANGE_LABELS = ["Coinbase", "DEX (on-chain pools)", "Major CEX (Binance)"];
const checkedExchanges = () =>
  EXCHANGE_LABELS.filter((name) => (exchangeBox(name) as HTMLInputElement).checked);
const saveButton = () => screen.getByRole("button", { name: "Save" });
const optionLabels = () =>
  within(windowSelect())
    .getAllByRole("option")
    .map((option) => option.textContent);

function change(element: HTMLElement, value: string) {
  fireEvent.change(element, { target: { value } });
}

async function ready() {
  await screen.findByRole("heading", { name: "Settings", level: 1 });
}

afterEach(() => {
  vi.useRealTimers();
  toast.dismiss();
});

describe("SettingsPage: account info", () => {
  it("shows e-mail, plan and status", async () => {
    renderSettings(profileRow({ plan: "enterprise" }));
    await ready();
    expect(screen.getByText("Account Info")).toBeInTheDocument();
    expect(screen.getByText("ada@example.com")).toBeInTheDocument();
    expect(screen.getByText("Enterprise")).toBeInTheDocument();
    expect(screen.getByText("Active")).toBeInTheDocument();
  });

  it("shows an inactive subscription", async () => {
    renderSettings(profileRow({ subscription_active: false }));
    await ready();
    expect(screen.getByText("Inactive")).toBeInTheDocument();
  });

  it("sends the user to the login page when no profile is returned", async () => {
    const { router } = renderSettings(null);
    expect(await screen.findByText("Login page")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
  });
});

describe("SettingsPage: time window", () => {
  it("fixes basic at 30 minutes", async () => {
    renderSettings(profileRow({ plan: "basic", selected_window_minutes: 30 }));
    await ready();
    expect(optionLabels()).toEqual(["Fixed: 30 min"]);
    expect(windowSelect()).toBeDisabled();
  });

  it("offers pro 15 to 30 minutes", async () => {
    renderSettings(profileRow({ plan: "pro", selected_window_minutes: 20 }));
    await ready();
    expect(optionLabels()).toEqual(["15 minutes", "20 minutes", "25 minutes", "30 minutes"]);
    expect(windowSelect()).toBeEnabled();
    expect(windowSelect()).toHaveValue("20");
  });

  it("offers enterprise 10 seconds and 5 to 30 minutes", async () => {
    renderSettings(profileRow({ plan: "enterprise", selected_window_minutes: 0 }));
    await ready();
    expect(optionLabels()).toEqual([
      "10 seconds",
      "5 minutes",
      "10 minutes",
      "15 minutes",
      "20 minutes",
      "25 minutes",
      "30 minutes",
    ]);
    expect(windowSelect()).toHaveValue("0");
  });

  it("disables the window when the subscription is inactive", async () => {
    renderSettings(profileRow({ plan: "pro", subscription_active: false }));
    await ready();
    expect(windowSelect()).toBeDisabled();
    expect(
      screen.getByText("Activate your subscription to choose a time window."),
    ).toBeInTheDocument();
  });

  it("shows the plan's fallback when the stored window is not offered", async () => {
    renderSettings(profileRow({ plan: "enterprise", selected_window_minutes: 3 }));
    await ready();
    expect(windowSelect()).toHaveValue("5");
  });
});

describe("SettingsPage: fields", () => {
  it("explains the threshold and sets up the number field", async () => {
    renderSettings(profileRow({ user_threshold: 12.5 }));
    await ready();
    expect(thresholdInput()).toHaveValue(12.5);
    expect(thresholdInput()).toHaveAttribute("step", "0.1");
    expect(thresholdInput()).toHaveAttribute("min", "1");
    expect(thresholdInput()).toHaveAttribute("max", "100");
    expect(
      screen.getByText("Only signals above this percentage will be shown (1-100%)"),
    ).toBeInTheDocument();
  });

  it.each(["basic", "pro"] as const)("disables the alert channels on %s", async (plan) => {
    renderSettings(profileRow({ plan, selected_window_minutes: 30 }));
    await ready();
    expect(emailInput()).toBeDisabled();
    expect(emailInput()).toHaveAttribute("type", "email");
    expect(discordInput()).toBeDisabled();
    expect(telegramInput()).toBeDisabled();
    expect(emailInput()).toHaveAccessibleDescription(
      "E-mail alerts are available on the Enterprise plan.",
    );
    expect(discordInput()).toHaveAccessibleDescription(
      "Discord alerts are available on the Enterprise plan.",
    );
    expect(telegramInput()).toHaveAccessibleDescription(
      "Telegram alerts are available on the Enterprise plan.",
    );
  });

  it("enables the alert channels on enterprise", async () => {
    renderSettings(
      profileRow({
        plan: "enterprise",
        email_alert: "alerts@example.com",
        discord_webhook_url: "https://discord.com/api/webhooks/1/x",
        telegram_chat_id: "@my_channel",
      }),
    );
    await ready();
    expect(emailInput()).toBeEnabled();
    expect(emailInput()).toHaveValue("alerts@example.com");
    expect(discordInput()).toBeEnabled();
    expect(discordInput()).toHaveValue("https://discord.com/api/webhooks/1/x");
    expect(discordInput()).toHaveAccessibleDescription(
      "Discord: channel settings → Integrations → Webhooks → Copy Webhook URL. Leave empty for no Discord alerts.",
    );
    expect(telegramInput()).toBeEnabled();
    expect(telegramInput()).toHaveValue("@my_channel");
    expect(telegramInput()).toHaveAccessibleDescription(
      "A numeric chat ID or a public channel name. Leave empty for no Telegram alerts.",
    );
  });

  it.each([
    ["threshold", "0.5", "The threshold must be at least 1%"],
    ["threshold", "101", "The threshold must be at most 100%"],
    ["email", "not-an-address", "Invalid email address"],
    [
      "discord",
      "https://example.com/hook",
      "Enter a Discord webhook URL such as https://discord.com/api/webhooks/123456/abcDEF",
    ],
    [
      "telegram",
      "@abc",
      "Enter a numeric chat ID (up to 20 digits, optionally with a leading minus) or a channel name such as @my_channel (5-32 characters: letters, numbers, underscores, starting with a letter)",
    ],
  ] as const)("refuses a wrong %s (%s) without saving", async (field, value, message) => {
    renderSettings(profileRow({ plan: "enterprise" }));
    await ready();
    const input = {
      threshold: thresholdInput,
      email: emailInput,
      discord: discordInput,
      telegram: telegramInput,
    }[field]();
    change(input, value);
    fireEvent.click(saveButton());

    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(supabaseMock.updates).toEqual([]);
  });
});

describe("SettingsPage: exchanges", () => {
  it("offers three exchanges, all checked by default", async () => {
    renderSettings();
    await ready();
    expect(
      within(exchangesGroup())
        .getAllByRole("checkbox")
        .map((box) => box.closest("label")?.textContent),
    ).toEqual(EXCHANGE_LABELS);
    expect(checkedExchanges()).toEqual(EXCHANGE_LABELS);
    expect(exchangesGroup()).toHaveAccessibleDescription(
      "Your dashboard shows moves from the exchanges you choose here.",
    );
  });

  it.each([
    [["coinbase"], ["Coinbase"]],
    [
      ["dex", "cex-major"],
      ["DEX (on-chain pools)", "Major CEX (Binance)"],
    ],
    [[], []],
  ])("reflects the stored %j", async (selected_exchanges, checked) => {
    renderSettings(profileRow({ selected_exchanges }));
    await ready();
    expect(checkedExchanges()).toEqual(checked);
  });

  it("refuses to save without an exchange", async () => {
    renderSettings(profileRow({ selected_exchanges: ["coinbase", "dex"] }));
    await ready();
    fireEvent.click(exchangeBox("Coinbase"));
    fireEvent.click(exchangeBox("DEX (on-chain pools)"));
    expect(checkedExchanges()).toEqual([]);
    fireEvent.click(saveButton());

    expect(await screen.findByText("Choose at least one exchange")).toBeInTheDocument();
    expect(exchangesGroup()).toHaveAttribute("aria-invalid", "true");
    expect(exchangesGroup()).toHaveAccessibleDescription(
      "Your dashboard shows moves from the exchanges you choose here. Choose at least one exchange",
    );
    expect(supabaseMock.updates).toEqual([]);

    fireEvent.click(exchangeBox("Major CEX (Binance)"));
    fireEvent.click(saveButton());
    await screen.findByText("Settings saved");
    expect(supabaseMock.updates[0]?.values).toMatchObject({ selected_exchanges: ["cex-major"] });
  });

  it("saves a changed selection with the other settings", async () => {
    renderSettings(profileRow({ plan: "basic", selected_window_minutes: 30 }));
    await ready();
    fireEvent.click(exchangeBox("Coinbase"));
    change(thresholdInput(), "12");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(supabaseMock.updates).toEqual([
      {
        table: "profiles",
        values: { user_threshold: 12, selected_exchanges: ["dex", "cex-major"] },
        filters: [["id", USER_ID]],
      },
    ]);
    expect(checkedExchanges()).toEqual(["DEX (on-chain pools)", "Major CEX (Binance)"]);
  });

  it("names the exchanges and the rule in German", async () => {
    await i18n.changeLanguage("de");
    renderSettings(profileRow({ selected_exchanges: ["dex"] }));
    await screen.findByRole("heading", { name: "Einstellungen", level: 1 });
    const group = screen.getByRole("group", { name: "Börsen" });
    const dex = within(group).getByRole("checkbox", { name: "DEX (On-Chain-Pools)" });
    expect(dex).toBeChecked();
    expect(within(group).getByRole("checkbox", { name: "Große CEX (Binance)" })).not.toBeChecked();
    fireEvent.click(dex);
    fireEvent.submit(group.closest("form")!);
    expect(await screen.findByText("Wähle mindestens eine Börse aus")).toBeInTheDocument();
  });
});

describe("SettingsPage: save", () => {
  it("saves a pro user's window and threshold, without the alert channels", async () => {
    const { queryClient } = renderSettings();
    await ready();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    change(windowSelect(), "25");
    change(thresholdInput(), "7.5");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(screen.getByText("Your changes have been successfully applied.")).toBeInTheDocument();
    expect(supabaseMock.updates).toEqual([
      {
        table: "profiles",
        values: {
          selected_window_minutes: 25,
          user_threshold: 7.5,
          selected_exchanges: ["coinbase", "dex", "cex-major"],
        },
        filters: [["id", USER_ID]],
      },
    ]);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ["profile", USER_ID] });
  });

  it("saves an enterprise user's window, threshold and channels", async () => {
    renderSettings(profileRow({ plan: "enterprise", selected_window_minutes: 5 }));
    await ready();
    change(windowSelect(), "0");
    change(thresholdInput(), "7.5");
    change(emailInput(), "alerts@example.com");
    change(discordInput(), "https://discord.com/api/webhooks/42/secret_token");
    change(telegramInput(), "-1001234567890");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(supabaseMock.updates).toEqual([
      {
        table: "profiles",
        values: {
          selected_window_minutes: 0,
          user_threshold: 7.5,
          selected_exchanges: ["coinbase", "dex", "cex-major"],
          email_alert: "alerts@example.com",
          discord_webhook_url: "https://discord.com/api/webhooks/42/secret_token",
          telegram_chat_id: "-1001234567890",
        },
        filters: [["id", USER_ID]],
      },
    ]);
  });

  it("saves an empty threshold as 10 and leaves basic's window and channels out", async () => {
    renderSettings(profileRow({ plan: "basic", selected_window_minutes: 30, user_threshold: 4 }));
    await ready();
    change(thresholdInput(), "");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(supabaseMock.updates[0]?.values).toEqual({
      user_threshold: 10,
      selected_exchanges: ["coinbase", "dex", "cex-major"],
    });
    expect(thresholdInput()).toHaveValue(10);
  });

  it("ignores a channel still stored below enterprise instead of blocking the save", async () => {
    renderSettings(
      profileRow({ plan: "pro", telegram_chat_id: "@my_channel", email_alert: "a@b.io" }),
    );
    await ready();
    expect(telegramInput()).toHaveValue("");
    expect(emailInput()).toHaveValue("");
    fireEvent.click(saveButton());

    expect(await screen.findByText("Settings saved")).toBeInTheDocument();
    expect(supabaseMock.updates[0]?.values).toEqual({
      selected_window_minutes: 15,
      user_threshold: 10,
      selected_exchanges: ["coinbase", "dex", "cex-major"],
    });
  });

  it("saves the alert e-mail on enterprise and clears it when emptied", async () => {
    renderSettings(profileRow({ plan: "enterprise", email_alert: "old@example.com" }));
    await ready();
    change(emailInput(), "new@example.com");
    fireEvent.click(saveButton());
    await screen.findByText("Settings saved");
    expect(supabaseMock.updates[0]?.values).toMatchObject({ email_alert: "new@example.com" });

    change(emailInput(), "");
    fireEvent.click(saveButton());
    await vi.waitFor(() => expect(supabaseMock.updates).toHaveLength(2));
    expect(supabaseMock.updates[1]?.values).toMatchObject({ email_alert: null });
  });

  it("shows 'Saving...' while the save runs", async () => {
    let finish: (value: { data: null; error: null }) => void = () => {};
    renderSettings();
    await ready();
    supabaseMock.setTableUpdate("profiles", () => new Promise((resolve) => (finish = resolve)));
    fireEvent.click(saveButton());
    const saving = await screen.findByRole("button", { name: "Saving..." });
    expect(saving).toBeDisabled();
    await act(async () => finish({ data: null, error: null }));
    expect(await screen.findByRole("button", { name: "Save" })).toBeEnabled();
  });

  it("shows the server's message and hint for a refusal without a known code", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: {
        message: "The pro plan does not offer a 5 minute window",
        code: "23514",
        hint: "Allowed windows: 15, 20, 25, 30",
        details: "some_future_rule",
      },
      status: 400,
    });
    renderSettings();
    await ready();
    fireEvent.click(saveButton());

    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(
      screen.getByText(
        "The pro plan does not offer a 5 minute window. Allowed windows: 15, 20, 25, 30.",
      ),
    ).toBeInTheDocument();
  });

  it.each([
    [
      "window_not_offered",
      "pro",
      "The pro plan does not offer a 5 minute window",
      "Allowed windows: 15, 20, 25, 30",
      "Your plan does not offer this time window. Available: 15 minutes, 20 minutes, 25 minutes, and 30 minutes.",
    ],
    [
      "window_not_offered",
      "enterprise",
      "The enterprise plan does not offer a 7 minute window",
      "Allowed windows: 0, 5, 10, 15, 20, 25, 30",
      "Your plan does not offer this time window. Available: 10 seconds, 5 minutes, 10 minutes, 15 minutes, 20 minutes, 25 minutes, and 30 minutes.",
    ],
    [
      "window_needs_active_subscription",
      "pro",
      "An active subscription is required to change the time window",
      null,
      "Your subscription is inactive: the time window cannot be changed.",
    ],
    [
      "email_alert_enterprise_only",
      "enterprise",
      "E-mail alerts are available on the enterprise plan only",
      null,
      "E-mail alerts are available on the Enterprise plan only.",
    ],
    [
      "chat_alerts_enterprise_only",
      "enterprise",
      "Discord and Telegram alerts are available on the enterprise plan only",
      null,
      "Discord and Telegram alerts are available on the Enterprise plan only.",
    ],
  ] as const)(
    "translates the server's refusal %s (%s)",
    async (details, plan, message, hint, text) => {
      supabaseMock.setTableUpdate("profiles", {
        data: null,
        error: { message, code: "23514", hint, details },
        status: 400,
      });
      renderSettings(profileRow({ plan }));
      await ready();
      fireEvent.click(saveButton());

      const toast = (await screen.findByText(text)).closest("li")!;
      expect(within(toast).getByText("Error")).toBeInTheDocument();
      // The server's English message is not shown (case matters: the texts are close).
      expect(toast).not.toHaveTextContent(message);
    },
  );

  it("reports a save that changed no row (row-level security refused it) as a failure", async () => {
    supabaseMock.setTableUpdate("profiles", { data: [], error: null, status: 200 });
    renderSettings();
    await ready();
    fireEvent.click(saveButton());

    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(
      screen.getByText("Nothing was saved: your account cannot be changed right now."),
    ).toBeInTheDocument();
    expect(screen.queryByText("Settings saved")).not.toBeInTheDocument();
  });

  it("falls back to 'Failed to save settings.' without a server message", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "", code: "" },
      status: 500,
    });
    renderSettings();
    await ready();
    fireEvent.click(saveButton());

    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(screen.getByText("Failed to save settings.")).toBeInTheDocument();
  });

  it("sends the user to log in again after 2 s when the session has expired", async () => {
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "JWT expired", code: "PGRST303" },
      status: 401,
    });
    const { router } = renderSettings();
    await ready();
    vi.useFakeTimers();
    fireEvent.click(saveButton());
    await act(() => vi.advanceTimersByTimeAsync(50));

    expect(screen.getByText("Session expired")).toBeInTheDocument();
    expect(screen.getByText("Please login again to save settings")).toBeInTheDocument();
    expect(screen.queryByText("Error")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(router.state.location.pathname).toBe("/dashboard/settings");
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(router.state.location.search).toBe("?redirect=/dashboard/settings");
  });
});

describe("SettingsPage: languages", () => {
  it.each([
    ["de", "Einstellungen", "Zeitfenster", "Fest: 30 Min.", "Einstellungen gespeichert"],
    ["fr", "Paramètres", "Fenêtre de temps", "Fixe : 30 min", "Paramètres enregistrés"],
    ["es", "Ajustes", "Ventana de tiempo", "Fija: 30 min", "Ajustes guardados"],
  ])("speaks %s", async (language, title, windowLabel, fixed, saved) => {
    await i18n.changeLanguage(language);
    renderSettings(profileRow({ plan: "basic", selected_window_minutes: 30 }));
    await screen.findByRole("heading", { name: title, level: 1 });
    const select = screen.getByRole("combobox", { name: windowLabel });
    expect(within(select).getByRole("option")).toHaveTextContent(fixed);
    fireEvent.submit(select.closest("form")!);
    expect(await screen.findByText(saved)).toBeInTheDocument();
  });

  it.each([
    [
      "de",
      "window_not_offered",
      "Einstellungen",
      "Dein Tarif bietet dieses Zeitfenster nicht an. Verfügbar: 15 Minuten, 20 Minuten, 25 Minuten und 30 Minuten.",
    ],
    [
      "de",
      "window_needs_active_subscription",
      "Einstellungen",
      "Dein Abonnement ist inaktiv: Das Zeitfenster kann nicht geändert werden.",
    ],
    [
      "de",
      "email_alert_enterprise_only",
      "Einstellungen",
      "E-Mail-Alarme gibt es nur im Enterprise-Tarif.",
    ],
    [
      "de",
      "chat_alerts_enterprise_only",
      "Einstellungen",
      "Discord- und Telegram-Alarme gibt es nur im Enterprise-Tarif.",
    ],
    [
      "fr",
      "window_not_offered",
      "Paramètres",
      "Votre formule ne propose pas cette fenêtre de temps. Disponibles : 15 minutes, 20 minutes, 25 minutes et 30 minutes.",
    ],
    [
      "es",
      "chat_alerts_enterprise_only",
      "Ajustes",
      "Las alertas de Discord y Telegram solo están disponibles en el plan Enterprise.",
    ],
  ])("translates the server's refusal into %s: %s", async (language, details, title, text) => {
    await i18n.changeLanguage(language);
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: { message: "refused", code: "23514", hint: null, details },
      status: 400,
    });
    renderSettings(profileRow({ plan: "pro" }));
    await screen.findByRole("heading", { name: title, level: 1 });
    fireEvent.submit(screen.getByRole("combobox").closest("form")!);
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it("describes the disabled Discord and Telegram fields in German", async () => {
    await i18n.changeLanguage("de");
    renderSettings(profileRow({ plan: "pro" }));
    await screen.findByRole("heading", { name: "Einstellungen", level: 1 });
    expect(screen.getByRole("textbox", { name: "Discord-Webhook-URL" })).toBeDisabled();
    expect(screen.getByText("Discord-Alarme gibt es im Enterprise-Tarif.")).toBeInTheDocument();
    expect(screen.getByRole("textbox", { name: "Telegram-Chat-ID" })).toBeDisabled();
    expect(screen.getByText("Telegram-Alarme gibt es im Enterprise-Tarif.")).toBeInTheDocument();
  });

  it("names the windows and the threshold rule in German", async () => {
    await i18n.changeLanguage("de");
    renderSettings(profileRow({ plan: "enterprise", selected_window_minutes: 0 }));
    await screen.findByRole("heading", { name: "Einstellungen", level: 1 });
    const select = screen.getByRole("combobox", { name: "Zeitfenster" });
    expect(within(select).getAllByRole("option")[0]).toHaveTextContent("10 Sekunden");
    fireEvent.change(screen.getByRole("spinbutton", { name: "Prozent-Schwelle" }), {
      target: { value: "0.5" },
    });
    fireEvent.submit(select.closest("form")!);
    expect(
      await screen.findByText("Die Schwelle muss mindestens 1 % betragen"),
    ).toBeInTheDocument();
  });
});
