import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { dashboardQueries } from "../api/queries";
import { SignalsCard } from "./signals-card";

type Row = { symbol: string; strategy: string; signal: string; confidence: number };
let id = 1;
const row = (symbol: string, strategy: string, signal: string, confidence = 0.5) => ({
  id: id++,
  symbol,
  exchange: "Binance",
  strategy,
  signal,
  confidence,
  computed_at: "2026-11-21T12:00:00Z",
});

function renderCard(rows: Row[]) {
  supabaseMock.setTable("strategy_signals", { data: rows, error: null });
  return renderWithProviders(<SignalsCard />);
}

const items = async () =>
  within(await screen.findByRole("list", { name: "Trading Signals" })).getAllByRole("listitem");

describe("SignalsCard", () => {
  it("reads the last hour's signals, newest first, and polls every minute", async () => {
    const before = Date.now();
    let filters: readonly [string, string, unknown][] = [];
    supabaseMock.setTable("strategy_signals", (read) => {
      filters = read.filters;
      return { data: [], error: null };
    });
    renderWithProviders(<SignalsCard />);
    expect(await screen.findByText("No signals in the last hour.")).toBeInTheDocument();
    const [operator, column, since] = filters[0];
    expect([operator, column]).toEqual(["gte", "computed_at"]);
    expect(before - Date.parse(String(since))).toBeGreaterThanOrEqual(3_600_000 - 10_000); // a busy machine renders slowly
    expect(dashboardQueries.signals().refetchInterval).toBe(60_000);
  });

  it("lists at most 10 symbols with at most 4 strategy badges each", async () => {
    const rows = [
      row("AAA", "rsi", "bullish"),
      row("AAA", "macd", "bullish"),
      row("AAA", "ema_cross", "bullish"),
      row("AAA", "bollinger", "bearish"),
      row("AAA", "volume_surge", "neutral"),
      ...Array.from({ length: 11 }, (_, i) => row(`S${i}`, "rsi", "neutral")),
    ];
    renderCard(rows);
    const list = await items();
    expect(list).toHaveLength(10);
    const first = within(list[0]);
    expect(first.getByText("AAA")).toBeInTheDocument();
    expect(list[0].querySelectorAll('[data-slot="strategy-badge"]')).toHaveLength(4);
    expect(first.getByText("RSI")).toBeInTheDocument();
    expect(first.getByText("EMA Cross")).toBeInTheDocument();
    expect(first.queryByText("Volume")).not.toBeInTheDocument();
    expect(first.getByText("Ø 50% confidence")).toBeInTheDocument();
    expect(screen.queryByText("S9")).not.toBeInTheDocument();
  });

  it("calls a symbol buy, sell or neutral by counting its signals", async () => {
    renderCard([
      row("BUY", "rsi", "bullish", 0.8),
      row("BUY", "macd", "bullish", 0.6),
      row("BUY", "ema_cross", "bearish", 0.4),
      row("SELL", "rsi", "bearish", 0.9),
      row("TIE", "rsi", "bullish", 0.3),
      row("TIE", "macd", "bearish", 0.5),
    ]);
    const [buy, sell, tie] = await items();
    expect(within(buy).getByText("Buy")).toBeInTheDocument();
    expect(within(buy).getByText("Ø 60% confidence")).toBeInTheDocument();
    expect(within(sell).getByText("Sell")).toBeInTheDocument();
    expect(within(sell).getByText("Ø 90% confidence")).toBeInTheDocument();
    expect(within(tie).getByText("Neutral")).toBeInTheDocument();
  });

  it("says when the signals cannot be loaded", async () => {
    supabaseMock.setTable("strategy_signals", { data: null, error: { message: "denied" } });
    renderWithProviders(<SignalsCard />);
    expect(await screen.findByText("Signals could not be loaded.")).toBeInTheDocument();
  });
});
