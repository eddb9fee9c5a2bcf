import { queryOptions } from "@tanstack/react-query";
import type { Database } from "@/lib/database.types";
import { marketQueries } from "@/lib/market-queries";
import { supabase } from "@/lib/supabase";

/**
 * Queries of the dashboard. Keys run generic → specific. The live movers stream
 * (`hooks/use-movers-stream.ts`) writes into the same keys the screens fetch with, so a scan lands
 * in the list on screen.
 */

/** The signals card reads the signals of the last hour, newest first, at most this many rows. */
export const SIGNALS_LOOKBACK_MS = 60 * 60 * 1000;
export const SIGNALS_LIMIT = 500;
/** The signals card refetches every minute (spec section 9). */
export const SIGNALS_REFETCH_MS = 60_000;

export type SignalRow = Pick<
  Database["public"]["Tables"]["strategy_signals"]["Row"],
  "id" | "symbol" | "exchange" | "strategy" | "signal" | "confidence" | "computed_at"
>;
async function getRecentSignals(): Promise<SignalRow[]> {
  const since = new Date(Date.now() - SIGNALS_LOOKBACK_MS).toISOString();
  const { data, error } = await supabase
    .from("strategy_signals")
    .select("id, symbol, exchange, strategy, signal, confidence, computed_at")
    .gte("computed_at", since)
    .order("computed_at", { ascending: false })
    .limit(SIGNALS_LIMIT);
  if (error) throw error;
  return (data ?? []).map((row) => ({ ...row, confidence: Number(row.confidence) }));
}

export const dashboardQueries = {
  all: ["dashboard"] as const,
  /** `movers_feed(window)`, kept current by `useMoversStream(window)`. */
  feed: (windowMinutes: number) => marketQueries.feed(windowMinutes),
  signals: () =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "signals", "recent"] as const,
      queryFn: getRecentSignals,
      refetchInterval: SIGNALS_REFETCH_MS,
    }),
  /** The last 3 hours of one instrument, oldest first; refetched each time the analysis opens. */
  history: (instrumentId: number) =>
    queryOptions({ ...marketQueries.history(instrumentId), staleTime: 0 }),
};
