// Candle history and Pro's analysis against a running stack, on PGlite and on PostgreSQL
// (migrations 20261125400000 and 20261125400100, decision 0035): 90 minutes of samples for two
// instruments roll up (service role, as the cron runner does) into 5-minute and hourly candles
// equal to the shared domain's candles of the same samples; Pro reads them, the historical
// comparison and the normalised comparison; Basic is refused with 403 and the upgrade reason,
// the free plan with 403 'Active subscription required'.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  estimateIntervalVolumes,
  toCandles,
  type PricePoint,
} from "../../supabase/functions/_shared/domain/candles.ts";
import { demoUser, serviceClient } from "../support/clients.ts";

const MIN = 60_000;
const tag = Date.now().toString(36).toUpperCase();
const UP = `HISUP${tag}/USDT`;
const DOWN = `HISDN${tag}/USDT`;
const service = serviceClient();
const ids: Record<string, number> = {};
const samples: Record<string, PricePoint[]> = {};

// 90 minutes of a sample every 30 s, ending a minute ago (the scan keeps 3 hours).
const end = Math.floor((Date.now() - MIN) / 1000) * 1000;
const start = end - 90 * MIN;
function series(symbol: string): PricePoint[] {
  const out: PricePoint[] = [];
  for (let t = start, i = 0; t <= end; t += 30_000, i++) {
    const drift = symbol === UP ? 1 + i * 0.002 : 1 - i * 0.001;
    out.push({
      ts: new Date(t).toISOString(),
      price: Number((50 * drift + (i % 3) * 0.05).toFixed(6)),
      volume: 1_000_000 + i * 500,
    });
  }
  return out;
}

beforeAll(async () => {
  const { data, error } = await service
    .from("instruments")
    .insert(
      [UP, DOWN].map((symbol) => ({
        symbol,
        exchange: "Binance",
        exchange_type: "cex" as const,
        venue_key: `Binance:${symbol}`,
      })),
    )
    .select("id, symbol");
  if (error) throw error;
  for (const row of data) ids[row.symbol] = row.id;
  for (const symbol of [UP, DOWN]) {
    samples[symbol] = series(symbol);
    const ins = await service.from("price_history").insert(
      samples[symbol].map((p) => ({
        instrument_id: ids[symbol]!,
        ts: p.ts as string,
        price: p.price,
        volume_24h: p.volume ?? null,
      })),
    );
    if (ins.error) throw ins.error;
  }
  const rolled = await service.rpc("run_candle_rollup", { since: new Date(start).toISOString() });
  if (rolled.error) throw rolled.error;
});

afterAll(async () => {
  await service.from("instruments").delete().in("symbol", [UP, DOWN]);
});

describe("the candle rollup", () => {
  it("is for the service role only", async () => {
    const { client } = await demoUser("enterprise@demo.local");
    const res = await client.rpc("run_candle_rollup", {});
    expect(res.error).not.toBeNull();
    expect([401, 403, 404]).toContain(res.status);
  });

  it("gives Pro the 5-minute candles the domain computes from the same samples", async () => {
    const { client } = await demoUser("pro@demo.local");
    const { data, error } = await client.rpc("history_candles", {
      instrument: ids[UP]!,
      resolution: "5m",
    });
    expect(error).toBeNull();
    const expected = toCandles(estimateIntervalVolumes(samples[UP]!));
    expect(data!.map((c) => Date.parse(c.bucket ?? ""))).toEqual(expected.map((c) => c.start));
    data!.forEach((c, i) => {
      const e = expected[i]!;
      expect([c.open, c.high, c.low, c.close]).toEqual([e.open, e.high, e.low, e.close]);
      expect(c.volume).toBeCloseTo(e.volume, 6);
    });
  });

  it("makes each hourly candle of its 5-minute candles", async () => {
    const { client } = await demoUser("enterprise@demo.local");
    const { data, error } = await client.rpc("history_candles", {
      instrument: ids[DOWN]!,
      resolution: "1h",
    });
    expect(error).toBeNull();
    const expected = toCandles(estimateIntervalVolumes(samples[DOWN]!), 60 * MIN);
    expect(data!.map((c) => [Date.parse(c.bucket ?? ""), c.open, c.high, c.low, c.close])).toEqual(
      expected.map((c) => [c.start, c.open, c.high, c.low, c.close]),
    );
  });
});

describe("Pro's comparisons", () => {
  it("set the last hour's move against the symbol's hourly moves", async () => {
    const { client } = await demoUser("pro@demo.local");
    const { data, error } = await client.rpc("history_insights", { instrument: ids[UP]! });
    expect(error).toBeNull();
    const j = data as {
      move_1h_pct: number;
      comparison: { hours: number; occurrences: number; after_1h: { samples: number } };
      drawdown: { pct: number };
    };
    const five = toCandles(samples[UP]!);
    const last = five.at(-1)!;
    const hourAgo = five.filter((c) => c.start <= last.start - 60 * MIN).at(-1)!;
    expect(j.move_1h_pct).toBeCloseTo((last.close / hourAgo.close - 1) * 100, 3);
    const hours = toCandles(samples[UP]!, 60 * MIN);
    expect(j.comparison.hours).toBe(hours.length - 1);
    expect(j.comparison.occurrences).toBeGreaterThanOrEqual(0);
    expect(j.comparison.occurrences).toBeLessThanOrEqual(j.comparison.hours);
    expect(j.drawdown.pct).toBeLessThanOrEqual(0);
  });

  it("normalise two symbols to the same start", async () => {
    const { client } = await demoUser("pro@demo.local");
    const { data, error } = await client.rpc("history_compare", {
      instruments: [ids[UP]!, ids[DOWN]!],
      range: "24h",
    });
    expect(error).toBeNull();
    expect(data!.map((r) => r.symbol)).toEqual([UP, DOWN]);
    for (const row of data!) {
      const points = row.points as [number, number][];
      const closes = toCandles(samples[row.symbol ?? ""]!).map((c) => c.close);
      expect(points).toHaveLength(closes.length);
      expect(points[0]![1]).toBe(0);
      expect(points.at(-1)![1]).toBeCloseTo((closes.at(-1)! / closes[0]! - 1) * 100, 3);
    }
    const [up, down] = data!.map((r) => (r.points as [number, number][]).at(-1)![1]);
    expect(up).toBeGreaterThan(0);
    expect(down).toBeLessThan(0);
  });
});

describe("who may read them", () => {
  it("refuses Basic with 403 and the upgrade reason", async () => {
    const { client } = await demoUser("basic@demo.local");
    for (const res of [
      await client.rpc("history_candles", { instrument: ids[UP]!, resolution: "5m" }),
      await client.rpc("history_insights", { instrument: ids[UP]! }),
      await client.rpc("history_compare", { instruments: [ids[UP]!, ids[DOWN]!], range: "7d" }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.error?.message).toBe("The Pro plan is required");
      expect(res.error?.details).toBe("pro_required");
    }
  });

  it("refuses the free plan with 403 'Active subscription required'", async () => {
    const { client } = await demoUser("free@demo.local");
    const res = await client.rpc("history_insights", { instrument: ids[UP]! });
    expect(res.status).toBe(403);
    expect(res.error?.message).toBe("Active subscription required");
  });
});
