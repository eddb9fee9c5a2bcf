import { deepStrictEqual, ok, rejects, strictEqual as assertEquals } from "node:assert/strict";
import {
  BINANCE_PRICE_URL,
  BINANCE_TICKER_URL,
  BINANCE_WEIGHT_PER_MINUTE,
  BINANCE_WEIGHT_SHARE,
  binanceWeightPauseUntil,
  binanceWeightPerMinute,
  createBinanceAdapter,
  splitBinanceSymbol,
} from "./binance.ts";
import { fakeFetch, jsonResponse, loadMarketFixture, manualClock } from "./testing.ts";
import { MarketSourceError } from "./types.ts";

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
  // ETHBTC and BTCTRY are other quote assets (left out, not counted); the delisted (price 0) and
  // the halted (no trade in 24 h) rows are inactive, the two malformed rows skipped.
  assertEquals(result.skipped, 2);
  assertEquals(result.inactive, 2);
  assertEquals(result.illiquid, 0);
  deepStrictEqual(result.quotes[0], {
    venueKey: "Binance:BTC/USDT",
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
    volume24hUsd: 1452368711.5294122,
    // bidPrice 66909.22090110, askPrice 66909.89: (ask - bid) / mid * 100.
    spreadPct: 0.001,
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

Deno.test("binance: dozens of zero-price delistings are counted as inactive, apart from malformed rows", async () => {
  const body = await loadMarketFixture("binance-ticker-24hr-delistings");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createBinanceAdapter().fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(result.quotes.map((q) => q.symbol), ["BTC/USDT", "币安人生/USDT", "SOL/USDT"]);
  // 30 delisted dollar pairs at price 0 and one halted pair (no trade in 24 h).
  assertEquals(result.inactive, 31);
  // A price that is not a number, a row without a symbol.
  assertEquals(result.skipped, 2);
  assertEquals(result.illiquid, 0);
});

Deno.test("binance: a non-ASCII symbol's market link is a valid, percent-encoded URL", async () => {
  const body = await loadMarketFixture("binance-ticker-24hr-delistings");
  const { quotes } = await createBinanceAdapter().fetchQuotes({
    fetch: fakeFetch(() => jsonResponse(body)).fetch,
    now: NOW,
  });
  const q = quotes.find((x) => x.symbol === "币安人生/USDT")!;
  assertEquals(
    q.poolUrl,
    "https://www.binance.com/en/trade/%E5%B8%81%E5%AE%89%E4%BA%BA%E7%94%9F_USDT?type=spot",
  );
  assertEquals(new URL(q.poolUrl!).href, q.poolUrl);
  ok(/^[\x21-\x7e]+$/.test(q.poolUrl!), "only printable ASCII");
  assertEquals(q.venueKey, "Binance:币安人生/USDT");
});

Deno.test("binance: an empty list, or rows of another endpoint, is a failed read, not 0 quotes", async () => {
  const answers: [unknown, RegExp, number][] = [
    [[], /returned no rows/, 0],
    // GET /api/v3/ticker/price: symbol and price only.
    [
      [{ symbol: "BTCUSDT", price: "66909.89000000" }, { symbol: "ETHUSDT", price: "3398.17" }],
      /2 malformed/,
      2,
    ],
    // Only delisted rows.
    [
      (await loadMarketFixture("binance-ticker-24hr-delistings") as { lastPrice: string }[])
        .filter((r) => r.lastPrice === "0.00000000"),
      /30 inactive/,
      0,
    ],
  ];
  for (const [answer, message, skipped] of answers) {
    const f = fakeFetch(() => jsonResponse(answer));
    await rejects(createBinanceAdapter().fetchQuotes({ fetch: f.fetch, now: NOW }), (err) => {
      ok(err instanceof MarketSourceError, String(err));
      assertEquals(err.kind, "empty");
      ok(message.test(err.message), err.message);
      assertEquals(err.counts?.skipped, skipped);
      return true;
    });
  }
});

Deno.test("binance: the base URL can point at a mirror or a test server", async () => {
  const body = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(body));
  const adapter = createBinanceAdapter({ baseUrl: "https://api1.binance.com/" });
  await adapter.fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), ["https://api1.binance.com/api/v3/ticker/24hr"]);
  await rejects(
    createBinanceAdapter({ baseUrl: "api.binance.us" }).fetchQuotes({ fetch: f.fetch }),
    (err) => err instanceof MarketSourceError && err.kind === "config",
  );
});

// ---------------------------------------------------------------------------------------------
// Cheap prices, a heavy ticker once a minute, venue time (decision 0033)
// ---------------------------------------------------------------------------------------------

Deno.test("binance: the 24 h ticker once a minute, the weight-4 price list in between", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const prices = await loadMarketFixture("binance-ticker-price");
  const clock = manualClock("2026-03-02T12:00:05.000Z");
  const f = fakeFetch((url) =>
    jsonResponse(url.endsWith("/ticker/24hr") ? ticker : prices, 200, {
      date: clock.now().toUTCString(),
    })
  );
  const adapter = createBinanceAdapter();
  const first = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(first.quotes.length, 13);
  clock.advance(2_000);
  const second = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  deepStrictEqual(f.calls.map((c) => c.url), [BINANCE_TICKER_URL, BINANCE_PRICE_URL]);
  // The same 13 pairs at their new prices, with the ticker's volume and links; NEWUSDT (not in
  // the ticker), the delisted BCCUSDT and the halted LUNAUSDT are inactive, ADAUSDT malformed.
  assertEquals(second.quotes.length, 13);
  const btc = second.quotes.find((q) => q.symbol === "BTC/USDT")!;
  assertEquals(btc.price, 66952.1);
  assertEquals(btc.volume24h, 1452368711.5294122);
  assertEquals(btc.poolUrl, "https://www.binance.com/en/trade/BTC_USDT?type=spot");
  // No time in the price list: the venue's clock at the answer (Date header, same second here).
  assertEquals(btc.ts, "2026-03-02T12:00:07.000Z");
  assertEquals(second.inactive, 3);
  assertEquals(second.skipped, 1);
  // 58 s later still the price list; at 60 s after the ticker, the ticker again.
  for (let i = 0; i < 28; i++) {
    clock.advance(2_000);
    await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  }
  assertEquals(f.calls.filter((c) => c.url === BINANCE_TICKER_URL).length, 1);
  clock.advance(2_000);
  await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(f.calls.filter((c) => c.url === BINANCE_TICKER_URL).length, 2);
  assertEquals(f.calls.length, 31);
});

Deno.test("binance: at a price every 2 s the scanner spends under 200 weight a minute, under a fifth of 6000", () => {
  // 29 price lists and one 24 h ticker a minute.
  assertEquals(binanceWeightPerMinute(2), 29 * 4 + 80);
  ok(binanceWeightPerMinute(2) <= BINANCE_WEIGHT_PER_MINUTE * BINANCE_WEIGHT_SHARE);
  ok(binanceWeightPerMinute(1) <= 1200);
  // Calling the 24 h ticker every 2 s would be 2400 a minute: over the fifth.
  ok(binanceWeightPerMinute(2, 2_000) > 1200);
});

Deno.test("binance: a venue clock 3 s ahead is measured and stamps the prices", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const prices = await loadMarketFixture("binance-ticker-price");
  const clock = manualClock("2026-03-02T12:00:05.000Z");
  const f = fakeFetch((url) =>
    jsonResponse(url.endsWith("/ticker/24hr") ? ticker : prices, 200, {
      date: new Date(clock.now().getTime() + 3_000).toUTCString(),
    })
  );
  const adapter = createBinanceAdapter();
  await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  clock.advance(2_000);
  const result = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(result.skewMs, 3_500);
  assertEquals(result.quotes[0]!.ts, "2026-03-02T12:00:10.500Z");
});

// ---------------------------------------------------------------------------------------------
// X-MBX-USED-WEIGHT-1M: back off before the IP's ceiling (decision 0054)
// ---------------------------------------------------------------------------------------------

Deno.test("binance: an answer at 5,330 used weight (no room for the 80-weight ticker under 90 %) pauses until the next minute", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const prices = await loadMarketFixture("binance-ticker-price");
  const clock = manualClock("2026-03-02T12:00:05.000Z");
  let used = 80;
  const f = fakeFetch((url) =>
    jsonResponse(url.endsWith("/ticker/24hr") ? ticker : prices, 200, {
      date: clock.now().toUTCString(),
      "x-mbx-used-weight-1m": String(used),
    })
  );
  const adapter = createBinanceAdapter();
  const first = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(first.backoffUntil, undefined);
  // Someone else on the IP spent most of the minute: 5,330 + 80 > 90 % of 6,000.
  used = 5_330;
  clock.advance(2_000);
  const second = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  // This answer's quotes are kept; the calls after it wait for Binance's next minute.
  assertEquals(second.quotes.length, 13);
  clock.advance(2_000);
  const third = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(third.quotes.length, 0);
  assertEquals(third.backoffUntil, "2026-03-02T12:01:00.000Z");
  assertEquals(f.calls.length, 2);
  // In the next minute the window has reset: calls go on.
  used = 4;
  clock.advance(51_000);
  const fourth = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
  assertEquals(fourth.backoffUntil, undefined);
  assertEquals(f.calls.length, 3);
});

Deno.test("binance: a used weight with room left, or no header, does not pause", () => {
  const at = new Date("2026-03-02T12:00:05.000Z");
  assertEquals(binanceWeightPauseUntil(new Headers({ "x-mbx-used-weight-1m": "5320" }), at), null);
  assertEquals(binanceWeightPauseUntil(new Headers(), at), null);
  assertEquals(binanceWeightPauseUntil(new Headers({ "x-mbx-used-weight-1m": "lots" }), at), null);
  assertEquals(
    binanceWeightPauseUntil(new Headers({ "x-mbx-used-weight-1m": "5321" }), at),
    Date.parse("2026-03-02T12:01:00.000Z"),
  );
});
