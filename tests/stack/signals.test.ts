// The scan's signals step against a running stack, on PGlite and on PostgreSQL: 3.5 hours of
// backdated scans (one `ingest_scan` call each) give three instruments a rally, an accelerating
// fall and a flat price that jumps on a volume surge; one POST of the real scan function then
// stores their 5-minute strategy signals, which subscribers read through RLS and free users do
// not, and records how signals of an hour ago played out (`record_signal_outcomes`).
//
// Deterministic on the shared stack: the three are the strongest movers (so they are among the
// scan's candidates), every other instrument has too little history for any strategy, no other
// suite stores signals in the current 5-minute candle, and the test starts the scan early
// enough in a candle that seeding and scanning finish inside it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CANDLE_BUCKET_MS,
  estimateIntervalVolumes,
  toCandles,
  type PricePoint,
} from "../../supabase/functions/_shared/domain/candles.ts";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import {
  computeSignals,
  confidenceTier,
  evaluateOutcome,
  STRATEGY_IDS,
  type Direction,
} from "../../supabase/functions/_shared/domain/signals.ts";
import { anonClient, demoUser, serviceClient, stackInfo } from "../support/clients.ts";
import { sleep } from "../support/realtime.ts";

const MIN = 60_000;
/** supabase/functions/scan/signals.ts SIGNAL_HISTORY_MS (not importable here: it pulls in Deno). */
const SIGNAL_HISTORY_MS = 3 * 3_600_000;
/** Seeding and the scan take a few seconds; start only with at least this much of a candle left. */
const CANDLE_ROOM_MS = 10_000;
/** Five-minute steps of history: 42 × 5 min = 210 min, beyond the scan's 3 hours. */
const STEPS = 42;
/** The last sample, in the scan's own candle, which is still open: the step must skip it. */
const LAST = STEPS + 1;

const tag = Date.now().toString(36).toUpperCase();
const EXCHANGE = "Binance";
const RALLY = `SIGUP${tag}/USDT`;
const FALL = `SIGDN${tag}/USDT`;
const SURGE = `SIGVS${tag}/USDT`;
const SYMBOLS = [RALLY, FALL, SURGE];

const r8 = (x: number) => Number(x.toPrecision(8));
const bucketOf = (ms: number) => Math.floor(ms / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS;

/**
 * Sample i (0 … LAST) of each instrument: +1.5 % per step for the rally; its mirror image
 * 30 − rally (a fall that speeds up, so MACD, which is linear in price, is exactly the rally's
 * negated); 2 for the surge (exact in binary, so every moving average is exactly 2 and MACD
 * and the EMA spread exactly 0) until sample STEPS jumps to 2.4 on 1.5 × the 24 h volume.
 */
function price(symbol: string, i: number): number {
  const rally = r8(10 * 1.015 ** i);
  if (symbol === RALLY) return rally;
  if (symbol === FALL) return r8(30 - 10 * 1.015 ** i);
  return i >= STEPS ? 2.4 : 2;
}
const volume = (symbol: string, i: number) =>
  symbol === SURGE && i >= STEPS ? 1_500_000 : 1_000_000;

/** Where the scan's candle starts; samples are placed relative to it. */
let candle: number;
/** When the last sample was taken (in the scan's candle, just before the scan). */
let current: number;
/**
 * Sample i's time: a minute into each 5-minute candle up to candle − 4 min, then candle − 1 min
 * (two samples in the last closed candle, so it opens and closes apart), then `current`.
 */
const sampleTime = (i: number) =>
  i === LAST ? current : i === STEPS ? candle - MIN : candle - (STEPS - i) * CANDLE_BUCKET_MS + MIN;

function quote(symbol: string, i: number): Quote {
  return {
    venueKey: `${EXCHANGE}:${symbol}`,
    symbol,
    exchange: EXCHANGE,
    exchangeType: "cex",
    network: null,
    source: "simulated",
    selection: "cex-major",
    poolUrl: null,
    price: price(symbol, i),
    volume24h: volume(symbol, i),
    ts: new Date(sampleTime(i)).toISOString(),
  };
}

/** What computeScanSignals sees for `symbol` when the scan ran at `scannedAt`. */
function expectedSignals(symbol: string, scannedAt: number) {
  const since = scannedAt - SIGNAL_HISTORY_MS;
  const points: PricePoint[] = [];
  for (let i = 0; i <= LAST; i++) {
    if (sampleTime(i) >= since) {
      points.push({ ts: sampleTime(i), price: price(symbol, i), volume: volume(symbol, i) });
    }
  }
  const start = bucketOf(scannedAt);
  return computeSignals(toCandles(estimateIntervalVolumes(points)).filter((k) => k.start < start));
}

// Signals of an hour ago, for the outcomes: computed 76 minutes before the candle, so the exit
// is the first sample at or after candle − 16 min, i.e. sample STEPS − 3 (candle − 14 min), and
// the entry the price of then (sample STEPS − 16, candle − 79 min).
const ENTRY = STEPS - 16;
const EXIT = STEPS - 3;
const OLD_SIGNALS: Array<{ symbol: string; signal: Direction; right: boolean }> = [
  { symbol: RALLY, signal: "bullish", right: true },
  { symbol: RALLY, signal: "bearish", right: false },
  { symbol: RALLY, signal: "neutral", right: false },
  { symbol: FALL, signal: "bearish", right: true },
  { symbol: FALL, signal: "bullish", right: false },
  { symbol: SURGE, signal: "neutral", right: true },
  { symbol: SURGE, signal: "bullish", right: false },
];

interface ScanBody {
  sources: Record<string, { quotes: number; error?: string }>;
  ingest: { instruments: number; movers: number };
  signals: { computed: number; error?: string };
}

const service = serviceClient();
let scan: { status: number; body: ScanBody };
let scannedAt: number;
let oldIds: number[] = [];
let youngId: number;

async function postScan(key: string) {
  const res = await fetch(`${stackInfo().url}/functions/v1/scan`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as ScanBody };
}

async function signalRows(client = service) {
  const { data, error } = await client
    .from("strategy_signals")
    .select("*")
    .in("symbol", SYMBOLS)
    .order("id");
  expect(error).toBeNull();
  return data!;
}

beforeAll(async () => {
  // Room in this candle for seeding and the scan; else start at the next one.
  const left = bucketOf(Date.now()) + CANDLE_BUCKET_MS - Date.now();
  if (left < CANDLE_ROOM_MS) await sleep(left + 500);
  candle = bucketOf(Date.now());

  // The signals step runs once per candle: nothing may have been stored in this one yet.
  const last = await service
    .from("strategy_signals")
    .select("computed_at")
    .order("computed_at", { ascending: false })
    .limit(1)
    .maybeSingle();
  expect(last.error).toBeNull();
  if (last.data) expect(Date.parse(last.data.computed_at)).toBeLessThan(candle);

  // 3.5 hours of scans, oldest first, each at its own time.
  current = Date.now();
  for (let i = 0; i <= LAST; i++) {
    const { data, error } = await service.rpc("ingest_scan", {
      quotes: SYMBOLS.map((s) => quote(s, i)) as never,
      scanned_at: new Date(sampleTime(i)).toISOString(),
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ instruments: 3, movers: 3, skipped: 0 });
  }

  // Signals an hour old (outcomes due) and one of half an hour (not yet).
  const computedAt = new Date(candle - 76 * MIN).toISOString();
  const row = (symbol: string, signal: Direction, at: string, i: number) => ({
    symbol,
    exchange: EXCHANGE,
    exchange_type: "cex" as const,
    timeframe: "5min" as const,
    strategy: "macd" as const,
    signal,
    confidence: 0.5,
    confidence_tier: "medium" as const,
    price: price(symbol, i),
    indicator_values: { seeded: 1 },
    computed_at: at,
  });
  const old = await service
    .from("strategy_signals")
    .insert(OLD_SIGNALS.map((s) => row(s.symbol, s.signal, computedAt, ENTRY)))
    .select("id");
  expect(old.error).toBeNull();
  oldIds = old.data!.map((r) => r.id);
  const young = await service
    .from("strategy_signals")
    .insert(row(RALLY, "bullish", new Date(Date.now() - 30 * MIN).toISOString(), STEPS - 6))
    .select("id")
    .single();
  expect(young.error).toBeNull();
  youngId = young.data!.id;

  scan = await postScan(stackInfo().secretKey);
  const fresh = (await signalRows()).filter((r) => Date.parse(r.computed_at) >= candle);
  scannedAt = fresh.length ? Date.parse(fresh[0]!.computed_at) : Number.NaN;
});

afterAll(async () => {
  // Signals (their outcomes cascade), then the instruments (history and movers cascade).
  await service.from("strategy_signals").delete().in("symbol", SYMBOLS);
  await service.from("instruments").delete().in("symbol", SYMBOLS);
});

describe("the scan's signals step", () => {
  it("computes the signals of the current candle and reports them", async () => {
    expect(scan.status).toBe(200);
    expect(scan.body.signals.error).toBeUndefined();
    expect(scan.body.signals.computed).toBeGreaterThan(0);
    // Stored with the scan's time, inside the candle the history was laid out for.
    expect(bucketOf(scannedAt)).toBe(candle);
    const { count, error } = await service
      .from("strategy_signals")
      .select("id", { count: "exact", head: true })
      .eq("computed_at", new Date(scannedAt).toISOString());
    expect(error).toBeNull();
    expect(count).toBe(scan.body.signals.computed);
  });

  it("stores every strategy of each mover, as computed from its 5-minute candles", async () => {
    const fresh = (await signalRows()).filter((r) => Date.parse(r.computed_at) === scannedAt);
    for (const symbol of SYMBOLS) {
      const rows = fresh.filter((r) => r.symbol === symbol);
      // ≥ 35 closed candles: every strategy, MACD included, has enough.
      expect(rows.map((r) => r.strategy).sort(), symbol).toEqual([...STRATEGY_IDS].sort());
      for (const r of rows) {
        expect(r.exchange).toBe(EXCHANGE);
        expect(r.exchange_type).toBe("cex");
        expect(r.timeframe).toBe("5min");
        expect(r.confidence).toBeGreaterThanOrEqual(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
        expect(r.confidence_tier).toBe(confidenceTier(r.confidence));
        expect(Object.keys(r.indicator_values as object).length).toBeGreaterThan(0);
        // The mover's latest quote.
        expect(r.price).toBe(price(symbol, LAST));
        expect(r.volume_24h).toBe(volume(symbol, LAST));
      }
      // Exactly what the domain computes on the history the scan read.
      const expected = expectedSignals(symbol, scannedAt).map((s) => ({
        strategy: s.strategy,
        signal: s.signal,
        confidence: s.confidence,
        confidence_tier: s.tier,
        indicator_values: s.indicatorValues,
      }));
      const got = STRATEGY_IDS.map((id) => rows.find((r) => r.strategy === id)!).map((r) => ({
        strategy: r.strategy,
        signal: r.signal,
        confidence: r.confidence,
        confidence_tier: r.confidence_tier,
        indicator_values: r.indicator_values,
      }));
      expect(got, symbol).toEqual(expected);
    }
  });

  it("points the rally, the fall and the surge the way each strategy reads them", async () => {
    const fresh = (await signalRows()).filter((r) => Date.parse(r.computed_at) === scannedAt);
    const direction = (symbol: string) =>
      Object.fromEntries(fresh.filter((r) => r.symbol === symbol).map((r) => [r.strategy, r]));
    const rally = direction(RALLY);
    const fall = direction(FALL);
    const surge = direction(SURGE);

    // MACD follows the trend (no cross: the histogram's sign, low confidence).
    expect(rally.macd!.signal).toBe("bullish");
    expect(fall.macd!.signal).toBe("bearish");
    // RSI is contrarian: only gains is RSI 100, overbought; only losses RSI 0, oversold.
    expect(rally.rsi).toMatchObject({ signal: "bearish", confidence: 1, confidence_tier: "high" });
    expect(rally.rsi!.indicator_values).toMatchObject({ rsi: 100 });
    expect(fall.rsi).toMatchObject({ signal: "bullish", confidence: 1, confidence_tier: "high" });
    expect(fall.rsi!.indicator_values).toMatchObject({ rsi: 0 });
    // A steady trend never crosses its EMAs, and its volume is steady.
    for (const trend of [rally, fall]) {
      expect(trend.ema_cross!.signal).toBe("neutral");
      expect(trend.volume_surge!.signal).toBe("neutral");
    }
    // The surge: the flat price's EMAs and MACD (exactly 0) cross upwards on the last candle,
    // and that candle's volume is far above the 20 before it, closing above its open.
    for (const strategy of ["ema_cross", "macd", "volume_surge"]) {
      expect(surge[strategy], strategy).toMatchObject({
        signal: "bullish",
        confidence_tier: "high",
      });
    }
    expect(
      (surge.volume_surge!.indicator_values as { ratio: number }).ratio,
    ).toBeGreaterThanOrEqual(2);
  });

  it("computes nothing more in the same candle", async () => {
    // Still inside the candle: the room reserved before seeding covers this scan too.
    expect(candle + CANDLE_BUCKET_MS - Date.now()).toBeGreaterThan(1_000);
    const before = (await signalRows()).length;
    const again = await postScan(stackInfo().secretKey);
    expect(again.status).toBe(200);
    expect(again.body.signals).toEqual({ computed: 0 });
    expect(await signalRows()).toHaveLength(before);
  });

  it("is refused without the service-role key", async () => {
    const { status } = await postScan(stackInfo().publishableKey);
    expect(status).toBe(401);
  });

  it("lets subscribers read the signals through RLS, and not free users or visitors", async () => {
    const all = await signalRows();
    expect(all.length).toBe(3 * STRATEGY_IDS.length + OLD_SIGNALS.length + 1);
    const { client: pro } = await demoUser("pro@demo.local");
    expect((await signalRows(pro)).map((r) => r.id)).toEqual(all.map((r) => r.id));
    const { client: free } = await demoUser("free@demo.local");
    expect(await signalRows(free)).toEqual([]);
    expect(await signalRows(anonClient())).toEqual([]);
    // Writing stays the scanner's.
    const write = await pro.from("strategy_signals").delete().in("symbol", SYMBOLS).select("id");
    expect(write.data ?? []).toEqual([]);
    expect(await signalRows()).toHaveLength(all.length);
  });

  it("records how the signals of an hour ago played out, once each", async () => {
    const { data, error } = await service
      .from("strategy_signal_outcomes")
      .select("*")
      .in("symbol", SYMBOLS)
      .order("signal_id");
    expect(error).toBeNull();
    // The scan recorded the due ones: not the half-hour-old one, nor its own.
    expect(data!.map((o) => o.signal_id)).toEqual(oldIds);
    expect(data!.some((o) => o.signal_id === youngId)).toBe(false);
    OLD_SIGNALS.forEach((s, n) => {
      const o = data![n]!;
      const entry = price(s.symbol, ENTRY);
      const exit = price(s.symbol, EXIT);
      expect(o).toMatchObject({
        symbol: s.symbol,
        exchange: EXCHANGE,
        strategy: "macd",
        signal: s.signal,
        entry_price: entry,
        exit_price: exit,
        was_correct: s.right,
        // The first sample at or after computed_at + 1 h: 62 minutes later.
        hours_elapsed: 1.0333,
      });
      expect(evaluateOutcome(s.signal, entry, exit).wasCorrect).toBe(s.right);
      expect(o.pct_change).toBeCloseTo(evaluateOutcome(s.signal, entry, exit).pctChange, 3);
    });

    // Each signal gets one outcome: another run finds nothing due.
    const again = await service.rpc("record_signal_outcomes", {});
    expect(again.error).toBeNull();
    expect(again.data).toBe(0);
    // Only the scanner may run it; subscribers read the outcomes, free users do not.
    const { client: pro } = await demoUser("pro@demo.local");
    expect((await pro.rpc("record_signal_outcomes", {})).error).not.toBeNull();
    const seen = await pro.from("strategy_signal_outcomes").select("id").in("symbol", SYMBOLS);
    expect(seen.data).toHaveLength(OLD_SIGNALS.length);
    const { client: free } = await demoUser("free@demo.local");
    const hidden = await free.from("strategy_signal_outcomes").select("id").in("symbol", SYMBOLS);
    expect(hidden.data ?? []).toEqual([]);
  });
});
