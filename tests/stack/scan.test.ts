// The scan's database calls through the Data API, on PGlite and on PostgreSQL: the service role
// ingests a batch with one RPC (a jsonb array argument), subscribers read the result through
// movers_feed, and JSON columns keep their objects.
import { describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import { anonClient, demoUser, serviceClient } from "../support/clients.ts";

const symbol = `STACK${Date.now().toString(36).toUpperCase()}/USDT`;

describe("the scan through the Data API", () => {
  it("ingests a batch with one RPC and subscribers read it through movers_feed", async () => {
    const quotes: Quote[] = [
      {
        venueKey: `Binance:${symbol}`,
        symbol,
        exchange: "Binance",
        exchangeType: "cex",
        network: null,
        source: "simulated",
        selection: "cex-major",
        poolUrl: null,
        price: 1.2345,
        volume24h: 1000,
        ts: new Date().toISOString(),
      },
      { ...({} as Quote), symbol: "", price: -1 },
    ];
    const service = serviceClient();
    const { data, error } = await service.rpc("ingest_scan", {
      quotes: quotes as never,
      scanned_at: new Date().toISOString(),
    });
    expect(error).toBeNull();
    expect(data).toMatchObject({ instruments: 1, movers: 1, skipped: 1, broadcasts: 7 });

    const { client } = await demoUser("enterprise@demo.local");
    const feed = await client.rpc("movers_feed", { window_minutes: 30 });
    expect(feed.error).toBeNull();
    expect(feed.data!.length).toBeLessThanOrEqual(100);
  });

  it("is refused to users and visitors", async () => {
    const { client } = await demoUser("enterprise@demo.local");
    for (const c of [client, anonClient()]) {
      const { error, status } = await c.rpc("ingest_scan", { quotes: [] as never });
      // Refused by the function's privileges, not by a failure inside it.
      expect(error?.code).toBe("42501");
      expect(error?.message).toBe("permission denied for function ingest_scan");
      expect(status).toBe(c === client ? 403 : 401);
    }
  });

  it("keeps JSON objects in jsonb columns written through the API", async () => {
    const service = serviceClient();
    const inserted = await service
      .from("strategy_signals")
      .insert({
        symbol,
        exchange: "Binance",
        exchange_type: "cex",
        timeframe: "5min",
        strategy: "rsi",
        signal: "bullish",
        confidence: 0.8,
        confidence_tier: "high",
        price: 1.2345,
        indicator_values: { rsi: 24.5, period: 14 },
      })
      .select("indicator_values")
      .single();
    expect(inserted.error).toBeNull();
    expect(inserted.data!.indicator_values).toEqual({ rsi: 24.5, period: 14 });
    await service.from("strategy_signals").delete().eq("symbol", symbol);
  });
});
