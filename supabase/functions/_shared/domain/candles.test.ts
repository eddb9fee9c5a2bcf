import { describe, expect, it } from "vitest";
import {
  type Candle,
  candleColor,
  estimateIntervalVolumes,
  formatChartPrice,
  type PricePoint,
  timeTicks,
  toCandles,
  withLiveQuote,
} from "./candles.ts";

const T0 = Date.UTC(2026, 10, 21, 12, 0, 0); // 12:00:00 UTC, a multiple of 5 minutes
const MIN = 60_000;

describe("toCandles", () => {
  it("groups samples into 5-minute buckets aligned to the clock and omits empty buckets", () => {
    const points: PricePoint[] = [
      { ts: T0 + 30_000, price: 10 }, // 12:00:30
      { ts: T0 + 2 * MIN, price: 12 },
      { ts: T0 + 3 * MIN, price: 9 },
      { ts: T0 + 5 * MIN - 1, price: 11 }, // 12:04:59.999, still the 12:00 candle
      { ts: T0 + 5 * MIN, price: 11.5 }, // 12:05 opens the next one
      { ts: T0 + 16 * MIN, price: 13 }, // 12:16, the 12:10 candle is empty
    ];
    expect(toCandles(points)).toEqual([
      { start: T0, open: 10, high: 12, low: 9, close: 11, volume: 0, count: 4 },
      { start: T0 + 5 * MIN, open: 11.5, high: 11.5, low: 11.5, close: 11.5, volume: 0, count: 1 },
      { start: T0 + 15 * MIN, open: 13, high: 13, low: 13, close: 13, volume: 0, count: 1 },
    ]);
  });

  it("accepts unsorted input, ISO strings and epoch milliseconds alike", () => {
    const sorted: PricePoint[] = [
      { ts: T0, price: 1 },
      { ts: T0 + MIN, price: 3 },
      { ts: T0 + 2 * MIN, price: 2 },
      { ts: T0 + 6 * MIN, price: 4 },
    ];
    const shuffled: PricePoint[] = [
      { ts: new Date(T0 + 6 * MIN).toISOString(), price: 4 },
      { ts: T0 + 2 * MIN, price: 2 },
      { ts: new Date(T0).toISOString(), price: 1 },
      { ts: "2026-11-21T13:01:00+01:00", price: 3 }, // = T0 + 1 min
    ];
    expect(toCandles(shuffled)).toEqual(toCandles(sorted));
    expect(toCandles(sorted)[0]).toMatchObject({ open: 1, high: 3, low: 1, close: 2 });
  });

  it("keeps the input order for equal timestamps: the later one is the close", () => {
    const candles = toCandles([
      { ts: T0 + MIN, price: 5 },
      { ts: T0, price: 4 },
      { ts: T0 + MIN, price: 6 },
    ]);
    expect(candles).toHaveLength(1);
    expect(candles[0]).toMatchObject({ open: 4, close: 6, high: 6, low: 4, count: 3 });
  });

  it("adds up volumes per bucket and drops unusable samples", () => {
    const candles = toCandles([
      { ts: T0, price: 2, volume: 10 },
      { ts: T0 + MIN, price: 3, volume: null },
      { ts: T0 + 2 * MIN, price: 4, volume: 5 },
      { ts: "not a date", price: 100 },
      { ts: T0 + 3 * MIN, price: Number.NaN },
      { ts: T0 + 3 * MIN, price: 0 },
      { ts: T0 + 3 * MIN, price: -1 },
      { ts: T0 + 4 * MIN, price: 1, volume: Number.POSITIVE_INFINITY },
    ]);
    expect(candles).toEqual([{
      start: T0,
      open: 2,
      high: 4,
      low: 1,
      close: 1,
      volume: 15,
      count: 4,
    }]);
  });

  it("takes another bucket length and refuses a non-positive one", () => {
    const points = [0, 1, 2].map((m) => ({ ts: T0 + m * MIN + 1000, price: m + 1 }));
    expect(toCandles(points, MIN).map((c) => c.start)).toEqual([T0, T0 + MIN, T0 + 2 * MIN]);
    expect(() => toCandles(points, 0)).toThrow(RangeError);
  });

  it("returns no candles for no usable samples", () => {
    expect(toCandles([])).toEqual([]);
    expect(toCandles([{ ts: "x", price: 1 }])).toEqual([]);
  });
});

describe("estimateIntervalVolumes", () => {
  it("turns rolling 24-hour totals into what traded since the previous sample", () => {
    const out = estimateIntervalVolumes([
      { ts: T0 + 5 * MIN, price: 2, volume: 1010 },
      { ts: T0, price: 1, volume: 1000 },
      { ts: T0 + 10 * MIN, price: 3, volume: 900 }, // total fell by more than its average rate
      { ts: T0 + 15 * MIN, price: 3, volume: null },
    ]);
    expect(out.map((p) => p.ts)).toEqual([T0, T0 + 5 * MIN, T0 + 10 * MIN, T0 + 15 * MIN]);
    expect(out[0].volume).toBeNull();
    // rise 10 + what left the window meanwhile, 1010 × 5 min / 24 h
    expect(out[1].volume).toBeCloseTo(10 + (1010 * 5) / 1440, 10);
    expect(out[2].volume).toBe(0);
    expect(out[3].volume).toBeNull();
  });

  it("feeds toCandles with per-bucket volumes", () => {
    const points = [0, 1, 2, 3].map((m) => ({
      ts: T0 + m * 5 * MIN,
      price: 1,
      volume: 1440 * (m + 1),
    }));
    const candles = toCandles(estimateIntervalVolumes(points));
    // each step: a rise of 1440 plus total × 5 min / 24 h (2880 → 10, 4320 → 15, 5760 → 20)
    expect(candles.map((c) => c.volume)).toEqual([0, 1450, 1455, 1460]);
  });
});

describe("candleColor", () => {
  it("is up when the close is at or above the open, else down", () => {
    expect(candleColor({ open: 1, close: 2 })).toBe("up");
    expect(candleColor({ open: 1, close: 1 })).toBe("up");
    expect(candleColor({ open: 2, close: 1.999999 })).toBe("down");
  });
});

describe("timeTicks", () => {
  const candles = (n: number): Candle[] =>
    Array.from({ length: n }, (_, i) => ({
      start: T0 + i * 5 * MIN,
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      volume: 0,
      count: 1,
    }));

  it("gives one tick per candle up to 8", () => {
    expect(timeTicks(candles(0))).toEqual([]);
    expect(timeTicks(candles(5))).toEqual(candles(5).map((c) => c.start));
    expect(timeTicks(candles(8))).toHaveLength(8);
  });

  it("spreads at most 8 ticks evenly from the first to the last candle", () => {
    const list = candles(36); // 3 hours
    const ticks = timeTicks(list);
    expect(ticks).toHaveLength(8);
    expect(ticks[0]).toBe(list[0].start);
    expect(ticks[7]).toBe(list[35].start);
    const gaps = ticks.slice(1).map((t, i) => (t - ticks[i]) / (5 * MIN));
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeLessThanOrEqual(1);
    expect(new Set(ticks).size).toBe(8);
  });

  it("honours a smaller maximum", () => {
    const list = candles(10);
    expect(timeTicks(list, 3)).toEqual([list[0].start, list[5].start, list[9].start]);
    expect(timeTicks(list, 1)).toEqual([list[0].start]);
    expect(timeTicks(list, 0)).toEqual([]);
  });
});

describe("formatChartPrice", () => {
  it("shows exactly 6 decimals", () => {
    expect(formatChartPrice(1.5)).toBe("1.500000");
    expect(formatChartPrice(0.000123456789)).toBe("0.000123");
    expect(formatChartPrice(1234.5)).toBe("1,234.500000");
    expect(formatChartPrice(1234.5, "de")).toBe("1.234,500000");
  });

  it("shows a dash for a missing price", () => {
    expect(formatChartPrice(Number.NaN)).toBe("—");
  });
});

describe("withLiveQuote", () => {
  const T = Date.UTC(2026, 10, 21, 12, 0);
  const candles = toCandles([
    { ts: T, price: 10 },
    { ts: T + 60_000, price: 11 },
    { ts: T + 5 * 60_000, price: 12 },
  ]);

  it("moves the newest candle's close, high and low", () => {
    const up = withLiveQuote(candles, { ts: T + 7 * 60_000, price: 13 });
    expect(up).toHaveLength(2);
    expect(up[1]).toMatchObject({ start: T + 5 * 60_000, open: 12, close: 13, high: 13, low: 12 });
    const down = withLiveQuote(candles, { ts: new Date(T + 9 * 60_000).toISOString(), price: 9 });
    expect(down[1]).toMatchObject({ open: 12, close: 9, high: 12, low: 9 });
    expect(down[0]).toBe(candles[0]);
  });

  it("starts a new candle in a later bucket", () => {
    const next = withLiveQuote(candles, { ts: T + 16 * 60_000, price: 14 });
    expect(next).toHaveLength(3);
    expect(next[2]).toEqual({
      start: T + 15 * 60_000,
      open: 14,
      high: 14,
      low: 14,
      close: 14,
      volume: 0,
      count: 1,
    });
  });

  it("returns the same candles for old, unchanged or unusable quotes", () => {
    expect(withLiveQuote(candles, { ts: T + 2 * 60_000, price: 50 })).toBe(candles);
    expect(withLiveQuote(candles, { ts: T + 6 * 60_000, price: 12 })).toBe(candles);
    expect(withLiveQuote(candles, { ts: "not a time", price: 5 })).toBe(candles);
    expect(withLiveQuote(candles, { ts: T + 6 * 60_000, price: 0 })).toBe(candles);
    expect(withLiveQuote(candles, null)).toBe(candles);
    expect(withLiveQuote([], { ts: T, price: 1 })).toEqual([]);
  });
});
