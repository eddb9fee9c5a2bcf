import { describe, expect, it } from "vitest";
import { type Analysis, computeAnalysis, liquidityOf, riskScoreOf, riskText } from "./analysis.ts";
import type { PricePoint } from "./candles.ts";

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const MIN = 60_000;

/** One sample a minute for `n` minutes. */
function series(n: number, price: (minute: number) => number): PricePoint[] {
  return Array.from({ length: n }, (_, i) => ({ ts: T0 + i * MIN, price: price(i) }));
}

/** Deterministic pseudo-random numbers in [0, 1) (a linear congruential generator). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const THREE_HOURS = 181; // minutes 0..180

describe("computeAnalysis", () => {
  it("reads a steady uptrend as bullish with high confidence and low risk", () => {
    // +1 % an hour, compounded.
    const analysis = computeAnalysis(
      series(THREE_HOURS, (m) => 100 * Math.exp((0.01 * m) / 60)),
      { volume24h: 5_000_000 },
    );
    expect(analysis).toEqual<Analysis>({
      trend: "bullish",
      forecast: "up",
      forecastPct: 1.01, // e^0.01 − 1, R² = 1
      confidence: 100,
      riskScore: 5,
      momentum: "strong", // RSI 100
      volatility: "low",
      liquidityScore: "good",
      dataPoints: 181,
      timeframe: "3h",
    });
  });

  it("still sees a noisy uptrend", () => {
    const noise = random(42);
    const analysis = computeAnalysis(
      series(THREE_HOURS, (m) => 100 * Math.exp((0.02 * m) / 60) * (1 + 0.004 * (noise() - 0.5))),
    );
    expect(analysis?.trend).toBe("bullish");
    expect(analysis?.forecast).toBe("up");
    expect(analysis?.forecastPct).toBeGreaterThan(1.5);
    expect(analysis?.confidence).toBeGreaterThanOrEqual(90);
  });

  it("reads flat noise as neutral and sideways with low confidence", () => {
    const noise = random(7);
    const analysis = computeAnalysis(
      series(THREE_HOURS, () => 100 * (1 + 0.002 * (noise() - 0.5))),
      { volume24h: 5_000_000 },
    );
    expect(analysis).toMatchObject({
      trend: "neutral",
      forecast: "sideways",
      momentum: "weak",
      volatility: "low",
    });
    expect(Math.abs(analysis!.forecastPct)).toBeLessThan(0.25);
    expect(analysis!.confidence).toBeLessThan(20);
    expect(analysis!.riskScore).toBe(4); // low confidence costs one star
  });

  it("reads a crash as bearish with a falling forecast", () => {
    // Flat for two hours, then −0.4 % a minute.
    const analysis = computeAnalysis(
      series(THREE_HOURS, (m) => (m < 120 ? 100 : 100 * (1 - 0.004 * (m - 120)))),
    );
    expect(analysis).toMatchObject({ trend: "bearish", forecast: "down", momentum: "strong" });
    expect(analysis!.forecastPct).toBeLessThan(-1);
  });

  it("rates a violent pump as highly volatile and riskier", () => {
    const analysis = computeAnalysis(
      series(THREE_HOURS, (m) => (m < 150 ? 100 : 100 * (1 + 0.01 * (m - 150)))),
      { volume24h: 5_000_000 },
    );
    expect(analysis).toMatchObject({ trend: "bullish", volatility: "high" });
    expect(analysis!.riskScore).toBeLessThanOrEqual(3);
  });

  it("returns null without enough samples or time", () => {
    expect(computeAnalysis([])).toBeNull();
    // 9 samples over 40 minutes: too few.
    expect(computeAnalysis(series(9, () => 1).map((p, i) => ({ ...p, ts: T0 + i * 5 * MIN }))))
      .toBeNull();
    // 30 samples over 29 minutes: too short.
    expect(computeAnalysis(series(30, (m) => 100 + m))).toBeNull();
    // Unusable samples do not count.
    expect(computeAnalysis(series(40, () => Number.NaN))).toBeNull();
  });

  it("analyses 30 minutes of data and names the span", () => {
    const analysis = computeAnalysis(series(31, (m) => 100 + m * 0.01));
    expect(analysis).not.toBeNull();
    expect(analysis!.timeframe).toBe("30m");
    expect(analysis!.dataPoints).toBe(31);
    // Only 30 of 180 minutes covered: the same perfect fit earns less confidence.
    expect(analysis!.confidence).toBeLessThan(70);
    expect(computeAnalysis(series(151, (m) => 100 + m * 0.01))!.timeframe).toBe("2h30m");
  });

  it("looks only at the 3 hours before `now` (default: the newest sample)", () => {
    const points = series(300, (m) => 100 + m * 0.01); // 5 hours
    expect(computeAnalysis(points)!.dataPoints).toBe(181);
    // An hour earlier: samples after `now` are ignored.
    const earlier = computeAnalysis(points, { now: T0 + 239 * MIN });
    expect(earlier!.dataPoints).toBe(181);
    // Long after the last sample: only its last 30 minutes are within 3 hours.
    expect(computeAnalysis(points, { now: T0 + (299 + 150) * MIN })!.timeframe).toBe("30m");
    expect(computeAnalysis(points, { now: T0 + (299 + 160) * MIN })).toBeNull();
  });

  it("does not depend on the order of the samples", () => {
    const noise = random(3);
    const points = series(120, (m) => 50 + m * 0.02 + noise());
    expect(computeAnalysis([...points].reverse())).toEqual(computeAnalysis(points));
  });

  it("keeps its numbers in range", () => {
    const noise = random(11);
    for (let k = 0; k < 20; k++) {
      const drift = (noise() - 0.5) * 0.1;
      const a = computeAnalysis(
        series(THREE_HOURS, (m) => 10 * Math.exp(drift * m) * (1 + 0.05 * (noise() - 0.5))),
        { volume24h: noise() * 2_000_000 },
      )!;
      expect(a.confidence).toBeGreaterThanOrEqual(0);
      expect(a.confidence).toBeLessThanOrEqual(100);
      expect(Number.isInteger(a.confidence)).toBe(true);
      expect([1, 2, 3, 4, 5]).toContain(a.riskScore);
      expect(Number.isFinite(a.forecastPct)).toBe(true);
    }
  });
});

describe("liquidityOf", () => {
  it("uses 1M and 100k USD of 24-hour volume; unknown is medium", () => {
    expect(liquidityOf(1_000_000)).toBe("good");
    expect(liquidityOf(999_999)).toBe("medium");
    expect(liquidityOf(100_000)).toBe("medium");
    expect(liquidityOf(99_999)).toBe("poor");
    expect(liquidityOf(0)).toBe("poor");
    expect(liquidityOf(null)).toBe("medium");
    expect(liquidityOf(undefined)).toBe("medium");
    expect(liquidityOf(Number.NaN)).toBe("medium");
  });

  it("reaches the analysis", () => {
    const points = series(60, (m) => 100 + m * 0.01);
    expect(computeAnalysis(points, { volume24h: 50_000 })!.liquidityScore).toBe("poor");
    expect(computeAnalysis(points)!.liquidityScore).toBe("medium");
  });
});

describe("riskScoreOf", () => {
  it("starts at 5 (lowest risk) and loses stars for volatility, thin liquidity and doubt", () => {
    expect(riskScoreOf("low", "good", 80)).toBe(5);
    expect(riskScoreOf("medium", "good", 80)).toBe(4);
    expect(riskScoreOf("high", "good", 80)).toBe(3);
    expect(riskScoreOf("low", "medium", 80)).toBe(4);
    expect(riskScoreOf("low", "poor", 80)).toBe(3);
    expect(riskScoreOf("low", "good", 39)).toBe(4);
    expect(riskScoreOf("low", "good", 40)).toBe(5);
    expect(riskScoreOf("high", "poor", 10)).toBe(1);
  });
});

describe("riskText", () => {
  it("follows the spec: 4 or more low, 3 or more medium, otherwise high", () => {
    expect(riskText(5)).toBe("low");
    expect(riskText(4)).toBe("low");
    expect(riskText(3)).toBe("medium");
    expect(riskText(3.5)).toBe("medium");
    expect(riskText(2)).toBe("high");
    expect(riskText(1)).toBe("high");
  });
});
