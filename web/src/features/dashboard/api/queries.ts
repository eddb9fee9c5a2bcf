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

/** A mover's last 30 minutes for its sparkline: one price per minute, oldest first. */
export type Sparkline = { times: number[]; prices: number[] };
/** The sparklines are refetched every minute (they hold one sample per minute). */
export const SPARKLINES_REFETCH_MS = 60_000;

/** `movers_sparklines(window)`: every mover's last 30 minutes in one request, by instrument. */
async function getSparklines(windowMinutes: number): Promise<Map<number, Sparkline>> {
  const { data, error } = await supabase.rpc("movers_sparklines", {
    window_minutes: windowMinutes,
  });
  if (error) throw error;
  const lines = new Map<number, Sparkline>();
  for (const row of data ?? []) {
    const times: number[] = [];
    const prices: number[] = [];
    (row.times ?? []).forEach((ts, i) => {
      const t = Date.parse(ts);
      const price = Number(row.prices?.[i]);
      if (Number.isFinite(t) && Number.isFinite(price) && price > 0) {
        times.push(t);
        prices.push(price);
      }
    });
    lines.set(Number(row.instrument_id), { times, prices });
  }
  return lines;
}

/** The periods of the strategies' track record (`signal_track_record(period)`). */
export const TRACK_RECORD_PERIODS = ["24h", "7d", "30d"] as const;
export type TrackRecordPeriod = (typeof TRACK_RECORD_PERIODS)[number];

export type TrackRecordRow = {
  strategy: string;
  horizonHours: number;
  signals: number;
  hits: number;
  hitRate: number;
  directional: number;
  avgReturn: number | null;
  medianReturn: number | null;
};

const numberOrNull = (value: unknown) =>
  value === null || value === undefined ? null : Number(value);

async function getTrackRecord(period: TrackRecordPeriod): Promise<TrackRecordRow[]> {
  const { data, error } = await supabase.rpc("signal_track_record", { period });
  if (error) throw error;
  return (data ?? []).map((row) => ({
    strategy: row.strategy ?? "",
    horizonHours: Number(row.horizon_hours),
    signals: Number(row.signals),
    hits: Number(row.hits),
    hitRate: Number(row.hit_rate),
    directional: Number(row.directional),
    avgReturn: numberOrNull(row.avg_return),
    medianReturn: numberOrNull(row.median_return),
  }));
}

/** Each market source's state after the latest scan (`source_health`, readable by anyone). */
export type SourceHealthRow = Pick<
  Database["public"]["Tables"]["source_health"]["Row"],
  | "source"
  | "state"
  | "quotes"
  | "failure"
  | "http_status"
  | "backoff_until"
  | "last_attempt_at"
  | "last_success_at"
  | "cadence_seconds"
  | "last_quote_at"
>;
/** Sources are re-read every 15 s (a scan every 10 s by default). */
export const SOURCE_HEALTH_REFETCH_MS = 15_000;

async function getSourceHealth(): Promise<SourceHealthRow[]> {
  const { data, error } = await supabase
    .from("source_health")
    .select(
      "source, state, quotes, failure, http_status, backoff_until, last_attempt_at, last_success_at, cadence_seconds, last_quote_at",
    )
    .order("source");
  if (error) throw error;
  return data ?? [];
}

/** Each venue stream's state as its reader last reported it (`stream_health`, decision 0061). */
export type StreamHealthRow = Pick<
  Database["public"]["Tables"]["stream_health"]["Row"],
  | "source"
  | "state"
  | "dropped_at"
  | "reconnects"
  | "last_message_at"
  | "reported_at"
  | "confirmed_since"
  | "confirmed_through"
>;

async function getStreamHealth(): Promise<StreamHealthRow[]> {
  const { data, error } = await supabase
    .from("stream_health")
    .select(
      "source, state, dropped_at, reconnects, last_message_at, reported_at, confirmed_since, confirmed_through",
    )
    .order("source");
  if (error) throw error;
  return data ?? [];
}

/** Pro's candles for the indicators: 5-minute (24 h), hourly (7 days) or 4-hour (30 days). */
export const CANDLE_RESOLUTIONS = ["5m", "1h", "4h"] as const;
export type CandleResolution = (typeof CANDLE_RESOLUTIONS)[number];
export type ProCandle = {
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
};

async function getProCandles(instrumentId: number, resolution: CandleResolution) {
  const { data, error } = await supabase.rpc("history_candles", {
    instrument: instrumentId,
    resolution,
  });
  if (error) throw error;
  return (data ?? []).map((row): ProCandle => ({
    start: Date.parse(row.bucket ?? ""),
    open: Number(row.open),
    high: Number(row.high),
    low: Number(row.low),
    close: Number(row.close),
    volume: Number(row.volume),
  }));
}

type Outcome = { avg_pct: number | null; samples: number };
/** `history_insights(instrument)`: the comparison and the analytics (decision 0035). */
export type Insights = {
  as_of: string | null;
  move_1h_pct: number | null;
  comparison: {
    hours: number;
    occurrences: number;
    after_1h: Outcome;
    after_4h: Outcome;
    after_24h: Outcome;
  };
  percentile: number | null;
  btc_correlation: number | null;
  btc_correlation_pairs: number;
  volatility: {
    regime: "calm" | "normal" | "wild" | null;
    stddev_24h_pct: number | null;
    stddev_30d_pct: number | null;
  };
  drawdown: { pct: number; peak_at: string | null; trough_at: string | null };
};

async function getInsights(instrumentId: number): Promise<Insights> {
  const { data, error } = await supabase.rpc("history_insights", { instrument: instrumentId });
  if (error) throw error;
  if (data === null || typeof data !== "object")
    throw new Error("history_insights answered nothing");
  return data as unknown as Insights;
}

export const dashboardQueries = {
  /** Every mover's sparkline of a window: `['sparklines', window]`, refetched every minute. */
  sparklines: (windowMinutes: number) =>
    queryOptions({
      queryKey: ["sparklines", windowMinutes] as const,
      queryFn: () => getSparklines(windowMinutes),
      refetchInterval: SPARKLINES_REFETCH_MS,
    }),
  all: ["dashboard"] as const,
  /** `movers_feed(window)`, kept current by `useMoversStream(window)`. */
  feed: (windowMinutes: number) => marketQueries.feed(windowMinutes),
  signals: () =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "signals", "recent"] as const,
      queryFn: getRecentSignals,
      refetchInterval: SIGNALS_REFETCH_MS,
    }),
  sourceHealth: () =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "source-health"] as const,
      queryFn: getSourceHealth,
      refetchInterval: SOURCE_HEALTH_REFETCH_MS,
    }),
  streamHealth: () =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "stream-health"] as const,
      queryFn: getStreamHealth,
      refetchInterval: SOURCE_HEALTH_REFETCH_MS,
    }),
  /** Each strategy's hit rate and returns over the period, computed by the database. */
  trackRecord: (period: TrackRecordPeriod) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "signals", "track-record", period] as const,
      queryFn: () => getTrackRecord(period),
    }),
  /** The last 3 hours of one instrument, oldest first; refetched each time the analysis opens. */
  history: (instrumentId: number) =>
    queryOptions({ ...marketQueries.history(instrumentId), staleTime: 0 }),
  /** Pro and Enterprise: the symbol against its own history (`history_insights`). */
  insights: (instrumentId: number) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "insights", instrumentId] as const,
      queryFn: () => getInsights(instrumentId),
      staleTime: 60_000,
    }),
  /** Pro and Enterprise: candles for the additional indicators (`history_candles`). */
  proCandles: (instrumentId: number, resolution: CandleResolution) =>
    queryOptions({
      queryKey: [...dashboardQueries.all, "pro-candles", instrumentId, resolution] as const,
      queryFn: () => getProCandles(instrumentId, resolution),
      staleTime: 60_000,
    }),
};
