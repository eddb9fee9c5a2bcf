// The /api routes of the Pro data (issue 27, decision 0035) against the real stack, on PGlite and
// PostgreSQL: 90 minutes of samples for two instruments are rolled up into candles (service role,
// as the cron runner does); Pro and Enterprise read the candles, the insights and the comparison
// through /api — the same values the RPCs give the SPA — and Basic is refused with 403
// `pro_required`, the free plan with 403 `subscription_required`, as the RPCs refuse them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "../../supabase/functions/api/schemas.ts";
import { bearerOf, call, expectError, expectJson } from "../support/api.ts";
import { demoUser, serviceClient } from "../support/clients.ts";

const MIN = 60_000;
const tag = Date.now().toString(36).toUpperCase();
const UP = `APIUP${tag}/USDT`;
const DOWN = `APIDN${tag}/USDT`;
const service = serviceClient();
const ids: Record<string, number> = {};
const end = Math.floor((Date.now() - MIN) / 1000) * 1000;
const start = end - 90 * MIN;
const enc = encodeURIComponent;

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
    const rows = [];
    for (let t = start, i = 0; t <= end; t += 30_000, i++) {
      const drift = symbol === UP ? 1 + i * 0.002 : 1 - i * 0.001;
      rows.push({
        instrument_id: ids[symbol]!,
        ts: new Date(t).toISOString(),
        price: Number((50 * drift + (i % 3) * 0.05).toFixed(6)),
        volume_24h: 1_000_000 + i * 500,
      });
    }
    const ins = await service.from("price_history").insert(rows);
    if (ins.error) throw ins.error;
  }
  const rolled = await service.rpc("run_candle_rollup", { since: new Date(start).toISOString() });
  if (rolled.error) throw rolled.error;
});

afterAll(async () => {
  await service.from("instruments").delete().in("symbol", [UP, DOWN]);
});

describe("/api Pro data", () => {
  it("gives Pro the candles of each resolution, equal to the RPC's", async () => {
    const auth = await bearerOf("pro@demo.local");
    const { client } = await demoUser("pro@demo.local");
    for (const resolution of ["5m", "1h", "4h"] as const) {
      const body = await expectJson(
        await call(`/gainers/candles/${enc(UP)}?resolution=${resolution}`, { auth }),
        200,
        s.candles,
      );
      const rpc = await client.rpc("history_candles", { instrument: ids[UP]!, resolution });
      expect(rpc.error).toBeNull();
      expect(body.length).toBe(rpc.data!.length);
      expect(body.length).toBeGreaterThan(0);
      body.forEach((c, i) => {
        const r = rpc.data![i]!;
        expect(Date.parse(c.ts)).toBe(Date.parse(r.bucket!));
        expect([c.open, c.high, c.low, c.close]).toEqual([r.open, r.high, r.low, r.close]);
      });
    }
    // 90 rising minutes: 18 five-minute candles, the last close above the first open.
    const five = await expectJson(
      await call(`/gainers/candles/${enc(UP)}`, { auth }),
      200,
      s.candles,
    );
    expect(five.length).toBeGreaterThanOrEqual(18);
    expect(five[five.length - 1]!.close).toBeGreaterThan(five[0]!.open);
  });

  it("gives Enterprise the insights in camelCase with the drawdown of a falling symbol", async () => {
    const auth = await bearerOf("enterprise@demo.local");
    const body = await expectJson(
      await call(`/gainers/insights/${enc(DOWN)}`, { auth }),
      200,
      s.insights,
    );
    expect(body).toMatchObject({ instrumentId: ids[DOWN], symbol: DOWN, exchange: "Binance" });
    // The drawdown is the fall below the earlier high: negative for a falling symbol.
    expect(body.drawdown.pct).toBeLessThan(0);
    expect(body.move1hPct).toBeLessThan(0);
  });

  it("compares two symbols normalised to the same start", async () => {
    const auth = await bearerOf("pro@demo.local");
    const body = await expectJson(
      await call(`/charts/compare?symbols=${enc(UP)},${enc(DOWN)}&range=24h`, { auth }),
      200,
      s.comparison,
    );
    expect(body.map((x) => x.symbol)).toEqual([UP, DOWN]);
    for (const series of body) expect(series.points[0]!.pct).toBe(0);
    expect(body[0]!.points.at(-1)!.pct).toBeGreaterThan(0);
    expect(body[1]!.points.at(-1)!.pct).toBeLessThan(0);
  });

  it("refuses Basic with 403 pro_required and the free plan with 403 subscription_required", async () => {
    const paths = [
      `/gainers/candles/${enc(UP)}?resolution=1h`,
      `/gainers/insights/${enc(UP)}`,
      `/charts/compare?symbols=${enc(UP)},${enc(DOWN)}`,
    ];
    const basic = await bearerOf("basic@demo.local");
    const free = await bearerOf("free@demo.local");
    for (const path of paths) {
      const refused = await expectError(await call(path, { auth: basic }), 403, "pro_required");
      expect(refused.message).toMatch(/Pro plan is required/);
      await expectError(await call(path, { auth: free }), 403, "subscription_required");
      await expectError(await call(path), 401, "unauthorized");
    }
  });

  it("answers 400 for a bad resolution or list and 404 for an unknown symbol", async () => {
    const auth = await bearerOf("pro@demo.local");
    await expectError(
      await call(`/gainers/candles/${enc(UP)}?resolution=2h`, { auth }),
      400,
      "invalid_request",
    );
    await expectError(
      await call(`/charts/compare?symbols=${enc(UP)}`, { auth }),
      400,
      "invalid_request",
    );
    await expectError(
      await call(`/gainers/insights/${enc(`NOPE${tag}/USDT`)}`, { auth }),
      404,
      "unknown_symbol",
    );
  });
});
