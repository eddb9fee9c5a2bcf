import type { MoverEntry } from "@domain/realtime";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { AnalysisDialog } from "./analysis-dialog";

const entry: MoverEntry = {
  id: 7,
  instrument_id: 7,
  symbol: "PEPE/WETH",
  exchange: "Uniswap V3 (ethereum)",
  exchange_type: "dex",
  network: "ethereum",
  source: "dex",
  pool_url: null,
  price: 1,
  price_3hour_ago: 0.9,
  pct: 10,
  window_used: 15,
  pct_3hour: 11,
  volume_24h: null,
  ts: "2026-11-21T12:00:00Z",
};

const START = Date.parse("2026-11-21T09:00:00Z");

/** One point every 5 minutes; `price(i)` gives the price of point i. */
function history(
  count: number,
  price: (i: number) => number,
  volume: number | null,
  stepMs = 5 * 60_000,
) {
  return Array.from({ length: count }, (_, i) => ({
    ts: new Date(START + i * stepMs).toISOString(),
    price: price(i),
    volume_24h: volume,
  }));
}

function renderDialog(rows: ReturnType<typeof history>, live: Partial<MoverEntry> = {}) {
  const reads: unknown[] = [];
  supabaseMock.setRpc("price_history_for", (args) => {
    reads.push(args);
    return { data: rows, error: null };
  });
  renderWithProviders(<AnalysisDialog entry={{ ...entry, ...live }} onClose={() => {}} />);
  return { reads };
}

describe("AnalysisDialog", () => {
  it("charts 3 hours of 5-minute candles and rates a steady riser as low risk", async () => {
    // A live quote older than the history changes no candle.
    const { reads } = renderDialog(
      history(36, (i) => 1 * 1.002 ** i, 5_000_000),
      {
        ts: "2026-11-21T08:00:00Z",
      },
    );
    const dialog = await screen.findByRole("dialog", { name: /PEPE\/WETH/ });
    expect(await within(dialog).findByText("Preis-Chart")).toBeInTheDocument();
    expect(within(dialog).getByText("36 data points")).toBeInTheDocument();
    const chart = within(dialog).getByRole("img", { name: /36 five-minute candles/ });
    expect(chart.querySelectorAll('[data-slot="candle"]')).toHaveLength(36);
    expect(chart.querySelectorAll('[data-slot="candle"][data-color="up"]')).toHaveLength(36);
    // EMA 9 and 21 and Bollinger (20, 2) over the 36 closes.
    const lines = [...chart.querySelectorAll('[data-slot="line"]')].map((line) => [
      line.textContent,
      line.getAttribute("data-values"),
    ]);
    expect(lines).toEqual([
      ["EMA 9", "28"],
      ["EMA 21", "16"],
      ["BB upper", "17"],
      ["BB middle", "17"],
      ["BB lower", "17"],
    ]);

    expect(within(dialog).getByText("Bullish")).toBeInTheDocument();
    expect(within(dialog).getByRole("img", { name: "5 of 5 stars" })).toBeInTheDocument();
    expect(within(dialog).getByText("Low risk")).toBeInTheDocument();
    expect(within(dialog).getByText(/^Rising prices expected/)).toBeInTheDocument();
    expect(within(dialog).getByText("Good")).toBeInTheDocument();
    expect(within(dialog).getByText("36 points · 2h55m")).toBeInTheDocument();
    expect(within(dialog).getByText("Not financial advice")).toBeInTheDocument();
    expect(
      within(dialog).getByText(/experimental and for educational purposes only/),
    ).toBeInTheDocument();

    expect(reads).toEqual([{ instrument: 7 }]);
  });

  it("folds the live quote into the newest candle or starts the next one", async () => {
    // The history's last sample is at 11:55; the live quote at 12:07 opens the 12:05 candle.
    renderDialog(
      history(36, () => 1, null),
      { ts: "2026-11-21T12:07:00Z", price: 1.5 },
    );
    const chart = await screen.findByRole("img", { name: /37 five-minute candles/ });
    const last = [...chart.querySelectorAll('[data-slot="candle"]')].at(-1)!;
    expect(last.getAttribute("data-start")).toBe(String(Date.parse("2026-11-21T12:05:00Z")));
    expect(last.getAttribute("data-close")).toBe("1.5");
  });

  it("rates a thin, jumpy market as high risk", async () => {
    // Two points per candle: candles alternate up (1 → 1.05) and down (1.05 → 1).
    const jumpy = (i: number) => ((Math.floor(i / 2) % 2 === 0) === (i % 2 === 0) ? 1 : 1.05);
    renderDialog(history(72, jumpy, 1_000, 150_000));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("High risk")).toBeInTheDocument();
    expect(within(dialog).getByRole("img", { name: "1 of 5 stars" })).toBeInTheDocument();
    expect(within(dialog).getByText("Poor")).toBeInTheDocument();
    expect(
      within(dialog)
        .getByRole("img", { name: /candles/ })
        .querySelectorAll('[data-color="down"]').length,
    ).toBeGreaterThan(0);
  });

  it("says when there is not enough data", async () => {
    renderDialog(history(3, () => 1, null));
    const dialog = await screen.findByRole("dialog");
    expect(await within(dialog).findByText("Not enough data for analysis")).toBeInTheDocument();
    expect(within(dialog).getByText("3 data points")).toBeInTheDocument();
    expect(within(dialog).queryByText("Bullish")).not.toBeInTheDocument();
  });

  it("shows a spinner while loading", () => {
    renderDialog([]);
    expect(screen.getByRole("status", { name: "Loading analysis…" })).toBeInTheDocument();
  });
});

describe("AnalysisDialog: muting a symbol's alerts", () => {
  it("lets an enterprise subscriber mute the symbol for 15 min, 1 h or 24 h", async () => {
    supabaseMock.signInWithProfile("ada@example.com", {
      plan: "enterprise",
      subscription_active: true,
    });
    const mutes: unknown[] = [];
    supabaseMock.setRpc("mute_alert_symbol", (args) => {
      mutes.push(args);
      return { data: "2026-11-21T13:00:00Z", error: null };
    });
    renderDialog(history(36, () => 1, null));
    // Radix menus open on the pointer going down.
    fireEvent.pointerDown(await screen.findByRole("button", { name: "Mute alerts" }), {
      button: 0,
      ctrlKey: false,
    });
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual([
      "Mute PEPE/WETH for 15 minutes",
      "Mute PEPE/WETH for 1 hour",
      "Mute PEPE/WETH for 24 hours",
    ]);
    fireEvent.click(items[1]!);
    await waitFor(() => expect(mutes).toEqual([{ symbol: "PEPE/WETH", minutes: 60 }]));
  });

  it("offers no mute to plans that get no alerts", async () => {
    supabaseMock.signInWithProfile("ada@example.com", { plan: "pro", subscription_active: true });
    renderDialog(history(36, () => 1, null));
    expect(await screen.findByRole("dialog")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mute alerts" })).not.toBeInTheDocument();
  });
});
