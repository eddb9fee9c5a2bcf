/**
 * Strategy signals on 5-minute candles (the scanner stores them in `public.strategy_signals`),
 * their outcomes (`public.strategy_signal_outcomes`) and the dashboard's Trading Signals card
 * (spec sections 2, 3, 4 and 9).
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 * No Deno, Node or DOM globals, no dependencies. Deterministic.
 */

import type { Candle } from "./candles.ts";
import { bollinger, ema, macd, rsi, type Series } from "./indicators.ts";

/** `public.strategy`. */
export const STRATEGY_IDS = ["rsi", "macd", "ema_cross", "bollinger", "volume_surge"] as const;
export type StrategyId = (typeof STRATEGY_IDS)[number];
/** `public.signal_direction`. */
export type Direction = "bullish" | "bearish" | "neutral";
/** `public.confidence_tier`. */
export type ConfidenceTier = "low" | "medium" | "high";

export type Signal = {
  strategy: StrategyId;
  signal: Direction;
  /** 0..1, rounded to 3 decimals. */
  confidence: number;
  tier: ConfidenceTier;
  /** What the strategy looked at, for `indicator_values` (jsonb). */
  indicatorValues: Record<string, number | null>;
};

// ---------------------------------------------------------------------------------------------
// Thresholds
// ---------------------------------------------------------------------------------------------

export const RSI_PERIOD = 14;
export const RSI_OVERSOLD = 30;
export const RSI_OVERBOUGHT = 70;
/** A cross counts when it happened between one of the last this-many candles and its predecessor. */
export const CROSS_LOOKBACK = 2;
export const EMA_FAST = 9;
export const EMA_SLOW = 21;
export const BOLLINGER_PERIOD = 20;
export const BOLLINGER_K = 2;
/** Squeeze: bandwidth among the lowest 20 % of its last 50 values … */
export const SQUEEZE_LOOKBACK = 50;
export const SQUEEZE_SHARE = 0.2;
/** … or of as many as there are, but at least this many (3 h of 5-minute candles hold ~36). */
export const SQUEEZE_MIN_HISTORY = 10;
export const VOLUME_LOOKBACK = 20;
export const VOLUME_SURGE_RATIO = 2;
/** The fewest closed candles any strategy needs (RSI: its period plus one). */
export const MIN_SIGNAL_CANDLES = RSI_PERIOD + 1;
/** Confidence of a strategy that looked and found nothing (neutral). */
export const NEUTRAL_CONFIDENCE = 0.2;
/** `confidenceTier`: below 0.4 low, below 0.7 medium, else high. */
export const TIER_MEDIUM_FROM = 0.4;
export const TIER_HIGH_FROM = 0.7;

/** The spec's tiers: below 0.4 low, below 0.7 medium, otherwise high. */
export function confidenceTier(confidence: number): ConfidenceTier {
  if (confidence < TIER_MEDIUM_FROM) return "low";
  if (confidence < TIER_HIGH_FROM) return "medium";
  return "high";
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

/**
 * One signal per strategy that has enough candles (in time order, as `toCandles` returns them),
 * in the order of `STRATEGY_IDS`:
 *
 * - rsi (≥ 15 candles): RSI(14) of the last close below 30 bullish (oversold), above 70
 *   bearish (overbought), else neutral; confidence |RSI − 50| / 50, so neutral stays below 0.4.
 * - macd (≥ 35 candles): the MACD line (12/26) crossing its signal line (9) between one of the
 *   last 2 candles and its predecessor: upwards bullish, downwards bearish; confidence 0.6 for a
 *   cross on the last candle, 0.5 one candle earlier, plus up to 0.3 for the histogram's size
 *   relative to its mean absolute value over the last 20 candles. No cross: the histogram's
 *   sign with low confidence 0.15 + 0.2 × that relative size, neutral when the relative size
 *   is below 0.25.
 * - ema_cross (≥ 22 candles): EMA(9) crossing EMA(21) within the last 2 candles, upwards
 *   bullish, downwards bearish, confidence as for MACD (on the EMA spread); otherwise neutral.
 * - bollinger (≥ 30 candles): a squeeze is the previous candle's BandWidth (20, 2) among the
 *   lowest 20 % of its last 50 values (at least 10). After a squeeze a close above the upper
 *   band is bullish, below the lower band bearish, confidence 0.6 + up to 0.3 for how far
 *   beyond the band; anything else neutral.
 * - volume_surge (≥ 21 candles and some volume in the previous 20): the last candle's volume
 *   at least 2 × the mean of the previous 20 takes the candle's direction (close above open
 *   bullish, below bearish, equal neutral), confidence 0.5 at 2× rising to 0.9 at 5×; no surge
 *   neutral.
 *
 * Neutral results from "nothing happened" carry confidence 0.2.
 */
export function computeSignals(candles: readonly Candle[]): Signal[] {
  const closes = candles.map((c) => c.close);
  const out: Signal[] = [];
  const add = (
    strategy: StrategyId,
    signal: Direction,
    confidence: number,
    indicatorValues: Record<string, number | null>,
  ) => {
    const c = round3(clamp01(confidence));
    out.push({ strategy, signal, confidence: c, tier: confidenceTier(c), indicatorValues });
  };

  const rsiSignal = rsiStrategy(closes);
  if (rsiSignal) add("rsi", ...rsiSignal);
  const macdSignal = macdStrategy(closes);
  if (macdSignal) add("macd", ...macdSignal);
  const emaSignal = emaCrossStrategy(closes);
  if (emaSignal) add("ema_cross", ...emaSignal);
  const bollingerSignal = bollingerStrategy(closes);
  if (bollingerSignal) add("bollinger", ...bollingerSignal);
  const volumeSignal = volumeSurgeStrategy(candles);
  if (volumeSignal) add("volume_surge", ...volumeSignal);
  return out;
}

type StrategyResult = [Direction, number, Record<string, number | null>];

function rsiStrategy(closes: readonly number[]): StrategyResult | null {
  if (closes.length < RSI_PERIOD + 1) return null;
  const value = rsi(closes, RSI_PERIOD)[closes.length - 1] as number;
  const direction: Direction = value < RSI_OVERSOLD
    ? "bullish"
    : value > RSI_OVERBOUGHT
    ? "bearish"
    : "neutral";
  return [direction, Math.abs(value - 50) / 50, { rsi: round4(value), period: RSI_PERIOD }];
}

/**
 * The most recent sign change of `diff` between candle i − 1 and i, for i among the last
 * `CROSS_LOOKBACK` candles: +1 upwards (≤ 0 → > 0), −1 downwards (≥ 0 → < 0), with how many
 * candles ago it happened (0 = on the last candle).
 */
function recentCross(diff: Series): { direction: 1 | -1; ago: number } | null {
  const n = diff.length;
  for (let ago = 0; ago < CROSS_LOOKBACK; ago++) {
    const i = n - 1 - ago;
    const now = diff[i];
    const before = diff[i - 1];
    if (i < 1 || now === null || before === null || now === undefined || before === undefined) {
      return null;
    }
    if (before <= 0 && now > 0) return { direction: 1, ago };
    if (before >= 0 && now < 0) return { direction: -1, ago };
  }
  return null;
}

/** |last value| relative to the mean absolute value of the last 20 defined values, capped at 1. */
function relativeSize(series: Series): number {
  const recent = series.filter((v): v is number => v !== null).slice(-20);
  if (recent.length === 0) return 0;
  const typical = recent.reduce((sum, v) => sum + Math.abs(v), 0) / recent.length;
  if (typical === 0) return 0;
  return Math.min(1, Math.abs(recent[recent.length - 1]) / typical);
}

function crossConfidence(ago: number, size: number): number {
  return (ago === 0 ? 0.6 : 0.5) + 0.3 * size;
}

function macdStrategy(closes: readonly number[]): StrategyResult | null {
  // The signal line starts at index 33; a cross needs one value before it.
  if (closes.length < 35) return null;
  const { macd: line, signal, histogram } = macd(closes);
  const last = closes.length - 1;
  const values = {
    macd: round8(line[last]),
    signal: round8(signal[last]),
    histogram: round8(histogram[last]),
  };
  const size = relativeSize(histogram);
  const cross = recentCross(histogram);
  if (cross) {
    return [cross.direction > 0 ? "bullish" : "bearish", crossConfidence(cross.ago, size), values];
  }
  const h = histogram[last] as number;
  if (size < 0.25 || h === 0) return ["neutral", NEUTRAL_CONFIDENCE, values];
  return [h > 0 ? "bullish" : "bearish", 0.15 + 0.2 * size, values];
}

function emaCrossStrategy(closes: readonly number[]): StrategyResult | null {
  if (closes.length < EMA_SLOW + 1) return null;
  const fast = ema(closes, EMA_FAST);
  const slow = ema(closes, EMA_SLOW);
  const spread: Series = closes.map((_, i) => {
    const f = fast[i];
    const s = slow[i];
    return f === null || s === null ? null : f - s;
  });
  const last = closes.length - 1;
  const values = { emaFast: round8(fast[last]), emaSlow: round8(slow[last]) };
  const cross = recentCross(spread);
  if (!cross) return ["neutral", NEUTRAL_CONFIDENCE, values];
  return [
    cross.direction > 0 ? "bullish" : "bearish",
    crossConfidence(cross.ago, relativeSize(spread)),
    values,
  ];
}

function bollingerStrategy(closes: readonly number[]): StrategyResult | null {
  const last = closes.length - 1;
  const prev = last - 1;
  // BandWidth starts at index period − 1; the previous candle needs SQUEEZE_MIN_HISTORY of them.
  if (prev - (BOLLINGER_PERIOD - 1) + 1 < SQUEEZE_MIN_HISTORY) return null;
  const bands = bollinger(closes, BOLLINGER_PERIOD, BOLLINGER_K);
  const history = bands.bandwidth
    .slice(Math.max(0, prev - SQUEEZE_LOOKBACK + 1), prev + 1)
    .filter((v): v is number => v !== null);
  const current = bands.bandwidth[prev];
  if (current === null || history.length < SQUEEZE_MIN_HISTORY) return null;
  const atOrBelow = history.filter((v) => v <= current).length;
  const squeeze = atOrBelow <= Math.ceil(SQUEEZE_SHARE * history.length);

  const close = closes[last];
  const upper = bands.upper[last] as number;
  const lower = bands.lower[last] as number;
  const middle = bands.middle[last] as number;
  const values = {
    upper: round8(upper),
    middle: round8(middle),
    lower: round8(lower),
    bandwidth: round8(bands.bandwidth[last]),
    squeeze: squeeze ? 1 : 0,
  };
  if (!squeeze) return ["neutral", NEUTRAL_CONFIDENCE, values];
  const halfWidth = upper - middle;
  const beyond = (distance: number) =>
    0.6 + 0.3 * (halfWidth > 0 ? Math.min(1, distance / halfWidth) : 1);
  if (close > upper) return ["bullish", beyond(close - upper), values];
  if (close < lower) return ["bearish", beyond(lower - close), values];
  return ["neutral", NEUTRAL_CONFIDENCE, values];
}

function volumeSurgeStrategy(candles: readonly Candle[]): StrategyResult | null {
  if (candles.length < VOLUME_LOOKBACK + 1) return null;
  const last = candles[candles.length - 1];
  const previous = candles.slice(-(VOLUME_LOOKBACK + 1), -1);
  const average = previous.reduce((sum, c) => sum + c.volume, 0) / previous.length;
  if (!(average > 0)) return null;
  const ratio = last.volume / average;
  const values = {
    volume: round8(last.volume),
    averageVolume: round8(average),
    ratio: round4(ratio),
  };
  if (ratio < VOLUME_SURGE_RATIO) return ["neutral", NEUTRAL_CONFIDENCE, values];
  const direction: Direction = last.close > last.open
    ? "bullish"
    : last.close < last.open
    ? "bearish"
    : "neutral";
  return [direction, 0.5 + 0.4 * Math.min(1, (ratio - VOLUME_SURGE_RATIO) / 3), values];
}

// ---------------------------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------------------------

/** Within ±0.5 % a neutral signal counts as correct. */
export const NEUTRAL_BAND_PCT = 0.5;

/**
 * How a signal played out between `entry` and `exit` price: the percent change, and whether it
 * was right — bullish when the price rose, bearish when it fell, neutral when it moved less
 * than 0.5 % either way. An entry price that is not a positive number gives 0 % and not correct.
 */
export function evaluateOutcome(
  signal: Direction,
  entry: number,
  exit: number,
): { pctChange: number; wasCorrect: boolean } {
  if (!(entry > 0) || !Number.isFinite(entry) || !Number.isFinite(exit)) {
    return { pctChange: 0, wasCorrect: false };
  }
  const pctChange = ((exit - entry) / entry) * 100;
  const wasCorrect = signal === "bullish"
    ? exit > entry
    : signal === "bearish"
    ? exit < entry
    : Math.abs(pctChange) < NEUTRAL_BAND_PCT;
  return { pctChange, wasCorrect };
}

// ---------------------------------------------------------------------------------------------
// Dashboard Trading Signals card
// ---------------------------------------------------------------------------------------------

export type OverallDirection = "buy" | "sell" | "neutral";

/** The card's labels (spec section 9). */
export const STRATEGY_LABELS: Readonly<Record<StrategyId, string>> = {
  rsi: "RSI",
  macd: "MACD",
  volume_surge: "Volume",
  ema_cross: "EMA Cross",
  bollinger: "Bollinger",
};

/** Names the spec's client-visible Signal uses for two of the strategies. */
const STRATEGY_ALIASES: Readonly<Record<string, StrategyId>> = {
  ema_crossover: "ema_cross",
  bollinger_squeeze: "bollinger",
};

/** The label of a strategy id, also for the spec's aliases; an unknown id is shown as it is. */
export function strategyLabel(strategy: string): string {
  const id = STRATEGY_ALIASES[strategy] ?? strategy;
  return (STRATEGY_LABELS as Readonly<Record<string, string>>)[id] ?? strategy;
}

function isBuy(direction: string): boolean {
  return direction === "buy" || direction === "bullish";
}

function isSell(direction: string): boolean {
  return direction === "sell" || direction === "bearish";
}

/**
 * The spec's overall direction of a symbol (section 4): buy when there are more buy (bullish)
 * than sell (bearish) signals, sell when more sell than buy, otherwise neutral. Accepts plain
 * directions or rows with a `signal` field, in either vocabulary.
 */
export function overallDirection(
  signals: readonly (string | { signal: string })[],
): OverallDirection {
  let buys = 0;
  let sells = 0;
  for (const s of signals) {
    const direction = typeof s === "string" ? s : s.signal;
    if (isBuy(direction)) buys++;
    else if (isSell(direction)) sells++;
  }
  return buys > sells ? "buy" : sells > buys ? "sell" : "neutral";
}

export type SignalRow = {
  symbol: string;
  strategy: string;
  signal: string;
  /** 0..1; numeric columns may arrive as strings. */
  confidence: number | string;
};

export type SignalBadge = { strategy: string; label: string; signal: string };

export type SymbolSignalSummary = {
  symbol: string;
  direction: OverallDirection;
  /** Mean confidence of the symbol's signals as a whole percent (0–100). */
  avgConfidencePct: number;
  /** At most `maxBadges`. */
  badges: SignalBadge[];
  /** How many signals (one per strategy) the summary is based on. */
  signalCount: number;
};

export const SUMMARY_MAX_SYMBOLS = 10;
export const SUMMARY_MAX_BADGES = 4;

/**
 * The Trading Signals card (spec section 9): the first 10 symbols in the order the rows list
 * them (pass them newest first), each with at most 4 strategy badges, the average confidence
 * as a percent and the overall direction. A symbol's strategy counts once, by its first row,
 * so an older repeat of the same strategy neither adds a badge nor tips the direction. The
 * direction and the average use all of the symbol's strategies, not only the badges shown.
 */
export function summarizeSignals(
  rows: readonly SignalRow[],
  opts: { maxSymbols?: number; maxBadges?: number } = {},
): SymbolSignalSummary[] {
  const maxSymbols = opts.maxSymbols ?? SUMMARY_MAX_SYMBOLS;
  const maxBadges = opts.maxBadges ?? SUMMARY_MAX_BADGES;
  const bySymbol = new Map<string, SignalRow[]>();
  for (const row of rows) {
    let list = bySymbol.get(row.symbol);
    if (!list) {
      if (bySymbol.size >= maxSymbols) continue;
      list = [];
      bySymbol.set(row.symbol, list);
    }
    const strategy = STRATEGY_ALIASES[row.strategy] ?? row.strategy;
    if (!list.some((r) => (STRATEGY_ALIASES[r.strategy] ?? r.strategy) === strategy)) {
      list.push(row);
    }
  }
  return [...bySymbol].map(([symbol, list]) => {
    const confidences = list.map((r) => Number(r.confidence)).filter(Number.isFinite);
    const average = confidences.length === 0
      ? 0
      : confidences.reduce((a, b) => a + b, 0) / confidences.length;
    return {
      symbol,
      direction: overallDirection(list),
      avgConfidencePct: Math.round(clamp01(average) * 100),
      badges: list.slice(0, Math.max(0, maxBadges)).map((r) => ({
        strategy: r.strategy,
        label: strategyLabel(r.strategy),
        signal: r.signal,
      })),
      signalCount: list.length,
    };
  });
}

// ---------------------------------------------------------------------------------------------

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/** Indicator values keep 8 significant digits (prices of small tokens are tiny). */
function round8(value: number | null | undefined): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  return Number(value.toPrecision(8));
}
