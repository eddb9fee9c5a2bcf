import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { BINANCE_TICKER_URL, createBinanceAdapter, splitBinanceSymbol } from "./binance.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "./testing.ts";

const NOW = () => new Date("2026-03-02T12:00:05.000Z");

Deno.test("binance: one call for every symbol; stablecoin pairs mapped, the rest left out", async () => {
  const body = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createBinanceAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), [BINANCE_TICKER_URL]);
  assertEquals(result.source, "binance");
  deepStrictEqual(result.quotes.map((q) => q.symbol), [
    "BTC/USDT",
    "ETH/USDT",
    "BNB/USDT",
    "SOL/USDC",
    "BTC/FDUSD",
    "FDUSD/USDT",
    "USDC/USDT",
    "PEPE/USDT",
    "1000SATS/USDT",
    "DOGE/USDT",
    "XRP/USDC",
    "WIF/USDT",
    "币安人生/USDT",
  ]);
  // ETHBTC and BTCTRY are other quote assets (left out, not counted); the delisted, the halted
  // and the two malformed rows are counted.
  assertEquals(result.skipped, 4);
  deepStrictEqual(result.quotes[0], {
    symbol: "BTC/USDT",
    exchange: "Binance",
    exchangeType: "cex",
    network: null,
    source: "binance",
    selection: "cex-major",
    poolUrl: "https://www.binance.com/en/trade/BTC_USDT?type=spot",
    price: 66909.89,
    volume24h: 1452368711.5294122,
    ts: "2026-03-02T12:00:00.123Z",
  });
  assertEquals(result.quotes[7]!.price, 0.00001084);
  assertEquals(result.quotes[4]!.poolUrl, "https://www.binance.com/en/trade/BTC_FDUSD?type=spot");
});

Deno.test("binance: symbols split on the longest known quote suffix", () => {
  deepStrictEqual(splitBinanceSymbol("BTCUSDT"), ["BTC", "USDT"]);
  deepStrictEqual(splitBinanceSymbol("ETHFDUSD"), ["ETH", "FDUSD"]);
  deepStrictEqual(splitBinanceSymbol("FDUSDUSDT"), ["FDUSD", "USDT"]);
  deepStrictEqual(splitBinanceSymbol("USDCUSDT"), ["USDC", "USDT"]);
  assertEquals(splitBinanceSymbol("ETHBTC"), null);
  assertEquals(splitBinanceSymbol("USDT"), null);
});

Deno.test("binance: a row without closeTime is stamped with the scan's time", async () => {
  const f = fakeFetch(() =>
    jsonResponse([{ symbol: "SOLUSDT", lastPrice: "150.1", quoteVolume: "1000" }])
  );
  const { quotes, skipped } = await createBinanceAdapter().fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  assertEquals(skipped, 0);
  assertEquals(quotes[0]!.ts, "2026-03-02T12:00:05.000Z");
});
