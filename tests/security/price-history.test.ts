// Issue 12, item 2: plan limits bypassed through raw data. A basic subscriber paged through
// price_history over REST (and /api/gainers/history) and rebuilt the enterprise-only 10-second
// movers list. Now the table is not readable by API roles, and every plan gets one instrument
// at a time at the analysis' resolution: per 5-minute bucket only the samples that make its
// candle (open, high, low, close), so consecutive 10-second samples are not served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANDLE_BUCKET_MS, toCandles } from "../../supabase/functions/_shared/domain/candles.ts";
import { demoUser, serviceClient, stackInfo, type DemoEmail } from "../support/clients.ts";

const SYMBOL = `HIST${Date.now().toString(36).toUpperCase()}/USDT`;
const EXCHANGE = "Binance";
const STEP_MS = 10_000;
const SAMPLES = 1_080; // 3 hours of a scan every 10 s
let instrumentId = 0;
let samples: { ts: string; price: number }[] = [];

beforeAll(async () => {
  const service = serviceClient();
  const created = await service
    .from("instruments")
    .insert({
      symbol: SYMBOL,
      exchange: EXCHANGE,
      exchange_type: "cex",
      source: "simulated",
      venue_key: `${EXCHANGE}:${SYMBOL}`,
    })
    .select("id")
    .single();
  expect(created.error).toBeNull();
  instrumentId = created.data!.id;
  // The newest sample sits inside a 5-minute bucket, not on its first 10-second step.
  let end = Math.floor(Date.now() / STEP_MS) * STEP_MS - STEP_MS;
  if (end % CANDLE_BUCKET_MS < 60_000) end -= 60_000;
  // A steady riser with a little noise: every 10-second step moves the price.
  samples = Array.from({ length: SAMPLES }, (_, i) => ({
    ts: new Date(end - (SAMPLES - 1 - i) * STEP_MS).toISOString(),
    price: Number((100 + i * 0.01 + ((i * 7) % 5) * 0.003).toFixed(6)),
  }));
  const inserted = await service
    .from("price_history")
    .insert(samples.map((s) => ({ instrument_id: instrumentId, ts: s.ts, price: s.price })));
  expect(inserted.error).toBeNull();
});

afterAll(async () => {
  await serviceClient().from("instruments").delete().eq("id", instrumentId);
});

const PLANS: DemoEmail[] = ["basic@demo.local", "pro@demo.local", "enterprise@demo.local"];

/** What a client needs for the 10-second window: the newest price and the one 10 s before. */
function tenSecondChangeKnown(points: { ts: string }[]): boolean {
  const times = new Set(points.map((p) => Date.parse(p.ts)));
  const newest = Date.parse(samples.at(-1)!.ts);
  return times.has(newest) && times.has(newest - STEP_MS);
}

describe("price history as each plan", () => {
  it.each(PLANS)("%s cannot page through the price_history table", async (email) => {
    const { client } = await demoUser(email);
    const { data, error } = await client
      .from("price_history")
      .select("ts, price")
      .eq("instrument_id", instrumentId)
      .range(0, 999);
    expect(error).not.toBeNull();
    expect(data ?? []).toEqual([]);
  });

  it.each(PLANS)(
    "%s gets one instrument's 3 hours at 5-minute resolution, its candles exact",
    async (email) => {
      const { client } = await demoUser(email);
      const { data, error } = await client.rpc("price_history_for", { instrument: instrumentId });
      expect(error).toBeNull();
      const points = (data ?? []).map((r) => ({ ts: r.ts!, price: Number(r.price) }));
      const buckets = new Set(samples.map((s) => Math.floor(Date.parse(s.ts) / CANDLE_BUCKET_MS)));
      expect(points.length).toBeLessThanOrEqual(4 * buckets.size);
      expect(points.length).toBeLessThan(SAMPLES / 5);
      // The analysis' 5-minute candles are exactly those of the full history (the oldest
      // bucket aside: the 3 hours may cut it).
      const served = toCandles(points).slice(1);
      const from = served[0]!.start;
      const strip = (c: ReturnType<typeof toCandles>) =>
        c
          .filter((k) => k.start >= from)
          .map(({ start, open, high, low, close }) => ({ start, open, high, low, close }));
      expect(served.length).toBeGreaterThanOrEqual(35);
      expect(strip(served)).toEqual(strip(toCandles(samples)));
      // The 10-second change cannot be taken from it.
      expect(tenSecondChangeKnown(points)).toBe(false);
    },
  );

  it("refuses a user without an active plan", async () => {
    const { client } = await demoUser("free@demo.local");
    const { data, error } = await client.rpc("price_history_for", { instrument: instrumentId });
    expect(error?.code).toBe("PT403");
    expect(data).toBeNull();
  });

  it.each(PLANS)("%s gets the same resolution from /api/gainers/history", async (email) => {
    const { client } = await demoUser(email);
    const { data } = await client.auth.getSession();
    const { url, publishableKey } = stackInfo();
    const res = await fetch(
      `${url}/api/gainers/history/${encodeURIComponent(SYMBOL)}?exchange=${EXCHANGE}`,
      {
        headers: { apikey: publishableKey, authorization: `Bearer ${data.session!.access_token}` },
      },
    );
    expect(res.status).toBe(200);
    const points = (await res.json()) as { ts: string; price: number }[];
    expect(points.length).toBeGreaterThan(0);
    expect(points.length).toBeLessThan(SAMPLES / 5);
    expect(tenSecondChangeKnown(points)).toBe(false);
  });
});
