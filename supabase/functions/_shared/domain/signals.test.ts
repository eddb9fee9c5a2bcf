import { describe, expect, it } from "vitest";
import type { Candle } from "./candles.ts";
import { ema, macd } from "./indicators.ts";
import {
  computeSignals,
  confidenceTier,
  evaluateOutcome,
  overallDirection,
  type Signal,
  type SignalRow,
  STRATEGY_IDS,
  STRATEGY_LABELS,
  type StrategyId,
  strategyLabel,
  summarizeSignals,
} from "./signals.ts";

const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const FIVE_MIN = 5 * 60_000;

/** 5-minute candles from closes: each opens at the previous close; volume 100 unless given. */
function candles(closes: readonly number[], volume: (i: number) => number = () => 100): Candle[] {
  return closes.map((close, i) => {
    const open = i === 0 ? close : closes[i - 1];
    return {
      start: T0 + i * FIVE_MIN,
      open,
      high: Math.max(open, close),
      low: Math.min(open, close),
      close,
      volume: volume(i),
      count: 5,
    };
  });
}

function signalOf(list: Signal[], strategy: StrategyId): Signal | undefined {
  return list.find((s) => s.strategy === strategy);
}

const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe("confidenceTier", () => {
  it("is low below 0.4, medium below 0.7, high from 0.7", () => {
    expect(confidenceTier(0)).toBe("low");
    expect(confidenceTier(0.399)).toBe("low");
    expect(confidenceTier(0.4)).toBe("medium");
    expect(confidenceTier(0.699)).toBe("medium");
    expect(confidenceTier(0.7)).toBe("high");
    expect(confidenceTier(1)).toBe("high");
  });
});

describe("computeSignals", () => {
  it("gives one signal per strategy that has enough candles, in a fixed order", () => {
    const strategies = (n: number) =>
      computeSignals(candles(range(n, (i) => 100 + Math.sin(i)))).map((s) => s.strategy);
    expect(strategies(0)).toEqual([]);
    expect(strategies(14)).toEqual([]);
    expect(strategies(15)).toEqual(["rsi"]);
    expect(strategies(20)).toEqual(["rsi"]);
    expect(strategies(21)).toEqual(["rsi", "volume_surge"]);
    expect(strategies(22)).toEqual(["rsi", "ema_cross", "volume_surge"]);
    expect(strategies(29)).toEqual(["rsi", "ema_cross", "volume_surge"]);
    expect(strategies(30)).toEqual(["rsi", "ema_cross", "bollinger", "volume_surge"]);
    expect(strategies(34)).toEqual(["rsi", "ema_cross", "bollinger", "volume_surge"]);
    expect(strategies(35)).toEqual([...STRATEGY_IDS]);
  });

  it("keeps confidences in 0..1 with a matching tier and storable indicator values", () => {
    const list = computeSignals(candles(range(40, (i) => 100 + 3 * Math.sin(i / 3) + i * 0.1)));
    for (const s of list) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
      expect(s.tier).toBe(confidenceTier(s.confidence));
      expect(JSON.parse(JSON.stringify(s.indicatorValues))).toEqual(s.indicatorValues);
    }
  });

  describe("rsi", () => {
    it("calls an oversold market (RSI < 30) bullish", () => {
      const s = signalOf(computeSignals(candles(range(20, (i) => 100 - i))), "rsi")!;
      expect(s).toMatchObject({ signal: "bullish", confidence: 1, tier: "high" });
      expect(s.indicatorValues.rsi).toBe(0);
    });

    it("calls an overbought market (RSI > 70) bearish", () => {
      const s = signalOf(computeSignals(candles(range(20, (i) => 100 + i))), "rsi")!;
      expect(s).toMatchObject({ signal: "bearish", confidence: 1, tier: "high" });
    });

    it("is neutral in between, with confidence growing with the distance from 50", () => {
      const s = signalOf(
        computeSignals(candles(range(20, (i) => 100 + (i % 2) * 0.5 + i * 0.02))),
        "rsi",
      )!;
      const value = s.indicatorValues.rsi as number;
      expect(value).toBeGreaterThan(30);
      expect(value).toBeLessThan(70);
      expect(s.signal).toBe("neutral");
      expect(s.confidence).toBeCloseTo(Math.abs(value - 50) / 50, 3);
      expect(s.tier).toBe("low");
    });
  });

  describe("macd", () => {
    // An accelerating fall keeps the histogram below zero; one jump turns it positive.
    const falling = range(39, (i) => 100 - 0.05 * i - 0.002 * i * i);
    const rising = range(39, (i) => 100 + 0.05 * i + 0.002 * i * i);

    it("is bullish when the MACD line crosses above its signal line on the last candle", () => {
      const closes = [...falling, falling[38] + 3];
      const { histogram } = macd(closes);
      expect(histogram[38]).toBeLessThan(0);
      expect(histogram[39]).toBeGreaterThan(0);
      const s = signalOf(computeSignals(candles(closes)), "macd")!;
      expect(s.signal).toBe("bullish");
      expect(s.confidence).toBeGreaterThanOrEqual(0.6);
      expect(s.indicatorValues.histogram).toBeGreaterThan(0);
    });

    it("is bearish when it crosses below", () => {
      const closes = [...rising, rising[38] - 3];
      const s = signalOf(computeSignals(candles(closes)), "macd")!;
      expect(s.signal).toBe("bearish");
      expect(s.confidence).toBeGreaterThanOrEqual(0.6);
    });

    it("still counts a cross one candle earlier, with less confidence", () => {
      const crossed = [...falling, falling[38] + 3];
      const later = [...crossed, crossed[39] + 0.5];
      expect(macd(later).histogram[40]).toBeGreaterThan(0);
      const s = signalOf(computeSignals(candles(later)), "macd")!;
      expect(s.signal).toBe("bullish");
      expect(s.confidence).toBeLessThanOrEqual(0.8);
    });

    it("without a cross follows the histogram's sign with low confidence", () => {
      const s = signalOf(computeSignals(candles(rising.concat(rising[38] + 0.5))), "macd")!;
      expect(s.signal).toBe("bullish");
      expect(s.tier).toBe("low");
      const flat = signalOf(computeSignals(candles(range(40, () => 100))), "macd")!;
      expect(flat).toMatchObject({ signal: "neutral", tier: "low" });
    });
  });

  describe("ema_cross", () => {
    const decline = range(30, (i) => 100 - 0.1 * i);
    const climb = range(30, (i) => 100 + 0.1 * i);
    const step = (base: number[], delta: number, n: number) => {
      const out = [...base];
      for (let k = 0; k < n; k++) out.push(out[out.length - 1] + delta);
      return out;
    };
    const spreadAt = (closes: number[], i: number) =>
      (ema(closes, 9)[i] as number) - (ema(closes, 21)[i] as number);

    it("is bullish when EMA(9) crosses above EMA(21)", () => {
      const closes = step(decline, 0.8, 4);
      expect(spreadAt(closes, closes.length - 2)).toBeLessThan(0);
      expect(spreadAt(closes, closes.length - 1)).toBeGreaterThan(0);
      const s = signalOf(computeSignals(candles(closes)), "ema_cross")!;
      expect(s.signal).toBe("bullish");
      expect(s.confidence).toBeGreaterThanOrEqual(0.6);
      expect(s.indicatorValues.emaFast).toBeGreaterThan(s.indicatorValues.emaSlow as number);
    });

    it("is bearish when it crosses below", () => {
      const closes = step(climb, -0.8, 4);
      expect(spreadAt(closes, closes.length - 2)).toBeGreaterThan(0);
      const s = signalOf(computeSignals(candles(closes)), "ema_cross")!;
      expect(s.signal).toBe("bearish");
    });

    it("forgets a cross after two candles", () => {
      const closes = step(decline, 0.8, 4);
      expect(signalOf(computeSignals(candles(step(closes, 0.1, 1))), "ema_cross")!.signal).toBe(
        "bullish",
      );
      const s = signalOf(computeSignals(candles(step(closes, 0.1, 2))), "ema_cross")!;
      expect(s).toMatchObject({ signal: "neutral", confidence: 0.2, tier: "low" });
    });
  });

  describe("bollinger", () => {
    // 20 lively candles, then 19 quiet ones: the bands narrow to their tightest.
    const squeezed = [
      ...range(20, (i) => 100 + (i % 2 ? 2 : -2)),
      ...range(19, (i) => 100 + (i % 2 ? 0.01 : -0.01)),
    ];

    it("calls a breakout above the upper band after a squeeze bullish", () => {
      const s = signalOf(computeSignals(candles([...squeezed, 103])), "bollinger")!;
      expect(s).toMatchObject({ signal: "bullish", tier: "high" });
      expect(s.indicatorValues.squeeze).toBe(1);
      expect(103).toBeGreaterThan(s.indicatorValues.upper as number);
    });

    it("calls a breakdown below the lower band after a squeeze bearish", () => {
      const s = signalOf(computeSignals(candles([...squeezed, 97])), "bollinger")!;
      expect(s).toMatchObject({ signal: "bearish", tier: "high" });
    });

    it("stays neutral during a squeeze without a breakout", () => {
      const s = signalOf(computeSignals(candles([...squeezed, 100])), "bollinger")!;
      expect(s).toMatchObject({ signal: "neutral", confidence: 0.2 });
      expect(s.indicatorValues.squeeze).toBe(1);
    });

    it("ignores a move beyond the band when the bands were not squeezed", () => {
      // Swings that grow every candle: the bandwidth keeps widening.
      const widening = range(39, (i) => 100 + (i % 2 ? 1 : -1) * (0.1 + 0.1 * i));
      const s = signalOf(computeSignals(candles([...widening, 130])), "bollinger")!;
      expect(s.indicatorValues.squeeze).toBe(0);
      expect(130).toBeGreaterThan(s.indicatorValues.upper as number);
      expect(s.signal).toBe("neutral");
    });
  });

  describe("volume_surge", () => {
    const flat = range(25, () => 100);
    const withLast = (close: number, lastVolume: number) =>
      candles([...flat.slice(0, 24), close], (i) => (i === 24 ? lastVolume : 100));

    it("takes the direction of a candle with at least twice the average volume", () => {
      const up = signalOf(computeSignals(withLast(101, 300)), "volume_surge")!;
      expect(up).toMatchObject({ signal: "bullish", tier: "medium" });
      expect(up.confidence).toBeCloseTo(0.5 + 0.4 / 3, 3);
      expect(up.indicatorValues).toMatchObject({ volume: 300, averageVolume: 100, ratio: 3 });
      expect(signalOf(computeSignals(withLast(99, 200)), "volume_surge")).toMatchObject({
        signal: "bearish",
        confidence: 0.5,
      });
      expect(signalOf(computeSignals(withLast(100, 200)), "volume_surge")!.signal).toBe("neutral");
    });

    it("reaches high confidence at five times the average", () => {
      expect(signalOf(computeSignals(withLast(101, 500)), "volume_surge")).toMatchObject({
        confidence: 0.9,
        tier: "high",
      });
      expect(signalOf(computeSignals(withLast(101, 5000)), "volume_surge")!.confidence).toBe(0.9);
    });

    it("is neutral below twice the average and absent without volume data", () => {
      expect(signalOf(computeSignals(withLast(101, 199)), "volume_surge")).toMatchObject({
        signal: "neutral",
        confidence: 0.2,
      });
      const noVolume = candles([...flat.slice(0, 24), 101], () => 0);
      expect(signalOf(computeSignals(noVolume), "volume_surge")).toBeUndefined();
    });
  });
});

describe("evaluateOutcome", () => {
  it("judges bullish by a rise, bearish by a fall, neutral by staying within 0.5 %", () => {
    expect(evaluateOutcome("bullish", 100, 101)).toEqual({ pctChange: 1, wasCorrect: true });
    expect(evaluateOutcome("bullish", 100, 100)).toEqual({ pctChange: 0, wasCorrect: false });
    expect(evaluateOutcome("bearish", 100, 98)).toEqual({ pctChange: -2, wasCorrect: true });
    expect(evaluateOutcome("bearish", 100, 100.1).wasCorrect).toBe(false);
    expect(evaluateOutcome("neutral", 100, 100.49).wasCorrect).toBe(true);
    expect(evaluateOutcome("neutral", 100, 99.51).wasCorrect).toBe(true);
    expect(evaluateOutcome("neutral", 100, 100.5).wasCorrect).toBe(false);
    expect(evaluateOutcome("neutral", 100, 99)).toEqual({ pctChange: -1, wasCorrect: false });
  });

  it("does not divide by a missing entry price", () => {
    expect(evaluateOutcome("neutral", 0, 1)).toEqual({ pctChange: 0, wasCorrect: false });
    expect(evaluateOutcome("bullish", Number.NaN, 1)).toEqual({ pctChange: 0, wasCorrect: false });
  });
});

describe("overallDirection", () => {
  it("is buy with more buy than sell signals, sell with more sell, else neutral", () => {
    expect(overallDirection(["buy", "buy", "sell"])).toBe("buy");
    expect(overallDirection(["buy", "sell", "sell", "other"])).toBe("sell");
    expect(overallDirection(["buy", "sell"])).toBe("neutral");
    expect(overallDirection(["neutral", "other"])).toBe("neutral");
    expect(overallDirection([])).toBe("neutral");
  });

  it("reads the stored vocabulary and rows too", () => {
    expect(overallDirection(["bullish", "neutral", "neutral"])).toBe("buy");
    expect(overallDirection([{ signal: "bearish" }, { signal: "bullish" }, { signal: "sell" }]))
      .toBe(
        "sell",
      );
  });
});

describe("strategy labels", () => {
  it("uses the spec's labels", () => {
    expect(STRATEGY_LABELS).toEqual({
      rsi: "RSI",
      macd: "MACD",
      volume_surge: "Volume",
      ema_cross: "EMA Cross",
      bollinger: "Bollinger",
    });
  });

  it("also labels the spec's alias names and passes unknown ones through", () => {
    expect(strategyLabel("ema_crossover")).toBe("EMA Cross");
    expect(strategyLabel("bollinger_squeeze")).toBe("Bollinger");
    expect(strategyLabel("volume_surge")).toBe("Volume");
    expect(strategyLabel("ichimoku")).toBe("ichimoku");
  });
});

describe("summarizeSignals", () => {
  const row = (symbol: string, strategy: string, signal: string, confidence: number | string) =>
    ({ symbol, strategy, signal, confidence }) satisfies SignalRow;

  it("keeps the first 10 symbols in the order given", () => {
    const rows = range(12, (i) => row(`S${i}`, "rsi", "bullish", 0.5));
    const summary = summarizeSignals(rows);
    expect(summary.map((s) => s.symbol)).toEqual(range(10, (i) => `S${i}`));
    // A later row of a listed symbol still counts.
    const more = summarizeSignals([...rows, row("S0", "macd", "bullish", 0.9)]);
    expect(more[0].signalCount).toBe(2);
  });

  it("shows at most 4 badges but judges on all of a symbol's strategies", () => {
    const rows = [
      row("BTC/USDT", "rsi", "bearish", 0.2),
      row("BTC/USDT", "macd", "bearish", 0.4),
      row("BTC/USDT", "ema_cross", "bullish", 0.6),
      row("BTC/USDT", "bollinger", "bullish", 0.8),
      row("BTC/USDT", "volume_surge", "bullish", 1),
    ];
    const [btc] = summarizeSignals(rows);
    expect(btc.badges).toEqual([
      { strategy: "rsi", label: "RSI", signal: "bearish" },
      { strategy: "macd", label: "MACD", signal: "bearish" },
      { strategy: "ema_cross", label: "EMA Cross", signal: "bullish" },
      { strategy: "bollinger", label: "Bollinger", signal: "bullish" },
    ]);
    expect(btc.signalCount).toBe(5);
    expect(btc.direction).toBe("buy");
    expect(btc.avgConfidencePct).toBe(60);
  });

  it("counts a strategy once per symbol, by its first (newest) row", () => {
    const rows = [
      row("ETH/USDT", "rsi", "bearish", "0.45"),
      row("ETH/USDT", "rsi", "bullish", 0.9),
      row("ETH/USDT", "rsi", "bullish", 0.9),
      row("ETH/USDT", "macd", "neutral", 0.25),
    ];
    const [eth] = summarizeSignals(rows);
    expect(eth.badges.map((b) => b.strategy)).toEqual(["rsi", "macd"]);
    expect(eth.direction).toBe("sell");
    expect(eth.avgConfidencePct).toBe(35);
  });

  it("takes other limits", () => {
    const rows = [
      row("A", "rsi", "buy", 0.5),
      row("A", "macd", "buy", 0.5),
      row("B", "rsi", "sell", 1),
    ];
    const summary = summarizeSignals(rows, { maxSymbols: 1, maxBadges: 1 });
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ symbol: "A", direction: "buy", signalCount: 2 });
    expect(summary[0].badges).toHaveLength(1);
    expect(summarizeSignals([])).toEqual([]);
  });
});
