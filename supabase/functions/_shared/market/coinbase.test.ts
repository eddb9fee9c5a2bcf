import { deepStrictEqual, ok, rejects, strictEqual as assertEquals } from "node:assert/strict";
import { COINBASE_PRODUCTS_URL, createCoinbaseAdapter } from "./coinbase.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "./testing.ts";
import { MarketSourceError } from "./types.ts";

const NOW = () => new Date("2026-03-02T12:00:05.000Z");

Deno.test("coinbase: one call for every spot product; dollar-quoted tradable products mapped", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createCoinbaseAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), [COINBASE_PRODUCTS_URL]);
  assertEquals(result.source, "coinbase");
  // BTC-USDC (an alias of BTC-USD) and ETH-BTC are left out; the delisted, the disabled, the
  // auction without a price and the product without volume are inactive; two rows malformed.
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
  assertEquals(result.skipped, 2);
  assertEquals(result.inactive, 4);
  assertEquals(result.illiquid, 0);
  deepStrictEqual(result.quotes[0], {
    venueKey: "Coinbase:BTC/USD",
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
    volume24hUsd: 660975432.51,
    // The product list has no best bid and ask.
    spreadPct: null,
  });
});

Deno.test("coinbase: without a quote-currency volume, base volume × price is used", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const f = fakeFetch(() => jsonResponse(body));
  const { quotes } = await createCoinbaseAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  const link = quotes.find((q) => q.symbol === "LINK/USD")!;
  ok(Math.abs(link.volume24h! - 14.021 * 2123456.78) < 1e-3);
});

Deno.test("coinbase: an empty product list is a failed read, not 0 quotes", async () => {
  const f = fakeFetch(() => jsonResponse({ products: [], num_products: 0 }));
  await rejects(createCoinbaseAdapter().fetchQuotes({ fetch: f.fetch, now: NOW }), (err) => {
    ok(err instanceof MarketSourceError, String(err));
    assertEquals(err.kind, "empty");
    ok(/market\/products returned no rows/.test(err.message), err.message);
    return true;
  });
});

Deno.test("coinbase: the base URL can point at a mirror or a test server", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const f = fakeFetch(() => jsonResponse(body));
  await createCoinbaseAdapter({ baseUrl: "http://127.0.0.1:4010" }).fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  deepStrictEqual(f.calls.map((c) => c.url), [
    "http://127.0.0.1:4010/api/v3/brokerage/market/products?product_type=SPOT",
  ]);
});

Deno.test("coinbase: market links are valid URLs", async () => {
  const body = await loadMarketFixture("coinbase-products");
  const { quotes } = await createCoinbaseAdapter().fetchQuotes({
    fetch: fakeFetch(() => jsonResponse(body)).fetch,
    now: NOW,
  });
  for (const q of quotes) assertEquals(new URL(q.poolUrl!).href, q.poolUrl);
});
