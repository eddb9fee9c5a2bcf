import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock, TEST_USER_ID, testProfile } from "@/testing/supabase-mock";
import { AlertDeliveryCard } from "./alert-delivery-card";

const enterprise = testProfile({ plan: "enterprise", subscription_active: true });

function setUp() {
  supabaseMock.setTable("alert_symbol_rules", {
    data: [
      {
        user_id: TEST_USER_ID,
        symbol: "ETH/USDT",
        threshold: 7.5,
        muted_until: null,
        updated_at: "2026-11-24T10:00:00Z",
      },
    ],
    error: null,
  });
  supabaseMock.setTable("alerts_sent", {
    data: [
      {
        id: "a1",
        symbol: "SOL/USDT",
        exchange: "Binance",
        pct: 12.345,
        channel: "telegram",
        window_minutes: 15,
        created_at: "2026-11-24T10:00:00Z",
        symbols: ["SOL/USDT"],
        symbol_count: 1,
      },
      {
        id: "a2",
        symbol: "PEPE/USDT",
        exchange: "Binance",
        pct: -30,
        channel: "email",
        window_minutes: 15,
        created_at: "2026-11-24T09:00:00Z",
        symbols: ["PEPE/USDT", "DOGE/USDT", "BTC/USDT"],
        symbol_count: 25,
      },
    ],
    error: null,
  });
}

describe("AlertDeliveryCard", () => {
  it("shows the user's own recent alerts and symbol rules", async () => {
    setUp();
    renderWithProviders(<AlertDeliveryCard profile={enterprise} />, {
      route: "/dashboard/settings",
    });
    expect(await screen.findByText("SOL/USDT")).toBeInTheDocument();
    expect(screen.getByText("+12.35%")).toBeInTheDocument();
    expect(screen.getByText("Telegram")).toBeInTheDocument();
    // A digest is one row: its largest move and how many more symbols it carried.
    const more = screen.getByText("+24 more");
    expect(more).toHaveAttribute("title", "PEPE/USDT, DOGE/USDT, BTC/USDT");
    expect(more.closest("td")).toHaveTextContent("PEPE/USDT+24 more");
    expect(screen.queryByText("+0 more")).not.toBeInTheDocument();
    expect(await screen.findByText("threshold 7.5 %")).toBeInTheDocument();
  });

  it("saves pump/dump, pause and confluence with the interface language", async () => {
    setUp();
    supabaseMock.setTableUpdate("profiles", { data: [{ id: TEST_USER_ID }], error: null });
    renderWithProviders(<AlertDeliveryCard profile={enterprise} />, {
      route: "/dashboard/settings",
    });
    fireEvent.change(screen.getByLabelText("Alert on"), { target: { value: "both" } });
    fireEvent.change(screen.getByLabelText("Pause per symbol"), { target: { value: "60" } });
    fireEvent.change(screen.getByLabelText("Confluence"), { target: { value: "3" } });
    fireEvent.click(screen.getByRole("button", { name: "Save delivery options" }));
    expect(await screen.findByText("Delivery options saved")).toBeInTheDocument();
    expect(supabaseMock.updates.at(-1)).toMatchObject({
      table: "profiles",
      values: {
        alert_directions: "both",
        alert_cooldown_minutes: 60,
        alert_confluence_min: 3,
        locale: "en",
      },
    });
  });

  it("mutes the symbol of an alert's link once, and refuses a bad threshold", async () => {
    setUp();
    const calls: unknown[] = [];
    supabaseMock.setRpc("mute_alert_symbol", (args) => {
      calls.push(args);
      return { data: "2026-11-24T11:00:00Z", error: null };
    });
    renderWithProviders(<AlertDeliveryCard profile={enterprise} />, {
      route: "/dashboard/settings?mute=PEPE%2FWETH&minutes=60",
    });
    expect(await screen.findByText("PEPE/WETH is muted for 1 hour")).toBeInTheDocument();
    expect(calls).toEqual([{ symbol: "PEPE/WETH", minutes: 60 }]);

    fireEvent.change(screen.getByLabelText("Symbol"), { target: { value: "BTC/USDT" } });
    fireEvent.change(screen.getByLabelText("Threshold (%)"), { target: { value: "500" } });
    fireEvent.click(screen.getByRole("button", { name: "Save threshold" }));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "The threshold must be a number from 1 to 100.",
      ),
    );
  });

  it("saves storm control, with the browser's zone when the profile has none", async () => {
    setUp();
    supabaseMock.setTableUpdate("profiles", { data: [{ id: TEST_USER_ID }], error: null });
    renderWithProviders(<AlertDeliveryCard profile={enterprise} />, {
      route: "/dashboard/settings",
    });
    fireEvent.change(screen.getByLabelText("Alert again within a pump"), {
      target: { value: "5" },
    });
    fireEvent.change(screen.getByLabelText("Daily cap (messages)"), { target: { value: "40" } });
    fireEvent.change(screen.getByLabelText("Quiet hours start"), { target: { value: "22:30" } });
    fireEvent.change(screen.getByLabelText("Quiet hours end"), { target: { value: "07:00" } });
    fireEvent.click(screen.getByLabelText("Let dump alerts through during quiet hours"));
    fireEvent.click(screen.getByRole("button", { name: "Save delivery options" }));
    expect(await screen.findByText("Delivery options saved")).toBeInTheDocument();
    expect(supabaseMock.updates.at(-1)).toMatchObject({
      table: "profiles",
      values: {
        alert_escalation_step: 5,
        alert_daily_cap: 40,
        alert_quiet_start: "22:30",
        alert_quiet_end: "07:00",
        alert_quiet_dumps: true,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    });
  });

  it("shows the thin and confirmation switches off by default and saves them", async () => {
    setUp();
    supabaseMock.setTableUpdate("profiles", { data: [{ id: TEST_USER_ID }], error: null });
    renderWithProviders(<AlertDeliveryCard profile={enterprise} />, {
      route: "/dashboard/settings",
    });
    const thin = screen.getByLabelText("Include thin moves (little volume or liquidity)");
    const confirmed = screen.getByLabelText("Require confirmation on another venue");
    expect(thin).not.toBeChecked();
    expect(confirmed).not.toBeChecked();
    fireEvent.click(confirmed);
    fireEvent.click(screen.getByRole("button", { name: "Save delivery options" }));
    expect(await screen.findByText("Delivery options saved")).toBeInTheDocument();
    expect(supabaseMock.updates.at(-1)).toMatchObject({
      table: "profiles",
      values: { alert_include_thin: false, alert_require_confirmation: true },
    });
  });

  it("keeps a chosen zone, and shows storm-control errors from the form and the server", async () => {
    setUp();
    const profile = testProfile({
      plan: "enterprise",
      subscription_active: true,
      time_zone: "Asia/Tokyo",
      alert_daily_cap: 10,
    });
    supabaseMock.setTableUpdate("profiles", {
      data: null,
      error: {
        code: "23514",
        message:
          'new row for relation "profiles" violates check constraint "profiles_alert_daily_cap_range"',
      },
    });
    renderWithProviders(<AlertDeliveryCard profile={profile} />, {
      route: "/dashboard/settings",
    });
    expect(screen.getByText(/follow your time zone \(Asia\/Tokyo\)/)).toBeInTheDocument();
    const before = supabaseMock.updates.length;
    fireEvent.change(screen.getByLabelText("Quiet hours start"), { target: { value: "23:00" } });
    fireEvent.click(screen.getByRole("button", { name: "Save delivery options" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "Quiet hours need both a start and an end.",
    );
    expect(supabaseMock.updates.length).toBe(before);

    fireEvent.change(screen.getByLabelText("Quiet hours start"), { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Save delivery options" }));
    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "The daily cap must be a whole number from 1 to 500, or empty for no cap.",
      ),
    );
    const sent = supabaseMock.updates.at(-1)!;
    expect(sent.values).toMatchObject({ alert_daily_cap: 10, alert_quiet_start: null });
    expect(sent.values).not.toHaveProperty("time_zone");
  });
});
