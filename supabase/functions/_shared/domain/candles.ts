/**
 * Price history to candles, for the analysis chart and for the scanner's strategy signals
 * (spec section 9: 5-minute buckets, prices with 6 decimals, at most 8 time ticks, a candle
 * is green when it closes at or above its open).
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 * No Deno, Node or DOM globals, no dependencies.
 */

import { MISSING_VALUE } from "./format.ts";

/** One price sample. `ts` is epoch milliseconds or an ISO 8601 string. */
export type PricePoint = {
  ts: string | number;
  price: number;
  /**
   * Volume attributed to this sample; `toCandles` adds these up per bucket. The price history
   * stores rolling 24-hour totals instead: turn those into per-sample amounts with
   * `estimateIntervalVolumes` first, or a candle's volume means nothing.
   */
  volume?: number | null;
};

export type Candle = {
  /** Epoch ms of the bucket's start (a multiple of the bucket length). */
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Sum of the samples' volumes; 0 when none carried one. */
  volume: number;
  /** How many samples fell into the bucket (≥ 1). */
  count: number;
};

export const CANDLE_BUCKET_MS = 5 * 60_000;
export const MAX_TIME_TICKS = 8;
export const CHART_PRICE_DECIMALS = 6;

const DAY_MS = 24 * 60 * 60_000;

/** Epoch ms of a timestamp, or NaN when it cannot be read. */
export function pointTime(ts: string | number): number {
  return typeof ts === "number" ? ts : Date.parse(ts);
}

type TimedPoint = { t: number; price: number; volume: number | null; order: number };

/**
 * The usable samples in time order. Samples with an unreadable time or a price that is not a
 * positive finite number are dropped. Equal times keep their input order, so of two samples
 * with the same time the later one in the input counts as the later price.
 */
function timedPoints(points: readonly PricePoint[]): TimedPoint[] {
  const out: TimedPoint[] = [];
  points.forEach((p, order) => {
    const t = pointTime(p.ts);
    if (!Number.isFinite(t) || !Number.isFinite(p.price) || p.price <= 0) return;
    const volume = typeof p.volume === "number" && Number.isFinite(p.volume) && p.volume >= 0
      ? p.volume
      : null;
    out.push({ t, price: p.price, volume, order });
  });
  return out.sort((a, b) => a.t - b.t || a.order - b.order);
}

/**
 * Groups samples into candles of `bucketMs` (default 5 minutes), aligned to multiples of
 * `bucketMs` since the epoch (so 12:03 falls into the 12:00 candle). Open is the first sample
 * of the bucket, close the last, high and low the extremes. Input may be unsorted and may
 * repeat timestamps (see `timedPoints` for the order of equal times). Buckets without samples
 * are OMITTED, not filled with flat candles: a gap in the history stays a gap, and indicators
 * computed on the candles see only observed prices.
 */
export function toCandles(points: readonly PricePoint[], bucketMs = CANDLE_BUCKET_MS): Candle[] {
  if (!Number.isFinite(bucketMs) || bucketMs <= 0) {
    throw new RangeError(`bucketMs must be positive, got ${bucketMs}`);
  }
  const candles: Candle[] = [];
  let current: Candle | null = null;
  for (const p of timedPoints(points)) {
    const start = Math.floor(p.t / bucketMs) * bucketMs;
    if (!current || current.start !== start) {
      current = {
        start,
        open: p.price,
        high: p.price,
        low: p.price,
        close: p.price,
        volume: 0,
        count: 0,
      };
      candles.push(current);
    }
    current.high = Math.max(current.high, p.price);
    current.low = Math.min(current.low, p.price);
    current.close = p.price;
    current.volume += p.volume ?? 0;
    current.count += 1;
  }
  return candles;
}

/**
 * Turns samples whose `volume` is a rolling 24-hour total (as `price_history.volume_24h`
 * stores it) into samples whose `volume` is an estimate of what traded since the previous
 * sample: the rise of the rolling total plus what is assumed to have left the 24-hour window
 * meanwhile (the total's average rate, total × elapsed / 24 h), never below 0. The first sample,
 * and any sample next to one without a total, gets `null`. Returns the usable samples in time
 * order with `ts` as epoch ms.
 */
export function estimateIntervalVolumes(points: readonly PricePoint[]): PricePoint[] {
  const sorted = timedPoints(points);
  return sorted.map((p, i) => {
    const prev = i > 0 ? sorted[i - 1] : null;
    let volume: number | null = null;
    if (prev && prev.volume !== null && p.volume !== null) {
      const elapsed = p.t - prev.t;
      volume = Math.max(0, p.volume - prev.volume + (p.volume * elapsed) / DAY_MS);
    }
    return { ts: p.t, price: p.price, volume };
  });
}

/** The spec's candle colour: green ("up") when the close is at or above the open. */
export function candleColor(candle: Pick<Candle, "open" | "close">): "up" | "down" {
  return candle.close >= candle.open ? "up" : "down";
}

/**
 * At most `max` (default 8) tick times for the time axis, taken from the candles' starts and
 * spread evenly over them, always including the first and the last candle. Fewer candles than
 * `max` give one tick each.
 */
export function timeTicks(
  candles: readonly Pick<Candle, "start">[],
  max = MAX_TIME_TICKS,
): number[] {
  const n = candles.length;
  const limit = Math.floor(max);
  if (n === 0 || !(limit >= 1)) return [];
  if (n <= limit) return candles.map((c) => c.start);
  if (limit === 1) return [candles[0].start];
  const ticks: number[] = [];
  for (let i = 0; i < limit; i++) {
    ticks.push(candles[Math.round((i * (n - 1)) / (limit - 1))].start);
  }
  return ticks;
}

const chartPriceFormats = new Map<string, Intl.NumberFormat>();

/** A chart price with exactly 6 decimals (`0.000123`, `1,234.500000` in English). */
export function formatChartPrice(price: number, locale = "en"): string {
  if (!Number.isFinite(price)) return MISSING_VALUE;
  let format = chartPriceFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      minimumFractionDigits: CHART_PRICE_DECIMALS,
      maximumFractionDigits: CHART_PRICE_DECIMALS,
    });
    chartPriceFormats.set(locale, format);
  }
  return format.format(price);
}

/**
 * The candles with a live quote folded in: a quote inside the newest candle's bucket moves its
 * close (and high or low), a quote in a later bucket starts a new candle, an older quote changes
 * nothing. Returns the same array when nothing changed, so a chart can tell a live tick from new
 * data. A quote's volume is unknown: the live candle keeps the volume it had (0 when new).
 */
export function withLiveQuote(
  candles: readonly Candle[],
  quote: { ts: string | number; price: number } | null,
  bucketMs = CANDLE_BUCKET_MS,
): readonly Candle[] {
  if (!quote || candles.length === 0) return candles;
  const t = pointTime(quote.ts);
  if (!Number.isFinite(t) || !Number.isFinite(quote.price) || quote.price <= 0) return candles;
  const start = Math.floor(t / bucketMs) * bucketMs;
  const last = candles[candles.length - 1];
  if (start < last.start) return candles;
  if (start === last.start) {
    if (last.close === quote.price) return candles;
    return [
      ...candles.slice(0, -1),
      {
        ...last,
        close: quote.price,
        high: Math.max(last.high, quote.price),
        low: Math.min(last.low, quote.price),
        count: last.count + 1,
      },
    ];
  }
  return [
    ...candles,
    {
      start,
      open: quote.price,
      high: quote.price,
      low: quote.price,
      close: quote.price,
      volume: 0,
      count: 1,
    },
  ];
}
