import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { COINBASE_PRODUCTS_URL, createCoinbaseAdapter } from "./coinbase.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "./testing.ts";

const NOW = () => new Date("2026-03-02T12:00:05.000Z");

Deno.test("coinbase: one call for every spot product; dollar-quoted tradable products mapped", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createCoinbaseAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), [COINBASE_PRODUCTS_URL]);
  assertEquals(result.source, "coinbase");
  // BTC-USDC (an alias of BTC-USD), ETH-BTC, the delisted and the disabled product are left
  // out; the auction without a price, the one without volume and two malformed rows counted.
  deepStrictEqual(result.quotes.map((q) => q.symbol), [
    "BTC/USD",
    "ETH/USD",
    "SOL/USD",
    "BTC/USDT",
    "USDT/USD",
    "DOGE/USD",
    "PEPE/USD",
    "WIF/USD",
    "LINK/USD",
    "ADA/USD",
  ]);
  assertEquals(result.skipped, 4);
  deepStrictEqual(result.quotes[0], {
    symbol: "BTC/USD",
    exchange: "Coinbase",
    exchangeType: "cex",
    network: null,
    source: "coinbase",
    selection: "coinbase",
    poolUrl: "https://www.coinbase.com/advanced-trade/spot/BTC-USD",
    price: 66923.45,
    volume24h: 660975432.51,
    ts: "2026-03-02T12:00:05.000Z",
  });
});

Deno.test("coinbase: without a quote-currency volume, base volume × price is used", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const f = fakeFetch(() => jsonResponse(body));
  const { quotes } = await createCoinbaseAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  const link = quotes.find((q) => q.symbol === "LINK/USD")!;
  ok(Math.abs(link.volume24h! - 14.021 * 2123456.78) < 1e-3);
});
