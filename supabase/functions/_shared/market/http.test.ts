import { ok, rejects, strictEqual as assertEquals, throws } from "node:assert/strict";
import { Backoff, getJson, retryAfterMs, toNumber, venueBaseUrl, venueClock } from "./http.ts";
import { MarketSourceError } from "./types.ts";

const NOW = new Date("2026-03-02T12:00:00.000Z");

Deno.test("Retry-After is read as seconds or as an HTTP date", () => {
  assertEquals(retryAfterMs("120", NOW), 120_000);
  assertEquals(retryAfterMs(" 1.5 ", NOW), 1_500);
  assertEquals(retryAfterMs("Mon, 02 Mar 2026 12:02:00 GMT", NOW), 120_000);
  assertEquals(retryAfterMs("Mon, 02 Mar 2026 11:00:00 GMT", NOW), 0);
  assertEquals(retryAfterMs(null, NOW), null);
  assertEquals(retryAfterMs("soon", NOW), null);
  assertEquals(retryAfterMs("-5", NOW), null);
});

Deno.test("a backoff never shortens an earlier, longer pause", () => {
  const b = new Backoff();
  assertEquals(b.activeAt(NOW), null);
  assertEquals(b.pause(NOW, "300"), "2026-03-02T12:05:00.000Z");
  assertEquals(b.pause(NOW, "10"), "2026-03-02T12:05:00.000Z");
  assertEquals(b.activeAt(new Date("2026-03-02T12:04:59.999Z")), "2026-03-02T12:05:00.000Z");
  assertEquals(b.activeAt(new Date("2026-03-02T12:05:00.000Z")), null);
});

Deno.test("numbers come from JSON numbers or numeric strings only", () => {
  assertEquals(toNumber("0.00001084"), 0.00001084);
  assertEquals(toNumber(12), 12);
  assertEquals(toNumber(""), null);
  assertEquals(toNumber("  "), null);
  assertEquals(toNumber("abc"), null);
  assertEquals(toNumber(null), null);
  assertEquals(toNumber(Number.NaN), null);
  assertEquals(toNumber("Infinity"), null);
});

Deno.test("a body cut off mid-transfer is reported as such, not as an unreachable host", async () => {
  const ctx = {
    source: "binance" as const,
    backoff: new Backoff(),
    now: () => NOW,
    timeoutMs: 1_000,
    fetch: (() => {
      const bytes = new TextEncoder().encode('[{"symbol":"BTCUSDT","lastPrice":"669');
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.error(new TypeError("error reading a body from connection: connection reset"));
        },
      });
      return Promise.resolve(new Response(body, { status: 200 }));
    }) as typeof fetch,
  };
  await rejects(getJson(ctx, "https://api.binance.com/api/v3/ticker/24hr"), (err) => {
    ok(err instanceof MarketSourceError, String(err));
    assertEquals(err.kind, "network");
    ok(
      /api\.binance\.com cut its answer off mid-transfer: .*connection reset/.test(err.message),
      err.message,
    );
    ok(!/unreachable/.test(err.message));
    return true;
  });
});

Deno.test("a host that cannot be reached is still reported as unreachable", async () => {
  const ctx = {
    source: "coinbase" as const,
    backoff: new Backoff(),
    now: () => NOW,
    timeoutMs: 1_000,
    fetch: (() => Promise.reject(new TypeError("dns error: no such host"))) as typeof fetch,
  };
  await rejects(
    getJson(ctx, "https://api.coinbase.com/x"),
    /api\.coinbase\.com unreachable: dns error/,
  );
});

Deno.test("a base URL setting must be an absolute http(s) URL", () => {
  const fallback = "https://api.binance.com";
  assertEquals(venueBaseUrl("binance", "BINANCE_API_URL", undefined, fallback), fallback);
  assertEquals(venueBaseUrl("binance", "BINANCE_API_URL", "  ", fallback), fallback);
  assertEquals(
    venueBaseUrl("binance", "BINANCE_API_URL", "https://testnet.binance.vision/", fallback),
    "https://testnet.binance.vision",
  );
  assertEquals(
    venueBaseUrl("dex", "GECKOTERMINAL_API_URL", "http://127.0.0.1:8787/api/v2", fallback),
    "http://127.0.0.1:8787/api/v2",
  );
  for (
    const bad of ["api.binance.com", "ftp://x.example", "https://x.example/?a=1", "https://x#y"]
  ) {
    throws(() => venueBaseUrl("binance", "BINANCE_API_URL", bad, fallback), /BINANCE_API_URL/);
  }
});

Deno.test("venueClock: the Date header gives the venue's clock; under a second of skew is none", () => {
  const receivedAt = new Date("2026-03-02T12:00:05.400Z");
  const none = venueClock({ headers: new Headers(), receivedAt });
  assertEquals(none.skewMs, null);
  assertEquals(none.venueNow.toISOString(), "2026-03-02T12:00:05.400Z");
  const same = venueClock({
    headers: new Headers({ date: "Mon, 02 Mar 2026 12:00:05 GMT" }),
    receivedAt,
  });
  assertEquals(same.skewMs, 100);
  assertEquals(same.venueNow.toISOString(), "2026-03-02T12:00:05.400Z");
  const behind = venueClock({
    headers: new Headers({ date: "Mon, 02 Mar 2026 11:59:58 GMT" }),
    receivedAt,
  });
  assertEquals(behind.skewMs, -6_900);
  assertEquals(behind.venueNow.toISOString(), "2026-03-02T11:59:58.500Z");
});
