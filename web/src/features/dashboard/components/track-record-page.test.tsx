import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { TrackRecordPage } from "./track-record-page";

// signal_track_record rows as PostgREST sends them (numeric columns may arrive as text).
const byPeriod: Record<string, unknown[]> = {
  "7d": [
    {
      strategy: "macd",
      horizon_hours: 1,
      signals: 3,
      hits: 2,
      hit_rate: "0.6667",
      directional: 3,
      avg_return: "1.6667",
      median_return: "3.0000",
    },
    {
      strategy: "rsi",
      horizon_hours: 1,
      signals: 3,
      hits: 2,
      hit_rate: 0.6667,
      directional: 2,
      avg_return: -0.5,
      median_return: -0.5,
    },
  ],
  "24h": [],
  "30d": [
    {
      strategy: "ema_cross",
      horizon_hours: 1,
      signals: 4,
      hits: 1,
      hit_rate: 0.25,
      directional: 0,
      avg_return: null,
      median_return: null,
    },
  ],
};

function renderPage() {
  supabaseMock.signInWithProfile("ada@example.com", { plan: "pro", subscription_active: true });
  supabaseMock.setRpc("signal_track_record", (args) => ({
    data: byPeriod[(args as { period: string }).period] ?? [],
    error: null,
  }));
  renderWithProviders(<TrackRecordPage />);
}

const rows = () =>
  within(screen.getByRole("table"))
    .getAllByRole("row")
    .slice(1)
    .map((row) =>
      // Intl separates number and % with a no-break space in some languages.
      [...row.querySelectorAll("th, td")].map((cell) =>
        cell.textContent?.replace(/\u00a0|\u202f/g, " "),
      ),
    );

describe("TrackRecordPage", () => {
  it("shows each strategy's hit rate and returns over 7 days by default", async () => {
    renderPage();
    expect(
      await screen.findByRole("heading", { name: "Strategy track record" }),
    ).toBeInTheDocument();
    await screen.findByRole("table");
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("signal_track_record", { period: "7d" });
    expect(screen.getByRole("button", { name: "7 days" })).toHaveAttribute("aria-pressed", "true");
    expect(rows()).toEqual([
      ["MACD", "1 h", "3", "66.7% (2 of 3)", "+1.67%", "+3.00%"],
      ["RSI", "1 h", "3", "66.7% (2 of 3)", "-0.50%", "-0.50%"],
    ]);
  });

  it("switches periods, says when there is nothing yet, and shows no return without directional signals", async () => {
    renderPage();
    await screen.findByRole("table");
    fireEvent.click(screen.getByRole("button", { name: "24 hours" }));
    expect(
      await screen.findByText(
        "No outcomes in this period yet. A signal's outcome is recorded an hour after it.",
      ),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "30 days" }));
    await screen.findByRole("table");
    expect(rows()).toEqual([["EMA Cross", "1 h", "4", "25% (1 of 4)", "—", "—"]]);
  });

  it("reports a refusal or failure", async () => {
    supabaseMock.signInWithProfile("ada@example.com", { plan: "pro", subscription_active: true });
    supabaseMock.setRpc("signal_track_record", {
      data: null,
      error: { message: "Active subscription required", code: "PT403" },
    });
    renderWithProviders(<TrackRecordPage />);
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The track record could not be loaded.",
    );
  });

  it("speaks German", async () => {
    await i18n.changeLanguage("de");
    renderPage();
    expect(
      await screen.findByRole("heading", { name: "Bilanz der Strategien" }),
    ).toBeInTheDocument();
    await screen.findByRole("table");
    expect(rows()[0]).toEqual(["MACD", "1 h", "3", "66,7 % (2 von 3)", "+1,67 %", "+3,00 %"]);
  });
});
