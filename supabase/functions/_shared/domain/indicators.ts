/**
 * Technical indicators on plain number series: moving averages, Wilder's RSI, MACD and
 * Bollinger Bands. Used by the scanner's strategy signals and by the per-symbol analysis.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 * No Deno, Node or DOM globals, no dependencies.
 *
 * Every series function returns an array ALIGNED to its input (same length, same index) and
 * holds `null` where there is not yet enough data, so `result[i]` always describes `values[i]`.
 * A period that is not a positive integer is a programming error and throws a `RangeError`.
 */

/** One value per input element; `null` until the indicator has enough data. */
export type Series = (number | null)[];

function assertPeriod(period: number): void {
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`period must be a positive integer, got ${period}`);
  }
}

/** Arithmetic mean; `NaN` for an empty list. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * Standard deviation of the whole list. Population (divide by n) by default, as Bollinger
 * defines his bands; `sample: true` divides by n − 1. `NaN` when there are too few values.
 */
export function stddev(values: readonly number[], options: { sample?: boolean } = {}): number {
  const n = values.length;
  const divisor = options.sample ? n - 1 : n;
  if (divisor < 1) return Number.NaN;
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) * (v - m);
  return Math.sqrt(squares / divisor);
}

/** Simple moving average; the first value sits at index `period − 1`. */
export function sma(values: readonly number[], period: number): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(values.length).fill(null);
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    sum += values[i];
    if (i >= period) sum -= values[i - period];
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average with multiplier 2 / (period + 1), seeded with the SMA of the first
 * `period` values (the usual convention, e.g. StockCharts): the first value sits at index
 * `period − 1`.
 */
export function ema(values: readonly number[], period: number): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(values.length).fill(null);
  if (values.length < period) return out;
  const k = 2 / (period + 1);
  let prev = mean(values.slice(0, period));
  out[period - 1] = prev;
  for (let i = period; i < values.length; i++) {
    prev = (values[i] - prev) * k + prev;
    out[i] = prev;
  }
  return out;
}

/** `ema` of a series that starts with nulls (e.g. the MACD line), aligned to that series. */
function emaOfSeries(series: Series, period: number): Series {
  const start = series.findIndex((v) => v !== null);
  const out: Series = new Array<number | null>(series.length).fill(null);
  if (start < 0) return out;
  const tail = ema(series.slice(start) as number[], period);
  for (let i = 0; i < tail.length; i++) out[start + i] = tail[i];
  return out;
}

/**
 * Wilder's Relative Strength Index. The first average gain and loss are the simple means of the
 * first `period` changes; after that each is smoothed as (previous × (period − 1) + current) /
 * period. The first value sits at index `period` (it needs `period` changes, so `period + 1`
 * closes). When there were no losses at all the RSI is 100; with neither gains nor losses (a
 * flat series) it is 50.
 */
export function rsi(closes: readonly number[], period = 14): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(closes.length).fill(null);
  if (closes.length <= period) return out;
  let avgGain = 0;
  let avgLoss = 0;
  for (let i = 1; i <= period; i++) {
    const change = closes[i] - closes[i - 1];
    if (change > 0) avgGain += change;
    else avgLoss -= change;
  }
  avgGain /= period;
  avgLoss /= period;
  out[period] = rsiValue(avgGain, avgLoss);
  for (let i = period + 1; i < closes.length; i++) {
    const change = closes[i] - closes[i - 1];
    avgGain = (avgGain * (period - 1) + Math.max(change, 0)) / period;
    avgLoss = (avgLoss * (period - 1) + Math.max(-change, 0)) / period;
    out[i] = rsiValue(avgGain, avgLoss);
  }
  return out;
}

function rsiValue(avgGain: number, avgLoss: number): number {
  if (avgLoss === 0) return avgGain === 0 ? 50 : 100;
  return 100 - 100 / (1 + avgGain / avgLoss);
}

export interface MacdResult {
  /** EMA(fast) − EMA(slow); first value at index `slow − 1`. */
  macd: Series;
  /** EMA(signal) of the MACD line; first value at index `slow + signal − 2`. */
  signal: Series;
  /** MACD − signal; defined where the signal line is. */
  histogram: Series;
}

/** Moving Average Convergence/Divergence (Appel), by default 12/26/9. */
export function macd(closes: readonly number[], fast = 12, slow = 26, signal = 9): MacdResult {
  assertPeriod(signal);
  const fastEma = ema(closes, fast);
  const slowEma = ema(closes, slow);
  const line: Series = closes.map((_, i) => {
    const f = fastEma[i];
    const s = slowEma[i];
    return f === null || s === null ? null : f - s;
  });
  const signalLine = emaOfSeries(line, signal);
  const histogram: Series = line.map((m, i) => {
    const s = signalLine[i];
    return m === null || s === null ? null : m - s;
  });
  return { macd: line, signal: signalLine, histogram };
}

export interface BollingerResult {
  /** SMA(period). */
  middle: Series;
  /** middle + k × population standard deviation of the same `period` closes. */
  upper: Series;
  /** middle − k × population standard deviation. */
  lower: Series;
  /**
   * Bollinger's BandWidth as a ratio, (upper − lower) / middle (0.04 = bands 4 % of price
   * apart; StockCharts shows the same number × 100). `null` where middle is 0.
   */
  bandwidth: Series;
}

/** Bollinger Bands, by default 20 periods and 2 standard deviations. */
export function bollinger(closes: readonly number[], period = 20, k = 2): BollingerResult {
  const middle = sma(closes, period);
  const n = closes.length;
  const upper: Series = new Array<number | null>(n).fill(null);
  const lower: Series = new Array<number | null>(n).fill(null);
  const bandwidth: Series = new Array<number | null>(n).fill(null);
  for (let i = period - 1; i < n; i++) {
    const m = middle[i] as number;
    const sd = stddev(closes.slice(i - period + 1, i + 1));
    upper[i] = m + k * sd;
    lower[i] = m - k * sd;
    bandwidth[i] = m === 0 ? null : (2 * k * sd) / m;
  }
  return { middle, upper, lower, bandwidth };
}

/** The last non-null value of a series, or null. */
export function lastValue(series: Series): number | null {
  for (let i = series.length - 1; i >= 0; i--) {
    const v = series[i];
    if (v !== null) return v;
  }
  return null;
}

export interface LinearFit {
  /** Change of y per unit of x. */
  slope: number;
  /** y at x = 0. */
  intercept: number;
  /** Coefficient of determination, 0..1; 0 when y does not vary or x does not. */
  r2: number;
}

/**
 * Ordinary least-squares line through (xs[i], ys[i]). `null` with fewer than two points or
 * when every x is the same.
 */
export function linearRegression(xs: readonly number[], ys: readonly number[]): LinearFit | null {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return null;
  const mx = mean(xs.slice(0, n));
  const my = mean(ys.slice(0, n));
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - mx;
    const dy = ys[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx === 0) return null;
  const slope = sxy / sxx;
  const r2 = syy === 0 ? 0 : Math.min(1, (sxy * sxy) / (sxx * syy));
  return { slope, intercept: my - slope * mx, r2 };
}

/** `sma` of a series that may hold nulls: defined where the last `period` values all are. */
function smaOfSeries(series: Series, period: number): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(series.length).fill(null);
  let sum = 0;
  let run = 0;
  for (let i = 0; i < series.length; i++) {
    const v = series[i];
    if (v === null) {
      sum = 0;
      run = 0;
      continue;
    }
    sum += v;
    run += 1;
    if (run > period) sum -= series[i - period] as number;
    if (run >= period) out[i] = sum / period;
  }
  return out;
}

export interface StochRsiResult {
  /** (RSI − lowest RSI) / (highest − lowest) over `stochPeriod` RSIs, × 100 (0..100). */
  stochRsi: Series;
  /** %K: SMA(k) of stochRsi. */
  k: Series;
  /** %D: SMA(d) of %K. */
  d: Series;
}

/**
 * Stochastic RSI (Chande and Kroll): the stochastic oscillator applied to Wilder's RSI, scaled
 * 0..100 as TradingView shows it, by default RSI 14, stochastic 14, %K 3, %D 3. Where the RSI did
 * not move over the stochastic period (highest = lowest) the value is `null`, not a guess.
 */
export function stochRsi(
  closes: readonly number[],
  options: { rsiPeriod?: number; stochPeriod?: number; k?: number; d?: number } = {},
): StochRsiResult {
  const rsiPeriod = options.rsiPeriod ?? 14;
  const stochPeriod = options.stochPeriod ?? 14;
  assertPeriod(stochPeriod);
  const r = rsi(closes, rsiPeriod);
  const raw: Series = new Array<number | null>(closes.length).fill(null);
  for (let i = rsiPeriod + stochPeriod - 1; i < closes.length; i++) {
    const window = r.slice(i - stochPeriod + 1, i + 1) as number[];
    const lo = Math.min(...window);
    const hi = Math.max(...window);
    raw[i] = hi === lo ? null : ((r[i] as number) - lo) / (hi - lo) * 100;
  }
  const k = smaOfSeries(raw, options.k ?? 3);
  return { stochRsi: raw, k, d: smaOfSeries(k, options.d ?? 3) };
}

/** What the range indicators need of a candle. */
export interface Ohlcv {
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Wilder's Average True Range, by default 14 periods. The true range of the first candle is its
 * high − low (there is no previous close); after that the largest of high − low, |high −
 * previous close| and |low − previous close|. The first ATR, at index `period − 1`, is the mean
 * of the first `period` true ranges; then (previous × (period − 1) + true range) / period.
 */
export function atr(candles: readonly Ohlcv[], period = 14): Series {
  assertPeriod(period);
  const out: Series = new Array<number | null>(candles.length).fill(null);
  if (candles.length < period) return out;
  const tr = candles.map((c, i) => {
    if (i === 0) return c.high - c.low;
    const prev = candles[i - 1].close;
    return Math.max(c.high - c.low, Math.abs(c.high - prev), Math.abs(c.low - prev));
  });
  let value = mean(tr.slice(0, period));
  out[period - 1] = value;
  for (let i = period; i < candles.length; i++) {
    value = (value * (period - 1) + tr[i]) / period;
    out[i] = value;
  }
  return out;
}

/**
 * On-Balance Volume (Granville): starts at 0 on the first candle, then adds the candle's volume
 * when it closes above the previous close, subtracts it when below, and keeps it when equal.
 */
export function obv(candles: readonly Pick<Ohlcv, "close" | "volume">[]): Series {
  const out: Series = [];
  let total = 0;
  candles.forEach((c, i) => {
    if (i > 0) {
      const prev = candles[i - 1].close;
      if (c.close > prev) total += c.volume;
      else if (c.close < prev) total -= c.volume;
    }
    out.push(total);
  });
  return out;
}

/**
 * Volume-Weighted Average Price anchored at the first candle: Σ(typical price × volume) / Σ volume
 * with typical price (high + low + close) / 3. `null` until some volume has traded. Crypto has no
 * session close, so the chart's first candle is the anchor (decision 0035).
 */
export function vwap(candles: readonly Ohlcv[]): Series {
  let pv = 0;
  let v = 0;
  return candles.map((c) => {
    pv += ((c.high + c.low + c.close) / 3) * c.volume;
    v += c.volume;
    return v > 0 ? pv / v : null;
  });
}
