import type { MoverEntry } from "@domain/realtime";
import { screen, within } from "@testing-library/react";
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
  volume_24h_usd: null,
  liquidity_usd: null,
  spread_pct: null,
  thin: false,
  confirmed_on: [],
  flags: [],
  trust_score: 50,
  asset: "PEPE",
  pool_name: null,
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
    expect(await within(dialog).findByText("Price chart")).toBeInTheDocument();
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

describe("AnalysisDialog: other features' actions on the symbol", () => {
  it("shows what symbolActions renders for the analysed symbol", async () => {
    renderWithProviders(
      <AnalysisDialog
        entry={entry}
        onClose={() => {}}
        symbolActions={(symbol) => <button type="button">Act on {symbol}</button>}
      />,
    );
    expect(await screen.findByRole("button", { name: "Act on PEPE/WETH" })).toBeInTheDocument();
  });
});

describe("AnalysisDialog, Pro sections", () => {
  const insights = {
    as_of: "2026-11-21T12:00:00Z",
    move_1h_pct: 4.5,
    comparison: {
      hours: 719,
      occurrences: 12,
      after_1h: { avg_pct: -0.8, samples: 12 },
      after_4h: { avg_pct: 1.25, samples: 11 },
      after_24h: { avg_pct: 3.5, samples: 9 },
    },
    percentile: 97.5,
    btc_correlation: 0.62,
    btc_correlation_pairs: 280,
    volatility: { regime: "wild", stddev_24h_pct: 2.1, stddev_30d_pct: 1.1 },
    drawdown: { pct: -6.25, peak_at: null, trough_at: null },
  };

  it("shows Basic an upgrade prompt in their place and asks the database for nothing of them", async () => {
    supabaseMock.signInWithProfile("basic@example.com", {
      plan: "basic",
      subscription_active: true,
    });
    const calls: string[] = [];
    supabaseMock.setRpc("history_insights", () => {
      calls.push("history_insights");
      return { data: null, error: { message: "The Pro plan is required", code: "PT403" } };
    });
    renderDialog(history(36, (i) => 1 + i / 100, 5_000_000));
    const prompt = await screen.findByTestId("upgrade-prompt");
    expect(prompt).toHaveTextContent("Pro features");
    expect(within(prompt).getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute(
      "href",
      "/pricing",
    );
    expect(screen.queryByTestId("pro-insights")).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows Pro the comparison with its sample sizes and the analytics", async () => {
    supabaseMock.signInWithProfile("pro@example.com", { plan: "pro", subscription_active: true });
    supabaseMock.setRpc("history_insights", () => ({ data: insights, error: null }));
    supabaseMock.setRpc("history_candles", () => ({ data: [], error: null }));
    renderDialog(history(36, (i) => 1 + i / 100, 5_000_000));
    const comparison = await screen.findByTestId("comparison");
    expect(comparison).toHaveTextContent("happened 12 times in the last 719 hourly moves");
    expect(within(comparison).getByTestId("after-1h")).toHaveTextContent("12 samples");
    expect(within(comparison).getByTestId("after-24h")).toHaveTextContent("+3.5%");
    expect(within(comparison).getByTestId("after-24h")).toHaveTextContent("9 samples");
    const cards = screen.getByTestId("pro-insights");
    expect(within(cards).getByRole("region", { name: "Volatility regime" })).toHaveTextContent(
      "Wild",
    );
    expect(
      within(cards).getByRole("region", { name: "Largest drawdown (24 h)" }),
    ).toHaveTextContent("-6.25%");
    expect(screen.queryByTestId("upgrade-prompt")).not.toBeInTheDocument();
    // No candles yet: the panes say so instead of drawing an empty chart.
    expect(await screen.findByTestId("indicators-not-enough")).toHaveTextContent(
      "0 candles so far",
    );
  });

  it("has a trust section: the score, every reason spelled out, the confirming venues and the pool", async () => {
    renderDialog(
      history(36, (i) => 1 * 1.002 ** i, 5_000_000),
      {
        pool_name: "PEPE / WETH 0.3%",
        flags: ["young_pool", "dex_cex_gap"],
        confirmed_on: ["Binance", "Uniswap V2 (ethereum)"],
        trust_score: 72,
        liquidity_usd: 250_000,
        thin: false,
      },
    );
    const dialog = await screen.findByRole("dialog", { name: /PEPE\/WETH/ });
    // The pool's name beside its venue in the dialog's description.
    expect(dialog).toHaveAccessibleDescription(/PEPE \/ WETH 0\.3%/);
    const trust = within(dialog).getByTestId("analysis-trust");
    expect(trust).toHaveTextContent("Trust score 72 of 100 (high)");
    expect(trust).toHaveTextContent("Pool: PEPE / WETH 0.3%");
    expect(trust).toHaveTextContent("The pool was created less than 24 hours ago.");
    expect(trust).toHaveTextContent(
      "The pool's price is far from the same asset's price on centralized exchanges.",
    );
    expect(trust).toHaveTextContent("Pool liquidity: $250K.");
    expect(
      within(trust)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual(expect.arrayContaining(["Binance", "Uniswap V2 (ethereum)"]));
  });
});
