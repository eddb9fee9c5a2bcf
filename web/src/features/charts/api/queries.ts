import { queryOptions } from "@tanstack/react-query";
import { supabase } from "@/lib/supabase";

/** The charts show this much history (the analysis' 3 hours). */
export const CHART_HISTORY_HOURS = 3;

export type ChartSymbol = { instrumentId: number; symbol: string; exchange: string };
export type ChartPoint = { t: number; price: number };

/** The instruments of the user's current movers (`movers_feed(window)`), one per instrument. */
async function getChartSymbols(windowMinutes: number): Promise<ChartSymbol[]> {
  const { data, error } = await supabase.rpc("movers_feed", { window_minutes: windowMinutes });
  if (error) throw error;
  const seen = new Set<number>();
  const symbols: ChartSymbol[] = [];
  for (const row of data ?? []) {
    const instrumentId = Number(row.instrument_id);
    if (!row.symbol || !Number.isFinite(instrumentId) || seen.has(instrumentId)) continue;
    seen.add(instrumentId);
    symbols.push({ instrumentId, symbol: row.symbol, exchange: row.exchange ?? "" });
  }
  return symbols.sort((a, b) => a.symbol.localeCompare(b.symbol));
}

/** The last 3 hours of one instrument, oldest first. */
async function getChartHistory(instrumentId: number): Promise<ChartPoint[]> {
  const since = new Date(Date.now() - CHART_HISTORY_HOURS * 60 * 60 * 1000).toISOString();
  const { data, error } = await supabase
    .from("price_history")
    .select("ts, price")
    .eq("instrument_id", instrumentId)
    .gte("ts", since)
    .order("ts", { ascending: true });
  if (error) throw error;
  return (data ?? [])
    .map((row) => ({ t: Date.parse(row.ts), price: Number(row.price) }))
    .filter((point) => Number.isFinite(point.t) && Number.isFinite(point.price) && point.price > 0);
}

export const chartsQueries = {
  all: ["charts"] as const,
  symbols: (windowMinutes: number) =>
    queryOptions({
      queryKey: [...chartsQueries.all, "symbols", windowMinutes] as const,
      queryFn: () => getChartSymbols(windowMinutes),
    }),
  history: (instrumentId: number) =>
    queryOptions({
      queryKey: [...chartsQueries.all, "history", instrumentId] as const,
      queryFn: () => getChartHistory(instrumentId),
      staleTime: 60_000,
    }),
};
