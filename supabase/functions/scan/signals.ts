// The scan's signals step: once per 5-minute candle, the strategy signals (domain/signals.ts)
// of the scan's strongest movers, computed on their price history and stored in
// public.strategy_signals, and the outcomes of the signals of an hour ago. Movers are what users look at; computing every instrument every
// 10 s would cost far more than it tells.
import type { Db } from "../_shared/clients.ts";
import {
  CANDLE_BUCKET_MS,
  estimateIntervalVolumes,
  type PricePoint,
  toCandles,
} from "../_shared/domain/candles.ts";
import type { Quote } from "../_shared/domain/market.ts";
import {
  computeSignals,
  type ConfidenceTier,
  type Direction,
  MIN_SIGNAL_CANDLES,
  type StrategyId,
} from "../_shared/domain/signals.ts";
import type { Env } from "../_shared/env.ts";
import { readPriceHistory } from "../_shared/price-history.ts";
import type { HistoryBatch } from "../_shared/market/types.ts";

export interface SignalsContext {
  env: Env;
  scannedAt: string;
  quotes: readonly Quote[];
}

/** Returns how many signals it stored. */
export type SignalsStep = (ctx: SignalsContext) => Promise<number>;

export interface SignalCandidate {
  instrumentId: number;
  symbol: string;
  exchange: string;
  exchangeType: "cex" | "dex";
  price: number;
  volume24h: number | null;
}

export interface StrategySignalRow {
  instrument_id: number;
  symbol: string;
  exchange: string;
  exchange_type: "cex" | "dex";
  timeframe: "5min";
  strategy: StrategyId;
  signal: Direction;
  confidence: number;
  confidence_tier: ConfidenceTier;
  price: number;
  volume_24h: number | null;
  indicator_values: Record<string, number | null>;
  computed_at: string;
}

export interface SignalsStore {
  /** When signals were last stored, or null. */
  lastComputedAt(): Promise<string | null>;
  /** The oldest price sample of any instrument, or null when there is none. */
  oldestSampleAt(): Promise<string | null>;
  /** The strongest gainers and losers right now (`limit` of each). */
  candidates(limit: number): Promise<SignalCandidate[]>;
  /** Price samples of an instrument since `since`, `volume` being the rolling 24 h total. */
  history(instrumentId: number, since: string): Promise<PricePoint[]>;
  insert(rows: StrategySignalRow[]): Promise<void>;
  /** Outcomes of signals an hour old (`public.record_signal_outcomes`); returns how many. */
  recordOutcomes(): Promise<number>;
}

/** Gainers and losers examined per candle (each). */
export const SIGNAL_CANDIDATES = 10;
/** History examined: 3 hours (36 five-minute candles, enough for every strategy). */
export const SIGNAL_HISTORY_MS = 3 * 3_600_000;

/**
 * The signals of one candle: nothing when this candle already has them, else the candidates'
 * closed 5-minute candles through `computeSignals`, stored in one insert.
 */
export async function computeScanSignals(store: SignalsStore, scannedAt: string): Promise<number> {
  const t = Date.parse(scannedAt);
  const bucketStart = Math.floor(t / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS;
  const last = await store.lastComputedAt();
  if (last !== null && Date.parse(last) >= bucketStart) return 0;

  // A young market (a fresh deployment, a reset) cannot have enough closed candles for any
  // strategy yet: one cheap look instead of reading every candidate's history at every scan.
  const oldest = await store.oldestSampleAt();
  if (oldest === null) return 0;
  const firstCandle = Math.floor(Date.parse(oldest) / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS;
  if (bucketStart - firstCandle < MIN_SIGNAL_CANDLES * CANDLE_BUCKET_MS) return 0;

  const since = new Date(t - SIGNAL_HISTORY_MS).toISOString();
  const candidates = await store.candidates(SIGNAL_CANDIDATES);
  const rows: StrategySignalRow[] = [];
  await Promise.all(candidates.map(async (c) => {
    const points = await store.history(c.instrumentId, since);
    // Only closed candles: the current one is still moving.
    const candles = toCandles(estimateIntervalVolumes(points)).filter((k) => k.start < bucketStart);
    for (const s of computeSignals(candles)) {
      rows.push({
        instrument_id: c.instrumentId,
        symbol: c.symbol,
        exchange: c.exchange,
        exchange_type: c.exchangeType,
        timeframe: "5min",
        strategy: s.strategy,
        signal: s.signal,
        confidence: s.confidence,
        confidence_tier: s.tier,
        price: c.price,
        volume_24h: c.volume24h,
        indicator_values: s.indicatorValues,
        computed_at: scannedAt,
      });
    }
  }));
  if (rows.length > 0) await store.insert(rows);
  // Once per candle too: how the signals of an hour ago played out.
  const outcomes = await store.recordOutcomes();
  if (outcomes > 0) console.log(`[scan] recorded ${outcomes} signal outcomes`);
  return rows.length;
}

/**
 * A signal computed at a past point of a replayed history (`public.ingest_replayed_signals`):
 * the instrument is named by its venue key, the database adds its symbol, exchange and type.
 */
export type ReplayedSignalRow =
  & Omit<StrategySignalRow, "instrument_id" | "symbol" | "exchange" | "exchange_type">
  & { venue_key: string };

/** The window of `movers.pct`, by which the live step picks its candidates (30 minutes). */
export const MOVERS_PCT_WINDOW_MS = 30 * 60_000;

/**
 * The signals the live step would have stored at each 5-minute candle's start in `(from, to]`
 * of a replayed past (decision 0090): at each such instant, the `SIGNAL_CANDIDATES` strongest
 * gainers and losers by their 30-minute change (`movers.pct`'s window) are the candidates, their
 * last 3 hours' closed candles go through `computeSignals`, and the price is the one at that
 * instant. An instrument without a sample 30 minutes earlier is not a mover yet.
 */
export function replayedSignalRows(
  batch: HistoryBatch,
  from: number,
  to: number,
): ReplayedSignalRow[] {
  const times = batch.stamps.map((s) => Date.parse(s));
  const order = times.map((_, k) => k).sort((a, b) => times[a]! - times[b]!);
  const sorted = order.map((k) => times[k]!);
  // The index (into `order`) of the last stamp at or before t, or -1.
  const atOrBefore = (t: number): number => {
    let lo = 0, hi = sorted.length - 1, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! <= t) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  };
  const priceAt = (i: number, j: number): number | undefined => {
    const v = batch.prices[i]?.[order[j]!];
    return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : undefined;
  };
  const rows: ReplayedSignalRow[] = [];
  const first = Math.floor(from / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS + CANDLE_BUCKET_MS;
  for (let at = first; at <= to; at += CANDLE_BUCKET_MS) {
    const now = atOrBefore(at);
    const then = atOrBefore(at - MOVERS_PCT_WINDOW_MS);
    if (now < 0 || then < 0) continue;
    const movers: { i: number; pct: number; price: number }[] = [];
    batch.instruments.forEach((_, i) => {
      const price = priceAt(i, now);
      const before = priceAt(i, then);
      if (price !== undefined && before !== undefined) {
        movers.push({ i, pct: (price - before) / before, price });
      }
    });
    const byPct = [...movers].sort((a, b) => b.pct - a.pct);
    const picked = new Map<number, (typeof movers)[number]>();
    for (
      const m of [
        ...byPct.slice(0, SIGNAL_CANDIDATES),
        ...byPct.reverse().slice(0, SIGNAL_CANDIDATES),
      ]
    ) {
      picked.set(m.i, m);
    }
    const start = atOrBefore(at - SIGNAL_HISTORY_MS - 1) + 1;
    for (const m of picked.values()) {
      const points: PricePoint[] = [];
      for (let j = start; j <= now; j++) {
        const price = priceAt(m.i, j);
        if (price === undefined) continue;
        points.push({
          ts: sorted[j]!,
          price,
          volume: batch.volumes[m.i]?.[order[j]!] ?? null,
        });
      }
      const candles = toCandles(estimateIntervalVolumes(points)).filter((k) => k.start < at);
      for (const s of computeSignals(candles)) {
        rows.push({
          venue_key: batch.instruments[m.i]!.venueKey,
          timeframe: "5min",
          strategy: s.strategy,
          signal: s.signal,
          confidence: s.confidence,
          confidence_tier: s.tier,
          price: m.price,
          volume_24h: batch.volumes[m.i]?.[order[now]!] ?? null,
          indicator_values: s.indicatorValues,
          computed_at: new Date(at).toISOString(),
        });
      }
    }
  }
  return rows;
}

/** The store over the service-role client (PostgREST; history read in pages, `readPriceHistory`). */
export function supabaseSignalsStore(client: Db): SignalsStore {
  return {
    async lastComputedAt() {
      const { data, error } = await client.from("strategy_signals").select("computed_at")
        .order("computed_at", { ascending: false }).limit(1).maybeSingle();
      if (error) throw new Error(`strategy_signals: ${error.message}`);
      return (data?.computed_at as string | undefined) ?? null;
    },
    async oldestSampleAt() {
      const { data, error } = await client.from("price_history").select("ts")
        .order("ts", { ascending: true }).limit(1).maybeSingle();
      if (error) throw new Error(`price_history: ${error.message}`);
      return (data?.ts as string | undefined) ?? null;
    },
    async candidates(limit) {
      const columns = "instrument_id, symbol, exchange, exchange_type, price, volume_24h";
      const [up, down] = await Promise.all(
        [true, false].map((gainers) =>
          client.from("movers").select(columns).order("pct", { ascending: !gainers }).limit(limit)
        ),
      );
      for (const r of [up!, down!]) if (r.error) throw new Error(`movers: ${r.error.message}`);
      const seen = new Set<number>();
      const out: SignalCandidate[] = [];
      for (const row of [...(up!.data ?? []), ...(down!.data ?? [])]) {
        const id = Number(row.instrument_id);
        if (seen.has(id)) continue;
        seen.add(id);
        out.push({
          instrumentId: id,
          symbol: String(row.symbol),
          exchange: String(row.exchange),
          exchangeType: row.exchange_type === "cex" ? "cex" : "dex",
          price: Number(row.price),
          volume24h: row.volume_24h === null ? null : Number(row.volume_24h),
        });
      }
      return out;
    },
    async history(instrumentId, since) {
      const { rows, error } = await readPriceHistory(client, instrumentId, since);
      if (error) throw new Error(`price_history: ${error.message}`);
      return rows.map((r) => ({
        ts: String(r.ts),
        price: Number(r.price),
        volume: r.volume_24h === null ? null : Number(r.volume_24h),
      }));
    },
    async insert(rows) {
      const { error } = await client.from("strategy_signals").insert(rows);
      if (error) throw new Error(`strategy_signals: ${error.message}`);
    },
    async recordOutcomes() {
      const { data, error } = await client.rpc("record_signal_outcomes");
      if (error) throw new Error(`record_signal_outcomes: ${error.message}`);
      return Number(data ?? 0);
    },
  };
}

/** The default step: `computeScanSignals` over the service-role client. */
export function createSignalsStep(clientFor: (env: Env) => Db): SignalsStep {
  return ({ env, scannedAt }) =>
    computeScanSignals(supabaseSignalsStore(clientFor(env)), scannedAt);
}
