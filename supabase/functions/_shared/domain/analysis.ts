/**
 * The per-symbol analysis shown in the dashboard's analysis modal (spec sections 2, 3 and 9):
 * trend, a one-hour forecast with confidence, momentum, volatility, liquidity and a 1–5 risk
 * score, all from the last 3 hours of price history.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 * No Deno, Node or DOM globals, no dependencies. Deterministic: the same points (and `now`)
 * always give the same analysis.
 *
 * Experimental and educational only, not financial advice (the modal says so).
 */

import { CANDLE_BUCKET_MS, pointTime, type PricePoint, toCandles } from "./candles.ts";
import { ema, lastValue, linearRegression, rsi, stddev } from "./indicators.ts";

export type Trend = "bullish" | "bearish" | "neutral";
/** A key for the UI to translate. */
export type Forecast = "up" | "down" | "sideways";
export type Momentum = "strong" | "weak" | "neutral";
export type Volatility = "high" | "medium" | "low";
export type Liquidity = "good" | "medium" | "poor";
/** 5 is the LOWEST risk (five stars), 1 the highest. */
export type RiskScore = 1 | 2 | 3 | 4 | 5;
export type RiskText = "low" | "medium" | "high";

export type Analysis = {
  trend: Trend;
  forecast: Forecast;
  /** Expected move over the next hour in percent, signed (1.5 = +1.5 %), 2 decimals. */
  forecastPct: number;
  /** 0–100, whole number. */
  confidence: number;
  riskScore: RiskScore;
  momentum: Momentum;
  volatility: Volatility;
  liquidityScore: Liquidity;
  /** Price samples inside the analysed window. */
  dataPoints: number;
  /** Span the samples cover, rounded to 5 minutes: "3h", "2h30m", "45m". */
  timeframe: string;
};

/** The spec's analysis history (section 9: 3 hours). */
export const ANALYSIS_WINDOW_MS = 3 * 60 * 60_000;
/** Fewer samples than this in the window: no analysis. */
export const MIN_ANALYSIS_POINTS = 10;
/** Samples spanning less than this: no analysis. */
export const MIN_ANALYSIS_SPAN_MS = 30 * 60_000;
/** Fewer 5-minute candles than this: no analysis (nothing to fit a line through). */
export const MIN_ANALYSIS_CANDLES = 3;

/** |forecastPct| below this (percent per hour) is "sideways". */
export const FORECAST_FLAT_PCT = 0.25;
/** Standard deviation of 5-minute returns, in percent, above which volatility is high / medium. */
export const VOLATILITY_HIGH_PCT = 1.5;
export const VOLATILITY_MEDIUM_PCT = 0.5;
/** 24-hour volume in USD from which liquidity is good / medium. */
export const LIQUIDITY_GOOD_USD = 1_000_000;
export const LIQUIDITY_MEDIUM_USD = 100_000;

const HOUR_MS = 60 * 60_000;
const MOMENTUM_LOOKBACK_MS = 30 * 60_000;

/**
 * Analyses the last 3 hours of `points` (up to `opts.now`, by default the newest sample's
 * time), or returns null — "Not enough data for analysis" — when that window holds fewer than
 * 10 usable samples, spans less than 30 minutes or yields fewer than 3 five-minute candles.
 * `opts.volume24h` (USD) decides liquidity; unknown counts as medium.
 *
 * How each field is derived (5-minute candles of the window, see `toCandles`):
 * - forecastPct: least-squares line through ln(close) against the time of each candle's
 *   closing sample; its slope extrapolated one hour ((e^slope − 1) × 100) and damped by multiplying with the fit's R².
 * - forecast: "up" / "down" when |forecastPct| ≥ 0.25, else "sideways".
 * - trend: two votes. EMA(9) vs EMA(21) of the closes (fewer candles shorten both periods to
 *   the candle count) votes when the spread exceeds max(0.1 %, half the 5-minute volatility);
 *   the forecast votes when it is not sideways. More bullish votes: bullish; more bearish:
 *   bearish; a tie (including one each): neutral.
 * - confidence: 100 × R² × (0.5 + 0.5 × data quality), where data quality is the share of the
 *   3 hours covered times the share of 5-minute buckets that hold a sample.
 * - volatility: population standard deviation of close-to-close candle returns; > 1.5 % high,
 *   > 0.5 % medium, else low.
 * - momentum: from RSI(14) of the closes (when there are 15 candles) and the price change over
 *   the last 30 minutes. Strong when |change| ≥ 1 % or |RSI − 50| ≥ 20; weak when
 *   |change| < 0.2 % and (no RSI or |RSI − 50| < 10); neutral otherwise.
 * - liquidity: 24-hour volume ≥ 1,000,000 USD good, ≥ 100,000 medium, else poor.
 * - riskScore: 5, minus 2 for high / 1 for medium volatility, minus 2 for poor / 1 for medium
 *   liquidity, minus 1 when confidence is below 40; never below 1.
 */
export function computeAnalysis(
  points: readonly PricePoint[],
  opts: { volume24h?: number | null; now?: number } = {},
): Analysis | null {
  const timed = points
    .map((p) => ({ t: pointTime(p.ts), price: p.price }))
    .filter((p) => Number.isFinite(p.t) && Number.isFinite(p.price) && p.price > 0)
    .sort((a, b) => a.t - b.t);
  if (timed.length === 0) return null;
  const now = opts.now ?? timed[timed.length - 1].t;
  const window = timed.filter((p) => p.t <= now && p.t >= now - ANALYSIS_WINDOW_MS);
  if (window.length < MIN_ANALYSIS_POINTS) return null;
  const first = window[0];
  const last = window[window.length - 1];
  const spanMs = last.t - first.t;
  if (spanMs < MIN_ANALYSIS_SPAN_MS) return null;

  const candles = toCandles(
    window.map((p) => ({ ts: p.t, price: p.price })),
    CANDLE_BUCKET_MS,
  );
  if (candles.length < MIN_ANALYSIS_CANDLES) return null;
  const closes = candles.map((c) => c.close);

  // x is the time of each candle's closing sample, so a part-filled last candle is not skewed.
  const closeTimes = new Map<number, number>();
  for (const p of window) {
    closeTimes.set(Math.floor(p.t / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS, p.t);
  }
  const fit = linearRegression(
    candles.map((c) => ((closeTimes.get(c.start) as number) - first.t) / HOUR_MS),
    closes.map((c) => Math.log(c)),
  );
  const r2 = fit?.r2 ?? 0;
  const forecastPct = round2((Math.exp(fit?.slope ?? 0) - 1) * 100 * r2);
  const forecast: Forecast = forecastPct >= FORECAST_FLAT_PCT
    ? "up"
    : forecastPct <= -FORECAST_FLAT_PCT
    ? "down"
    : "sideways";

  const returnsPct = closes.slice(1).map((c, i) => (c / closes[i] - 1) * 100);
  const volatilityPct = returnsPct.length > 0 ? stddev(returnsPct) : 0;
  const volatility: Volatility = volatilityPct > VOLATILITY_HIGH_PCT
    ? "high"
    : volatilityPct > VOLATILITY_MEDIUM_PCT
    ? "medium"
    : "low";

  const fast = lastValue(ema(closes, Math.min(9, closes.length))) as number;
  const slow = lastValue(ema(closes, Math.min(21, closes.length))) as number;
  const spreadPct = ((fast - slow) / slow) * 100;
  const spreadThreshold = Math.max(0.1, 0.5 * volatilityPct);
  const votes = sign(spreadPct, spreadThreshold) +
    (forecast === "up" ? 1 : forecast === "down" ? -1 : 0);
  const trend: Trend = votes > 0 ? "bullish" : votes < 0 ? "bearish" : "neutral";

  const coverage = Math.min(1, spanMs / ANALYSIS_WINDOW_MS);
  const expectedBuckets = Math.floor(last.t / CANDLE_BUCKET_MS) -
    Math.floor(first.t / CANDLE_BUCKET_MS) + 1;
  const density = Math.min(1, candles.length / expectedBuckets);
  const confidence = clamp(Math.round(100 * r2 * (0.5 + 0.5 * coverage * density)), 0, 100);

  const rsiNow = lastValue(rsi(closes, 14));
  const before = priceAtOrBefore(window, last.t - MOMENTUM_LOOKBACK_MS) ?? first.price;
  const change30Pct = (last.price / before - 1) * 100;
  const momentum = momentumOf(change30Pct, rsiNow);

  const liquidityScore = liquidityOf(opts.volume24h);
  const riskScore = riskScoreOf(volatility, liquidityScore, confidence);

  return {
    trend,
    forecast,
    forecastPct,
    confidence,
    riskScore,
    momentum,
    volatility,
    liquidityScore,
    dataPoints: window.length,
    timeframe: formatSpan(spanMs),
  };
}

/** Liquidity from a 24-hour volume in USD; unknown (null, missing, not finite) is medium. */
export function liquidityOf(volume24h: number | null | undefined): Liquidity {
  if (typeof volume24h !== "number" || !Number.isFinite(volume24h)) return "medium";
  if (volume24h >= LIQUIDITY_GOOD_USD) return "good";
  if (volume24h >= LIQUIDITY_MEDIUM_USD) return "medium";
  return "poor";
}

/** The risk score as documented on `computeAnalysis`. */
export function riskScoreOf(
  volatility: Volatility,
  liquidity: Liquidity,
  confidence: number,
): RiskScore {
  let score = 5;
  score -= volatility === "high" ? 2 : volatility === "medium" ? 1 : 0;
  score -= liquidity === "poor" ? 2 : liquidity === "medium" ? 1 : 0;
  if (confidence < 40) score -= 1;
  return clamp(score, 1, 5) as RiskScore;
}

/** The spec's risk text: score 4 or more low, 3 or more medium, otherwise high. */
export function riskText(score: number): RiskText {
  if (score >= 4) return "low";
  if (score >= 3) return "medium";
  return "high";
}

function momentumOf(change30Pct: number, rsiNow: number | null): Momentum {
  const change = Math.abs(change30Pct);
  const rsiDistance = rsiNow === null ? null : Math.abs(rsiNow - 50);
  if (change >= 1 || (rsiDistance !== null && rsiDistance >= 20)) return "strong";
  if (change < 0.2 && (rsiDistance === null || rsiDistance < 10)) return "weak";
  return "neutral";
}

/** Price of the newest sample at or before `t` (samples sorted by time), or null. */
function priceAtOrBefore(samples: readonly { t: number; price: number }[], t: number) {
  let found: number | null = null;
  for (const s of samples) {
    if (s.t > t) break;
    found = s.price;
  }
  return found;
}

/** "3h", "2h30m", "45m": the span rounded to 5 minutes. */
function formatSpan(spanMs: number): string {
  const minutes = Math.round(spanMs / (5 * 60_000)) * 5;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
}

function sign(value: number, threshold: number): -1 | 0 | 1 {
  if (value > threshold) return 1;
  if (value < -threshold) return -1;
  return 0;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded; // no -0
}
