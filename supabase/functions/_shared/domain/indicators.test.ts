import { describe, expect, it } from "vitest";
import {
  atr,
  bollinger,
  ema,
  lastValue,
  linearRegression,
  macd,
  mean,
  obv,
  rsi,
  type Series,
  sma,
  stddev,
  stochRsi,
  vwap,
} from "./indicators.ts";

/** |actual − expected| ≤ tolerance, with a readable failure. */
function expectNear(actual: number | null, expected: number, tolerance: number) {
  expect(actual).not.toBeNull();
  expect(Math.abs((actual as number) - expected)).toBeLessThanOrEqual(tolerance);
}

/** Published values are rounded to 2 decimals: the exact value must round to them. */
function expectRoundsTo(actual: number | null, expected: number) {
  expectNear(actual, expected, 0.005 + 1e-9);
}

// Wilder, New Concepts in Technical Trading Systems (1978), as reprinted in StockCharts'
// ChartSchool RSI table. The table's spreadsheet holds the closes to 4 decimals and shows them
// rounded to 2; the published RSI column is computed from the 4-decimal closes.
const WILDER_CLOSES = [
  44.3389,
  44.0902,
  44.1497,
  43.6124,
  44.3278,
  44.8264,
  45.0955,
  45.4245,
  45.8433,
  46.0826,
  45.8931,
  46.0328,
  45.614,
  46.282,
  46.282,
  46.0028,
  46.0328,
  46.4116,
  46.2222,
  45.6439,
  46.2122,
  46.2521,
  45.7137,
  46.4515,
  45.7835,
  45.3548,
  44.0288,
  44.1783,
  44.2181,
  44.5672,
  43.4205,
  42.6628,
  43.1314,
];
const WILDER_CLOSES_SHOWN = [
  44.34,
  44.09,
  44.15,
  43.61,
  44.33,
  44.83,
  45.1,
  45.42,
  45.84,
  46.08,
  45.89,
  46.03,
  45.61,
  46.28,
  46.28,
  46.0,
  46.03,
  46.41,
  46.22,
  45.64,
  46.21,
  46.25,
  45.71,
  46.45,
  45.78,
  45.35,
  44.03,
  44.18,
  44.22,
  44.57,
  43.42,
  42.66,
  43.13,
];
const WILDER_RSI_14 = [
  70.53,
  66.32,
  66.55,
  69.41,
  66.36,
  57.97,
  62.93,
  63.26,
  56.06,
  62.38,
  54.71,
  50.42,
  39.99,
  41.46,
  41.87,
  45.46,
  37.3,
  33.08,
  37.77,
];

// StockCharts ChartSchool "Moving Averages" spreadsheet: 10-day SMA and EMA.
const STOCKCHARTS_MA_CLOSES = [
  22.27,
  22.19,
  22.08,
  22.17,
  22.18,
  22.13,
  22.23,
  22.43,
  22.24,
  22.29,
  22.15,
  22.39,
  22.38,
  22.61,
  23.36,
  24.05,
  23.75,
  23.83,
  23.95,
  23.63,
  23.82,
  23.87,
  23.65,
  23.19,
  23.1,
  23.33,
  22.68,
  23.1,
  22.4,
  22.17,
];

// StockCharts ChartSchool "Bollinger Bands" spreadsheet: 20-day, 2 standard deviations.
const STOCKCHARTS_BB_CLOSES = [
  86.16,
  89.09,
  88.78,
  90.32,
  89.07,
  91.15,
  89.44,
  89.18,
  86.93,
  87.68,
  86.96,
  89.43,
  89.32,
  88.72,
  87.45,
  87.26,
  89.5,
  87.9,
  89.13,
  90.7,
  92.9,
  92.98,
  91.8,
  92.66,
  92.68,
  92.3,
  92.77,
  92.54,
  92.95,
  93.2,
  91.07,
  89.83,
  89.74,
  90.4,
  90.74,
  88.02,
  88.09,
  88.84,
  90.78,
  90.54,
  91.39,
  90.65,
];
// [middle, upper, lower] from index 19 on.
const STOCKCHARTS_BB: [number, number, number][] = [
  [88.71, 91.29, 86.12],
  [89.05, 91.95, 86.14],
  [89.24, 92.61, 85.87],
  [89.39, 92.93, 85.85],
  [89.51, 93.31, 85.7],
  [89.69, 93.73, 85.65],
  [89.75, 93.9, 85.59],
  [89.91, 94.27, 85.56],
  [90.08, 94.57, 85.6],
  [90.38, 94.79, 85.98],
  [90.66, 95.04, 86.27],
  [90.86, 94.91, 86.82],
  [90.88, 94.9, 86.87],
  [90.91, 94.9, 86.91],
  [90.99, 94.86, 87.12],
  [91.15, 94.67, 87.63],
  [91.19, 94.56, 87.83],
  [91.12, 94.68, 87.56],
  [91.17, 94.58, 87.76],
  [91.25, 94.53, 87.97],
  [91.24, 94.53, 87.95],
  [91.17, 94.37, 87.96],
  [91.05, 94.15, 87.95],
];

describe("mean and stddev", () => {
  it("use the population standard deviation unless asked for the sample one", () => {
    const values = [2, 4, 4, 4, 5, 5, 7, 9];
    expect(mean(values)).toBe(5);
    expect(stddev(values)).toBe(2);
    expect(stddev(values, { sample: true })).toBeCloseTo(Math.sqrt(32 / 7), 12);
  });

  it("are NaN without enough values", () => {
    expect(mean([])).toBeNaN();
    expect(stddev([])).toBeNaN();
    expect(stddev([3])).toBe(0);
    expect(stddev([3], { sample: true })).toBeNaN();
  });
});

describe("sma", () => {
  it("averages the last `period` values and is null before", () => {
    expect(sma([1, 2, 3, 4, 5], 3)).toEqual([null, null, 2, 3, 4]);
    expect(sma([1, 2], 3)).toEqual([null, null]);
  });

  it("matches the StockCharts 10-day example", () => {
    expect(sma(STOCKCHARTS_MA_CLOSES, 10)[9]).toBeCloseTo(22.221, 10);
  });

  it("refuses a period that is not a positive integer", () => {
    expect(() => sma([1, 2, 3], 0)).toThrow(RangeError);
    expect(() => ema([1, 2, 3], 1.5)).toThrow(RangeError);
  });
});

describe("ema", () => {
  it("is seeded with the SMA of the first `period` values, then uses 2 / (period + 1)", () => {
    // Seed (1+2+3)/3 = 2; each next close is 2 above the EMA, so it moves up by 2 × 0.5 = 1.
    expect(ema([1, 2, 3, 4, 5, 6], 3)).toEqual([null, null, 2, 3, 4, 5]);
    expect(ema([1, 2], 3)).toEqual([null, null]);
  });

  it("matches the StockCharts 10-day EMA example to 2 decimals", () => {
    const out = ema(STOCKCHARTS_MA_CLOSES, 10);
    expect(out[8]).toBeNull();
    expectRoundsTo(out[9], 22.22);
    expectRoundsTo(out[15], 22.8);
    expectRoundsTo(out[19], 23.34);
    expectRoundsTo(out[28], 23.08);
    expectRoundsTo(out[29], 22.92);
  });

  it("stays on a constant series", () => {
    expect(lastValue(ema(Array(40).fill(7), 9))).toBeCloseTo(7, 12);
  });
});

describe("rsi (Wilder)", () => {
  it("matches Wilder's published RSI(14) table to 2 decimals", () => {
    const out = rsi(WILDER_CLOSES, 14);
    expect(out).toHaveLength(WILDER_CLOSES.length);
    expect(out.slice(0, 14).every((v) => v === null)).toBe(true);
    WILDER_RSI_14.forEach((expected, k) => expectRoundsTo(out[14 + k], expected));
  });

  it("stays within 0.1 of the table when fed the 2-decimal closes the table displays", () => {
    const out = rsi(WILDER_CLOSES_SHOWN, 14);
    expectNear(out[14], 70.46, 0.005); // 0.2386 / 0.0996 instead of 0.24 / 0.10
    WILDER_RSI_14.forEach((expected, k) => expectNear(out[14 + k], expected, 0.1));
  });

  it("is 100 with only gains, 0 with only losses and 50 on a flat series", () => {
    const up = Array.from({ length: 20 }, (_, i) => 100 + i);
    const down = Array.from({ length: 20 }, (_, i) => 100 - i);
    expect(lastValue(rsi(up))).toBe(100);
    expect(lastValue(rsi(down))).toBe(0);
    expect(lastValue(rsi(Array(20).fill(5)))).toBe(50);
  });

  it("needs period + 1 closes", () => {
    expect(rsi(Array(14).fill(1)).every((v) => v === null)).toBe(true);
    expect(rsi(Array(15).fill(1))[14]).toBe(50);
  });
});

describe("macd", () => {
  it("matches a hand-computed small case (2/3/2)", () => {
    const { macd: line, signal, histogram } = macd([1, 2, 3, 4, 5, 6, 7, 6], 2, 3, 2);
    // EMA2: –, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 6.1667; EMA3: –, –, 2, 3, 4, 5, 6, 6.
    expect(line.slice(0, 2)).toEqual([null, null]);
    line.slice(2, 7).forEach((v) => expect(v).toBeCloseTo(0.5, 12));
    expect(line[7]).toBeCloseTo(1 / 6, 12);
    // Signal: EMA2 of the MACD line, seeded at index 3 with mean(0.5, 0.5).
    expect(signal[2]).toBeNull();
    expect(signal[3]).toBeCloseTo(0.5, 12);
    expect(signal[7]).toBeCloseTo(0.5 + (1 / 6 - 0.5) * (2 / 3), 12);
    expect(histogram[7]).toBeCloseTo(1 / 6 - (0.5 + (1 / 6 - 0.5) * (2 / 3)), 12);
  });

  it("is EMA(12) − EMA(26) with a 9-period signal line and histogram = MACD − signal", () => {
    const closes = STOCKCHARTS_BB_CLOSES;
    const { macd: line, signal, histogram } = macd(closes);
    const e12 = ema(closes, 12);
    const e26 = ema(closes, 26);
    expect(line.findIndex((v) => v !== null)).toBe(25);
    expect(signal.findIndex((v) => v !== null)).toBe(33);
    for (let i = 25; i < closes.length; i++) {
      expect(line[i]).toBeCloseTo((e12[i] as number) - (e26[i] as number), 12);
    }
    // The first signal value is the mean of the first nine MACD values.
    expect(signal[33]).toBeCloseTo(mean(line.slice(25, 34) as number[]), 12);
    for (let i = 33; i < closes.length; i++) {
      expect(histogram[i]).toBeCloseTo((line[i] as number) - (signal[i] as number), 12);
    }
    expect(histogram[32]).toBeNull();
  });

  it("is zero on a constant series", () => {
    const { macd: line, signal, histogram } = macd(Array(60).fill(3));
    for (const s of [line, signal, histogram]) expect(lastValue(s)).toBeCloseTo(0, 12);
  });
});

describe("bollinger", () => {
  it("collapses on a constant series (bandwidth 0)", () => {
    const bands = bollinger(Array(25).fill(10));
    expect(bands.middle[24]).toBe(10);
    expect(bands.upper[24]).toBe(10);
    expect(bands.lower[24]).toBe(10);
    expect(bands.bandwidth[24]).toBe(0);
    expect(bands.bandwidth[18]).toBeNull();
  });

  it("uses the population standard deviation (hand-computed)", () => {
    // mean 3, population sd √2.
    const bands = bollinger([1, 2, 3, 4, 5], 5, 2);
    expect(bands.middle[4]).toBe(3);
    expect(bands.upper[4]).toBeCloseTo(3 + 2 * Math.SQRT2, 12);
    expect(bands.lower[4]).toBeCloseTo(3 - 2 * Math.SQRT2, 12);
    expect(bands.bandwidth[4]).toBeCloseTo((4 * Math.SQRT2) / 3, 12);
  });

  it("matches the StockCharts 20/2 example", () => {
    const bands = bollinger(STOCKCHARTS_BB_CLOSES, 20, 2);
    expect(bands.middle[18]).toBeNull();
    STOCKCHARTS_BB.forEach(([middle, upper, lower], k) => {
      // The spreadsheet rounds its standard deviation before adding it: allow one cent.
      expectNear(bands.middle[19 + k], middle, 0.011);
      expectNear(bands.upper[19 + k], upper, 0.011);
      expectNear(bands.lower[19 + k], lower, 0.011);
    });
  });
});

describe("linearRegression", () => {
  it("fits an exact line with R² 1", () => {
    const fit = linearRegression([0, 1, 2, 3], [1, 3, 5, 7]);
    expect(fit?.slope).toBeCloseTo(2, 12);
    expect(fit?.intercept).toBeCloseTo(1, 12);
    expect(fit?.r2).toBeCloseTo(1, 12);
  });

  it("gives R² 0 for a flat series and null without spread in x", () => {
    expect(linearRegression([0, 1, 2], [4, 4, 4])).toEqual({ slope: 0, intercept: 4, r2: 0 });
    expect(linearRegression([1, 1], [1, 2])).toBeNull();
    expect(linearRegression([1], [1])).toBeNull();
  });
});

describe("lastValue", () => {
  it("skips trailing nulls", () => {
    const series: Series = [null, 1, 2, null];
    expect(lastValue(series)).toBe(2);
    expect(lastValue([null])).toBeNull();
  });
});

// Reference values for Pro's indicators, computed by hand step by step (see each comment).
describe("stochRsi", () => {
  // closes 10, 11, 10, 12, 13, 11 → changes +1, −1, +2, +1, −2. Wilder's RSI(2):
  //   i=2: gain 0.5, loss 0.5 → 50
  //   i=3: gain (0.5 + 2) / 2 = 1.25, loss 0.25 → RS 5 → 83.333…
  //   i=4: gain 1.125, loss 0.125 → RS 9 → 90
  //   i=5: gain 0.5625, loss 1.0625 → 34.615…
  // Stochastic over 2 RSIs: i=3 (83.3 − 50) / (83.3 − 50) = 100; i=4 100; i=5 0 (the lowest).
  // %K = SMA(2): i=4 100, i=5 50. %D = SMA(2) of %K: i=5 75.
  const closes = [10, 11, 10, 12, 13, 11];
  const r = stochRsi(closes, { rsiPeriod: 2, stochPeriod: 2, k: 2, d: 2 });

  it("is the stochastic of the RSI, 0..100", () => {
    expect(r.stochRsi.slice(0, 3)).toEqual([null, null, null]);
    expectNear(r.stochRsi[3], 100, 1e-9);
    expectNear(r.stochRsi[4], 100, 1e-9);
    expectNear(r.stochRsi[5], 0, 1e-9);
  });

  it("smooths %K and %D with simple averages", () => {
    expect(r.k.slice(0, 4)).toEqual([null, null, null, null]);
    expectNear(r.k[4], 100, 1e-9);
    expectNear(r.k[5], 50, 1e-9);
    expect(r.d.slice(0, 5)).toEqual([null, null, null, null, null]);
    expectNear(r.d[5], 75, 1e-9);
  });

  it("is null, not a guess, where the RSI did not move", () => {
    const flat = stochRsi([5, 5, 5, 5, 5, 5], { rsiPeriod: 2, stochPeriod: 2, k: 1, d: 1 });
    expect(flat.stochRsi).toEqual([null, null, null, null, null, null]);
    expect(flat.k.every((v) => v === null)).toBe(true);
  });

  it("uses 14/14/3/3 by default, first %D at index 14 + 14 − 1 + 2 + 2", () => {
    const closes = Array.from({ length: 40 }, (_, i) => 100 + 10 * Math.sin(i / 3) + (i % 4));
    const d = stochRsi(closes).d;
    expect(d.findIndex((v) => v !== null)).toBe(31);
    for (const v of d.filter((x) => x !== null)) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(100);
    }
  });
});

describe("atr", () => {
  // True ranges: 2 (high − low), max(2, 2, 0) = 2, max(2, 1.5, 0.5) = 2,
  // max(3.5, 0.5, 3) = 3.5, max(4, 5, 1) = 5 (a gap above the previous close).
  // ATR(3): mean(2, 2, 2) = 2; (2 × 2 + 3.5) / 3 = 2.5; (2.5 × 2 + 5) / 3 = 3.333…
  const candles = [
    { high: 10, low: 8, close: 9, volume: 0 },
    { high: 11, low: 9, close: 10.5, volume: 0 },
    { high: 12, low: 10, close: 10, volume: 0 },
    { high: 10.5, low: 7, close: 8, volume: 0 },
    { high: 13, low: 9, close: 12, volume: 0 },
  ];

  it("is Wilder's smoothing of the true range", () => {
    const a = atr(candles, 3);
    expect(a.slice(0, 2)).toEqual([null, null]);
    expectNear(a[2], 2, 1e-12);
    expectNear(a[3], 2.5, 1e-12);
    expectNear(a[4], 10 / 3, 1e-12);
  });

  it("has nothing with fewer candles than its period", () => {
    expect(atr(candles.slice(0, 2), 3)).toEqual([null, null]);
    expect(() => atr(candles, 0)).toThrow(RangeError);
  });
});

describe("obv", () => {
  it("adds volume on up closes, subtracts it on down closes, keeps it on equal ones", () => {
    const candles = [10, 11, 11, 10, 12].map((close, i) => ({ close, volume: (i + 1) * 100 }));
    expect(obv(candles)).toEqual([0, 200, 200, -200, 300]);
  });
});

describe("vwap", () => {
  it("is the volume-weighted typical price since the first candle", () => {
    // Typical prices 10, 12, 13 on volumes 100, 300, 0: 10; (1,000 + 3,600) / 400 = 11.5; 11.5.
    const v = vwap([
      { high: 12, low: 8, close: 10, volume: 100 },
      { high: 13, low: 11, close: 12, volume: 300 },
      { high: 15, low: 12, close: 12, volume: 0 },
    ]);
    expect(v).toEqual([10, 11.5, 11.5]);
  });

  it("is null until some volume traded", () => {
    expect(vwap([{ high: 2, low: 1, close: 1.5, volume: 0 }])).toEqual([null]);
  });
});
