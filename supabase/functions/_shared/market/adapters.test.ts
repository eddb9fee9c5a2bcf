// Behaviour every real-venue adapter shares: rate limits, timeouts and failures.
import { deepStrictEqual, ok, rejects, strictEqual as assertEquals } from "node:assert/strict";
import { selectionOf } from "../domain/market.ts";
import { createBinanceAdapter } from "./binance.ts";
import { createCoinbaseAdapter } from "./coinbase.ts";
import { createDexAdapter, DEX_NETWORK_IDS } from "./geckoterminal.ts";
import {
  fakeFetch,
  hangingFetch,
  jsonResponse,
  loadMarketFixture,
  manualClock,
} from "./testing.ts";
import { type MarketAdapter, MarketSourceError } from "./types.ts";

const START = "2026-03-02T12:00:00.000Z";

const venues: {
  name: string;
  source: string;
  make: (timeoutMs?: number) => MarketAdapter;
  fixture: string;
}[] = [
  {
    name: "binance",
    source: "binance",
    make: (timeoutMs) => createBinanceAdapter({ timeoutMs }),
    fixture: "binance-ticker-24hr",
  },
  {
    name: "coinbase",
    source: "coinbase",
    make: (timeoutMs) => createCoinbaseAdapter({ timeoutMs }),
    fixture: "coinbase-products",
  },
  // The DEX adapter once per network, each answered with that network's recorded payload.
  ...DEX_NETWORK_IDS.map((id) => ({
    name: `dex (${id})`,
    source: "dex",
    make: (timeoutMs?: number) => createDexAdapter({ timeoutMs, networks: [id] }),
    fixture: `geckoterminal-trending-${id}`,
  })),
];

for (const venue of venues) {
  Deno.test(`${venue.name}: a mover row's exchange, type and source give back each quote's selection`, async () => {
    const body = await loadMarketFixture(venue.fixture);
    const { quotes } = await venue.make().fetchQuotes({
      fetch: fakeFetch(() => jsonResponse(body)).fetch,
    });
    ok(quotes.length > 0);
    for (const q of quotes) {
      const row = { exchange: q.exchange, exchange_type: q.exchangeType, source: q.source };
      assertEquals(selectionOf(row), q.selection, `${q.symbol} on ${q.exchange}`);
    }
  });

  Deno.test(`${venue.name}: 429 with Retry-After pauses the venue until then, with no call in between`, async () => {
    const adapter = venue.make();
    const clock = manualClock(START);
    const body = await loadMarketFixture(venue.fixture);
    let limited = true;
    const f = fakeFetch(() =>
      limited
        ? jsonResponse({ code: -1003, msg: "Too many requests" }, 429, { "retry-after": "30" })
        : jsonResponse(body)
    );
    const first = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    deepStrictEqual(first, {
      quotes: [],
      skipped: 0,
      inactive: 0,
      illiquid: 0,
      source: venue.source,
      backoffUntil: "2026-03-02T12:00:30.000Z",
    });
    limited = false;
    clock.advance(10_000);
    const second = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    deepStrictEqual(second, {
      quotes: [],
      skipped: 0,
      inactive: 0,
      illiquid: 0,
      source: venue.source,
      backoffUntil: "2026-03-02T12:00:30.000Z",
    });
    clock.advance(19_999);
    await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    assertEquals(f.calls.length, 1, "no call before Retry-After has passed");
    clock.advance(1);
    const third = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    assertEquals(f.calls.length, 2);
    ok(third.quotes.length > 0);
    assertEquals(third.backoffUntil, undefined);
  });

  Deno.test(`${venue.name}: 418 (banned) is honoured like 429; no Retry-After means 60 s`, async () => {
    const adapter = venue.make();
    const clock = manualClock(START);
    const f = fakeFetch(() => jsonResponse({ code: -1003, msg: "Way too many requests" }, 418));
    const first = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    assertEquals(first.backoffUntil, "2026-03-02T12:01:00.000Z");
    clock.advance(59_000);
    const second = await adapter.fetchQuotes({ fetch: f.fetch, now: clock.now });
    assertEquals(second.backoffUntil, "2026-03-02T12:01:00.000Z");
    assertEquals(f.calls.length, 1);
  });

  Deno.test(`${venue.name}: a request that never answers times out`, async () => {
    const adapter = venue.make(30);
    const f = hangingFetch();
    const t0 = performance.now();
    await rejects(adapter.fetchQuotes({ fetch: f.fetch }), (err: unknown) => {
      ok(err instanceof MarketSourceError);
      assertEquals(err.kind, "timeout");
      assertEquals(err.source, venue.source);
      return true;
    });
    ok(performance.now() - t0 < 2000);
    ok(f.calls[0]!.signal, "the request carries an abort signal");
  });

  Deno.test(`${venue.name}: the caller's signal cancels the request`, async () => {
    const adapter = venue.make();
    const ctl = new AbortController();
    const pending = adapter.fetchQuotes({ fetch: hangingFetch().fetch, signal: ctl.signal });
    ctl.abort();
    await rejects(
      pending,
      (err: unknown) => err instanceof MarketSourceError && /cancelled/.test(err.message),
    );
  });

  Deno.test(`${venue.name}: 5xx, bad JSON, an unexpected shape and network errors throw`, async () => {
    const adapter = venue.make();
    const cases: [() => Response | Promise<Response>, string, RegExp][] = [
      [() => new Response("<html>502 Bad Gateway</html>", { status: 502 }), "http", /HTTP 502/],
      [() => jsonResponse({ code: -1001, msg: "Internal error" }, 503), "http", /HTTP 503/],
      [() => new Response("{not json", { status: 200 }), "parse", /not JSON/],
      [() => jsonResponse({ unexpected: true }, 200), "parse", /./],
      [
        () => Promise.reject(new TypeError("error sending request: connection refused")),
        "network",
        /connection refused/,
      ],
    ];
    for (const [respond, kind, message] of cases) {
      const f = fakeFetch(respond);
      await rejects(adapter.fetchQuotes({ fetch: f.fetch }), (err: unknown) => {
        ok(err instanceof MarketSourceError, String(err));
        assertEquals(err.kind, kind);
        ok(message.test(err.message), err.message);
        return true;
      });
    }
  });

  Deno.test(`${venue.name}: a 4xx other than a rate limit throws with the venue's message`, async () => {
    const adapter = venue.make();
    const f = fakeFetch(() =>
      jsonResponse({ code: 0, msg: "Service unavailable from a restricted location." }, 451)
    );
    await rejects(adapter.fetchQuotes({ fetch: f.fetch }), /HTTP 451: .*restricted location/);
    // Not a rate limit: the next scan tries again.
    await rejects(adapter.fetchQuotes({ fetch: f.fetch }), /HTTP 451/);
    assertEquals(f.calls.length, 2);
  });
}
