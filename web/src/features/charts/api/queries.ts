import type { MoverEntry } from "@domain/realtime";
import { queryOptions } from "@tanstack/react-query";
import { type HistoryRow, marketQueries } from "@/lib/market-queries";

export type ChartSymbol = {
  instrumentId: number;
  symbol: string;
  exchange: string;
  /** Place in the movers feed, strongest first (0 = the strongest move of the window). */
  rank: number;
};

/** How many of the strongest movers the charts page opens with. */
export const DEFAULT_CHART_SYMBOLS = 3;
/** A price sample; `volume` is the rolling 24-hour total the history stores (null: unknown). */
export type ChartPoint = { t: number; price: number; volume: number | null };

/** The instruments of the user's current movers, one per instrument, by symbol. */
export function toChartSymbols(entries: readonly MoverEntry[]): ChartSymbol[] {
  const seen = new Set<number>();
  const symbols: ChartSymbol[] = [];
  for (const entry of entries) {
    if (seen.has(entry.instrument_id)) continue;
    seen.add(entry.instrument_id);
    symbols.push({
      instrumentId: entry.instrument_id,
      symbol: entry.symbol,
      exchange: entry.exchange,
      rank: symbols.length,
    });
  }
  return symbols.sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** The ids of the `count` strongest movers among the symbols, strongest first. */
export function strongestSymbols(
  symbols: readonly ChartSymbol[],
  count = DEFAULT_CHART_SYMBOLS,
): string[] {
  return [...symbols]
    .sort((a, b) => a.rank - b.rank)
    .slice(0, count)
    .map((symbol) => String(symbol.instrumentId));
}

/** History rows as chart points (epoch ms), unusable ones dropped. */
export function toChartPoints(rows: readonly HistoryRow[]): ChartPoint[] {
  return rows
    .map((row) => ({ t: Date.parse(row.ts), price: row.price, volume: row.volume_24h }))
    .filter((point) => Number.isFinite(point.t) && Number.isFinite(point.price) && point.price > 0);
}

export const chartsQueries = {
  all: ["charts"] as const,
  /** The symbols to choose from: the window's movers feed (the dashboard's cache entry). */
  symbols: (windowMinutes: number) =>
    queryOptions({ ...marketQueries.feed(windowMinutes), select: toChartSymbols }),
  /** One instrument's last 3 hours (the analysis' cache entry), as chart points. */
  history: (instrumentId: number) =>
    queryOptions({
      ...marketQueries.history(instrumentId),
      staleTime: 60_000,
      select: toChartPoints,
    }),
};
