import type { MoverEntry } from "@domain/realtime";
import { queryOptions } from "@tanstack/react-query";
import { type HistoryRow, marketQueries } from "@/lib/market-queries";
import { supabase } from "@/lib/supabase";

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

/** The charts page's spans: the live 3 hours (every plan), and Pro's 24 h, 7 d and 30 d. */
export const CHART_RANGES = ["3h", "24h", "7d", "30d"] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export type CompareRange = Exclude<ChartRange, "3h">;
/** `history_compare` takes two to four symbols. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

export type ComparedSeries = {
  instrumentId: number;
  symbol: string;
  exchange: string;
  /** Percent change since the series' first close, by time (epoch ms). */
  points: { t: number; pct: number }[];
};

async function getComparison(ids: readonly number[], range: CompareRange) {
  const { data, error } = await supabase.rpc("history_compare", {
    instruments: [...ids],
    range,
  });
  if (error) throw error;
  return (data ?? []).map((row): ComparedSeries => ({
    instrumentId: Number(row.instrument_id),
    symbol: row.symbol ?? "",
    exchange: row.exchange ?? "",
    points: ((row.points ?? []) as [number, number][]).map(([t, pct]) => ({
      t: Number(t),
      pct: Number(pct),
    })),
  }));
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
  /** Pro and Enterprise: two to four symbols normalised to the same start (`history_compare`). */
  compare: (ids: readonly number[], range: CompareRange) =>
    queryOptions({
      queryKey: [...chartsQueries.all, "compare", range, [...ids].sort((a, b) => a - b)] as const,
      queryFn: () => getComparison(ids, range),
      staleTime: 60_000,
    }),
};
