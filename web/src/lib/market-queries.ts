import { toNumber } from "@domain/numbers";
import { isMoverFlag, type MoverEntry, type MoverTrustFields } from "@domain/realtime";
import { queryOptions } from "@tanstack/react-query";
import type { Database } from "@/lib/database.types";
import { supabase } from "@/lib/supabase";

/**
 * Market data shared by the dashboard and the charts: the movers feed of a window (kept current
 * by the dashboard's live stream, which writes into the same key) and an instrument's price
 * history. One cache entry per window and per instrument, whichever screen asks.
 */

/** The live movers list of one window (`movers_feed(window)`): `['movers', window]`. */
export const moversKeys = {
  all: ["movers"] as const,
  feed: (windowMinutes: number) => [...moversKeys.all, windowMinutes] as const,
};

/** The analysis shows this much price history (spec section 9); `price_history_for` serves it. */
export const HISTORY_HOURS = 3;
type FeedRow = Database["public"]["Functions"]["movers_feed"]["Returns"][number];
export type HistoryRow = { ts: string; price: number; volume_24h: number | null };

/** A `movers_feed` row as a `MoverEntry`; rows without an instrument, symbol or price are dropped. */
export function toMoverEntry(row: FeedRow): MoverEntry | null {
  const instrumentId = toNumber(row.instrument_id);
  const price = toNumber(row.price);
  const pct = toNumber(row.pct);
  if (instrumentId === null || price === null || pct === null || !row.symbol) return null;
  return {
    id: toNumber(row.id) ?? instrumentId,
    instrument_id: instrumentId,
    symbol: row.symbol,
    exchange: row.exchange ?? "",
    exchange_type: row.exchange_type === "cex" ? "cex" : "dex",
    network: row.network,
    source: row.source ?? "",
    pool_url: row.pool_url,
    price,
    price_3hour_ago: toNumber(row.price_3hour_ago),
    pct,
    window_used: toNumber(row.window_used) ?? 0,
    pct_3hour: toNumber(row.pct_3hour),
    volume_24h: toNumber(row.volume_24h),
    ts: row.ts ?? new Date(0).toISOString(),
    // The venue's quote time (decision 0033).
    ...(row.quoted_at ? { quoted_at: row.quoted_at } : {}),
    ...toTrustFields(row),
  };
}

/** The trust fields of a feed row or broadcast entry (decision 0046), read defensively. */
export function toTrustFields(row: {
  symbol?: string | null;
  volume_24h_usd?: unknown;
  liquidity_usd?: unknown;
  spread_pct?: unknown;
  thin?: unknown;
  confirmed_on?: unknown;
  flags?: unknown;
  trust_score?: unknown;
  asset?: unknown;
  pool_name?: unknown;
}): MoverTrustFields {
  const score = toNumber(row.trust_score);
  return {
    volume_24h_usd: toNumber(row.volume_24h_usd),
    liquidity_usd: toNumber(row.liquidity_usd),
    spread_pct: toNumber(row.spread_pct),
    thin: row.thin === true,
    confirmed_on: Array.isArray(row.confirmed_on)
      ? row.confirmed_on.filter((venue): venue is string => typeof venue === "string")
      : [],
    flags: Array.isArray(row.flags) ? row.flags.filter(isMoverFlag) : [],
    trust_score: score === null ? 0 : Math.max(0, Math.min(100, Math.round(score))),
    asset:
      typeof row.asset === "string" && row.asset !== ""
        ? row.asset
        : (row.symbol ?? "").split("/")[0]!.toUpperCase(),
    pool_name: typeof row.pool_name === "string" && row.pool_name !== "" ? row.pool_name : null,
  };
}

async function getMoversFeed(windowMinutes: number): Promise<MoverEntry[]> {
  const { data, error } = await supabase.rpc("movers_feed", { window_minutes: windowMinutes });
  if (error) throw error;
  return (data ?? []).map(toMoverEntry).filter((entry) => entry !== null);
}

/**
 * One instrument's last 3 hours from `price_history_for(instrument)`: per 5-minute bucket, the
 * samples that make its candle (open, high, low, close), oldest first, at most 144 rows. The
 * table itself is not readable (decision 0016); 5-minute candles of these rows are those of the
 * full history.
 */
async function getPriceHistory(instrumentId: number): Promise<HistoryRow[]> {
  const { data, error } = await supabase.rpc("price_history_for", { instrument: instrumentId });
  if (error) throw error;
  return (data ?? [])
    .map((row) => ({
      ts: row.ts ?? "",
      price: Number(row.price),
      volume_24h: toNumber(row.volume_24h),
    }))
    .filter((row) => row.ts !== "" && Number.isFinite(row.price));
}

export const marketQueries = {
  /** `movers_feed(window)` as `MoverEntry` rows: `['movers', window]`. */
  feed: (windowMinutes: number) =>
    queryOptions({
      queryKey: moversKeys.feed(windowMinutes),
      queryFn: () => getMoversFeed(windowMinutes),
    }),
  /** The last 3 hours of one instrument, oldest first: `['price-history', id]`. */
  history: (instrumentId: number) =>
    queryOptions({
      queryKey: ["price-history", instrumentId] as const,
      queryFn: () => getPriceHistory(instrumentId),
    }),
};
