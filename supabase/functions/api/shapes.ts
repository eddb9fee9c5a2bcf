// The client shapes of the /api layer (specification section 3): database rows (snake_case,
// from PostgREST or a Realtime broadcast) as the camelCase objects the original clients read.
// Postgres `numeric` may arrive as a number or a string; timestamps leave as ISO 8601 (UTC).
//
// Each mapper's parameter names the generated row type's fields (`Fields<MoversFeedRow>`), so a
// misspelt column does not compile; the values are `unknown` because they are checked here:
// the generated types mark a function's columns NOT NULL and `numeric` as number, and a
// `movers` broadcast entry (the same fields) is JSON nobody typed.
import type { Json } from "../_shared/database.types.ts";
import { toNumber } from "../_shared/domain/numbers.ts";
import { isMoverFlag, type MoverFlag } from "../_shared/domain/realtime.ts";
import type { CandleRow, ComparedRow, MoversFeedRow, SignalRow } from "./market-db.ts";

/** A row's fields by the generated type's names, each value still to be checked. */
export type Fields<T> = { readonly [K in keyof T]?: unknown };

/** The percent field of each window (0 is the 10-second window), as the spec names them. */
export const WINDOW_PCT_KEYS = {
  0: "pct10sec",
  5: "pct5min",
  10: "pct10min",
  15: "pct15min",
  20: "pct20min",
  25: "pct25min",
  30: "pct30min",
} as const;
type WindowPctKey = (typeof WINDOW_PCT_KEYS)[keyof typeof WINDOW_PCT_KEYS];

/**
 * A gainer entry: one row of `movers_feed(window)` (or of a `movers` broadcast, which has the
 * same fields). `pct` is the change over `windowUsed`; the same value is repeated under that
 * window's own field (`pct30min` for 30, `pct10sec` for 0) for clients that read those.
 */
export type Gainer =
  & {
    id: number;
    instrumentId: number;
    symbol: string;
    exchange: string;
    exchangeType: "cex" | "dex";
    network: string | null;
    source: string;
    poolUrl: string | null;
    price: number;
    price3hourAgo: number | null;
    pct: number;
    windowUsed: number;
    pct3hour: number | null;
    volume24h: number | null;
    /** When the scan that wrote this entry ran. */
    ts: string;
    /** The venue's own time of the quote (decision 0033); `ts` for entries from before it. */
    quotedAt: string;
    /**
     * Through when the venue confirmed the price (decision 0079): `quotedAt`, or the venue's
     * confirmed-through time for an unchanged symbol; the data age counts from here.
     */
    confirmedAt: string;
    // Moves you can trust (issue 26, decision 0046).
    /** 24 h quote volume in USD (CEX) or the pool's 24 h volume in USD (DEX). */
    volume24hUsd: number | null;
    /** DEX pool reserve in USD; null for CEX. */
    liquidityUsd: number | null;
    /** (ask - bid) / mid * 100 where the venue gives a book ticker, else null. */
    spreadPct: number | null;
    /** Below the floor for its venue type. */
    thin: boolean;
    /** The other venues where the same asset moved the same way in the window. */
    confirmedOn: string[];
    /** Manipulation flags (reason codes), empty when none. */
    flags: MoverFlag[];
    /** 0..100. */
    trustScore: number;
    /** Grouping key: the base asset, wrapped natives as their native. */
    asset: string;
    /** The DEX pool's own name with its fee tier; null for CEX. */
    poolName: string | null;
  }
  & Partial<Record<WindowPctKey, number>>;

/** A history point: `{ ts, price }`, oldest first. */
export interface HistoryPoint {
  ts: string;
  price: number;
}

/** A strategy signal (public.strategy_signals). */
export interface Signal {
  id: number;
  symbol: string;
  exchange: string;
  exchangeType: "cex" | "dex";
  timeframe: string;
  strategy: string;
  signal: string;
  confidence: number;
  confidenceTier: string;
  price: number;
  volume24h: number | null;
  indicatorValues: Record<string, unknown>;
  computedAt: string;
}

export { toNumber };

/** A timestamp as ISO 8601 in UTC; null when it is not one. */
export function toIso(value: unknown): string | null {
  if (typeof value !== "string" && !(value instanceof Date)) return null;
  const t = new Date(value).getTime();
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

const text = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The later of a confirmation and the quote's time (never earlier than the quote). */
function laterIso(confirmed: string | null, quoted: string): string {
  return confirmed !== null && Date.parse(confirmed) > Date.parse(quoted) ? confirmed : quoted;
}
const exchangeType = (value: unknown): "cex" | "dex" => (value === "cex" ? "cex" : "dex");

/** A feed row as a gainer; rows without an instrument, symbol, price, percent or time are dropped. */
export function toGainer(row: Fields<MoversFeedRow>): Gainer | null {
  const instrumentId = toNumber(row.instrument_id);
  const symbol = text(row.symbol);
  const price = toNumber(row.price);
  const pct = toNumber(row.pct);
  const ts = toIso(row.ts);
  if (instrumentId === null || !symbol || price === null || pct === null || ts === null) {
    return null;
  }
  const windowUsed = toNumber(row.window_used);
  const gainer: Gainer = {
    id: toNumber(row.id) ?? instrumentId,
    instrumentId,
    symbol,
    exchange: text(row.exchange) ?? "",
    exchangeType: exchangeType(row.exchange_type),
    network: text(row.network),
    source: text(row.source) ?? "",
    poolUrl: text(row.pool_url),
    price,
    price3hourAgo: toNumber(row.price_3hour_ago),
    pct,
    windowUsed: windowUsed ?? 0,
    pct3hour: toNumber(row.pct_3hour),
    volume24h: toNumber(row.volume_24h),
    ts,
    quotedAt: toIso(row.quoted_at) ?? ts,
    confirmedAt: laterIso(toIso(row.confirmed_at), toIso(row.quoted_at) ?? ts),
    volume24hUsd: toNumber(row.volume_24h_usd),
    liquidityUsd: toNumber(row.liquidity_usd),
    spreadPct: toNumber(row.spread_pct),
    thin: row.thin === true,
    confirmedOn: Array.isArray(row.confirmed_on)
      ? row.confirmed_on.filter((v): v is string => typeof v === "string")
      : [],
    flags: Array.isArray(row.flags) ? row.flags.filter(isMoverFlag) : [],
    trustScore: Math.max(0, Math.min(100, Math.round(toNumber(row.trust_score) ?? 0))),
    asset: text(row.asset) || symbol.split("/")[0]!.toUpperCase(),
    poolName: text(row.pool_name) || null,
  };
  const key = windowUsed === null
    ? undefined
    : WINDOW_PCT_KEYS[windowUsed as keyof typeof WINDOW_PCT_KEYS];
  if (key) gainer[key] = pct;
  return gainer;
}

export function toGainers(rows: readonly Fields<MoversFeedRow>[]): Gainer[] {
  return rows.map(toGainer).filter((g): g is Gainer => g !== null);
}

/** History rows as points; rows without a time or a positive price are dropped. */
export function toHistoryPoints(
  rows: readonly { ts?: unknown; price?: unknown }[],
): HistoryPoint[] {
  const points: HistoryPoint[] = [];
  for (const row of rows) {
    const ts = toIso(row.ts);
    const price = toNumber(row.price);
    if (ts !== null && price !== null && price > 0) points.push({ ts, price });
  }
  return points;
}

/** A strategy_signals row as a signal; a row without an id, symbol or time is dropped. */
export function toSignal(row: Fields<SignalRow>): Signal | null {
  const id = toNumber(row.id);
  const symbol = text(row.symbol);
  const computedAt = toIso(row.computed_at);
  if (id === null || !symbol || computedAt === null) return null;
  const values = row.indicator_values;
  return {
    id,
    symbol,
    exchange: text(row.exchange) ?? "",
    exchangeType: exchangeType(row.exchange_type),
    timeframe: text(row.timeframe) ?? "",
    strategy: text(row.strategy) ?? "",
    signal: text(row.signal) ?? "",
    confidence: toNumber(row.confidence) ?? 0,
    confidenceTier: text(row.confidence_tier) ?? "",
    price: toNumber(row.price) ?? 0,
    volume24h: toNumber(row.volume_24h),
    indicatorValues: typeof values === "object" && values !== null && !Array.isArray(values)
      ? values as Record<string, unknown>
      : {},
    computedAt,
  };
}

export function toSignals(rows: readonly Fields<SignalRow>[]): Signal[] {
  return rows.map(toSignal).filter((s): s is Signal => s !== null);
}

// ---- Pro data (decision 0035): candles, insights, comparison ---------------------------------

export interface Candle {
  ts: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number | null;
}

/** history_candles rows as candles; a row without a time or a price is dropped. */
export function toCandles(rows: readonly Fields<CandleRow>[]): Candle[] {
  const out: Candle[] = [];
  for (const row of rows) {
    const ts = toIso(row.bucket);
    const open = toNumber(row.open);
    const high = toNumber(row.high);
    const low = toNumber(row.low);
    const close = toNumber(row.close);
    if (ts === null || open === null || high === null || low === null || close === null) continue;
    out.push({ ts, open, high, low, close, volume: toNumber(row.volume) });
  }
  return out;
}

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** history_insights' jsonb with camelCase keys, numbers as numbers and times as ISO 8601. */
export function toInsights(
  value: { [key: string]: Json | undefined },
  exchange: string,
): Record<string, unknown> {
  const walk = (v: unknown, key: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => walk(x, key));
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), walk(x, k)]));
    }
    if (/(_at|^as_of)$/.test(key)) return v === null ? null : toIso(v);
    if (typeof v === "string" && key !== "symbol" && key !== "regime") return toNumber(v);
    return v;
  };
  return {
    ...Object.fromEntries(Object.entries(value).map(([k, x]) => [camel(k), walk(x, k)])),
    exchange,
  };
}

export interface ComparedSeries {
  instrumentId: number;
  symbol: string;
  exchange: string;
  points: { ts: string; pct: number }[];
}

/** history_compare rows: points `[epoch ms, %]` as `{ ts, pct }`. */
export function toComparison(rows: readonly Fields<ComparedRow>[]): ComparedSeries[] {
  return rows.map((row) => ({
    instrumentId: Number(row.instrument_id),
    symbol: String(row.symbol),
    exchange: String(row.exchange),
    points: (Array.isArray(row.points) ? row.points : []).flatMap((p) => {
      if (!Array.isArray(p)) return [];
      const ms = toNumber(p[0]);
      const pct = toNumber(p[1]);
      return ms === null || pct === null ? [] : [{ ts: new Date(ms).toISOString(), pct }];
    }),
  }));
}
