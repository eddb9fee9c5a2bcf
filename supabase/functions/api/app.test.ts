import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import app, { createApiApp } from "./app.ts";
import { envFrom } from "../_shared/env.ts";
import {
  healthResponse,
  type SourceHealthEntry,
  type StreamHealthEntry,
  toStreamHealth,
} from "./health.ts";

const HEALTH: SourceHealthEntry[] = [
  {
    source: "binance",
    state: "failing",
    quotes: 0,
    failure: "http",
    httpStatus: 503,
    message: "api.binance.com answered HTTP 503",
    backoffUntil: null,
    lastAttemptAt: "2026-03-02T12:00:00+00:00",
    lastSuccessAt: "2026-03-02T11:40:00+00:00",
    lastQuoteAt: "2026-03-02T11:39:59+00:00",
  },
];

const STREAMS: StreamHealthEntry[] = [
  {
    source: "binance",
    state: "dropped",
    since: "2026-03-02T11:59:50+00:00",
    reconnects: 2,
    lastMessageAt: "2026-03-02T11:59:49+00:00",
    lastMessageAgeSeconds: 11,
    reportedAt: "2026-03-02T11:59:59+00:00",
    confirmedSince: null,
    confirmedThrough: null,
  },
];

Deno.test("GET /api/health answers 200 with status ok, each source's and each stream's state", async () => {
  const res = await createApiApp({
    sourceHealth: () => Promise.resolve(HEALTH),
    streamHealth: () => Promise.resolve(STREAMS),
    now: () => Date.parse("2026-03-02T12:00:00Z"),
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.status, "ok");
  assertEquals(body.time, "2026-03-02T12:00:00.000Z");
  // The dropped stream's run confirms nothing: the newest polled quote, 20 min old, is stale.
  deepStrictEqual(body.sources, [{
    ...HEALTH[0],
    confirmedThrough: "2026-03-02T11:39:59.000Z",
    confirmedBy: "poll",
    confirmedAgeSeconds: 1201,
    stale: true,
  }]);
  deepStrictEqual(body.streams, STREAMS);
  // The answer is what the contract documents.
  assertEquals(healthResponse.safeParse(body).success, true);
});

Deno.test("GET /api/health says degraded, still 200, when the sources cannot be read", async () => {
  const res = await createApiApp({
    sourceHealth: () => Promise.reject(new Error("connection refused")),
    streamHealth: () => Promise.resolve(STREAMS),
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json().then((b) => [b.status, b.sources, b.streams]), [
    "degraded",
    [],
    STREAMS,
  ]);
});

Deno.test("GET /api/health says degraded, still 200, when the streams cannot be read", async () => {
  const res = await createApiApp({
    sourceHealth: () => Promise.resolve(HEALTH),
    streamHealth: () => Promise.reject(new Error("relation does not exist")),
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  const body = await res.json();
  deepStrictEqual([body.status, body.streams], ["degraded", []]);
  // Without the streams the polled quote is all that is confirmed.
  deepStrictEqual(
    body.sources.map((s: Record<string, unknown>) => [s.source, s.confirmedBy, s.confirmedThrough]),
    [["binance", "poll", "2026-03-02T11:39:59.000Z"]],
  );
});

Deno.test("GET /api/health: each venue's confirmed-through time, its age and whether it is stale", async () => {
  const now = Date.parse("2026-03-02T12:00:00Z");
  const polled = (source: string, at: string, quoteAt: string | null): SourceHealthEntry => ({
    source,
    state: "ok",
    quotes: 10,
    failure: null,
    httpStatus: null,
    message: null,
    backoffUntil: null,
    lastAttemptAt: at,
    lastSuccessAt: at,
    lastQuoteAt: quoteAt,
  });
  const stream = (source: string, since: string, through: string): StreamHealthEntry => ({
    source,
    state: "connected",
    since,
    reconnects: 0,
    lastMessageAt: through,
    lastMessageAgeSeconds: 0,
    reportedAt: "2026-03-02T11:59:59.500Z",
    confirmedSince: since,
    confirmedThrough: through,
  });
  const res = await createApiApp({
    sourceHealth: () =>
      Promise.resolve([
        // A full poll 30 s ago after the stream's run began: the stream confirms through 11:59:58.
        polled("binance", "2026-03-02T11:59:30Z", "2026-03-02T11:59:29.600Z"),
        // The run began after the last poll: the stream may have missed a change; the poll holds.
        polled("coinbase", "2026-03-02T11:59:30Z", "2026-03-02T11:59:29Z"),
        // No stream; its newest pool quote 6 minutes ago: stale.
        polled("geckoterminal", "2026-03-02T11:59:50Z", "2026-03-02T11:54:00Z"),
        // Never delivered a quote.
        polled("bybit", "2026-03-02T11:59:50Z", null),
      ]),
    streamHealth: () =>
      Promise.resolve([
        stream("binance", "2026-03-02T11:50:00Z", "2026-03-02T11:59:58.250Z"),
        stream("coinbase", "2026-03-02T11:59:40Z", "2026-03-02T11:59:59Z"),
      ]),
    now: () => now,
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(healthResponse.safeParse(body).success, true);
  const pick = (s: Record<string, unknown>) => [
    s.source,
    s.confirmedThrough,
    s.confirmedBy,
    s.confirmedAgeSeconds,
    s.stale,
  ];
  deepStrictEqual(body.sources.map(pick), [
    ["binance", "2026-03-02T11:59:58.250Z", "stream", 1, false],
    ["coinbase", "2026-03-02T11:59:29.000Z", "poll", 31, false],
    ["geckoterminal", "2026-03-02T11:54:00.000Z", "poll", 360, true],
    ["bybit", null, null, null, true],
  ]);
  // The streams list their run as reported.
  deepStrictEqual(
    body.streams.map((s: StreamHealthEntry) => [s.source, s.confirmedSince, s.confirmedThrough]),
    [
      ["binance", "2026-03-02T11:50:00Z", "2026-03-02T11:59:58.250Z"],
      ["coinbase", "2026-03-02T11:59:40Z", "2026-03-02T11:59:59Z"],
    ],
  );
});

Deno.test("a stream's health: since its state, the last message's age, a silent reader", () => {
  const now = Date.parse("2026-03-02T12:00:00Z");
  const row = {
    source: "coinbase",
    state: "connected",
    connected_since: "2026-03-02T11:50:00+00:00",
    dropped_at: null,
    reconnects: 3,
    last_message_at: "2026-03-02T11:59:57.400+00:00",
    reported_at: "2026-03-02T11:59:58+00:00",
    confirmed_since: "2026-03-02T11:50:00.100+00:00",
    confirmed_through: "2026-03-02T11:59:57+00:00",
  };
  deepStrictEqual(toStreamHealth(row, now), {
    source: "coinbase",
    state: "connected",
    since: "2026-03-02T11:50:00+00:00",
    reconnects: 3,
    lastMessageAt: "2026-03-02T11:59:57.400+00:00",
    lastMessageAgeSeconds: 2,
    reportedAt: "2026-03-02T11:59:58+00:00",
    confirmedSince: "2026-03-02T11:50:00.100+00:00",
    confirmedThrough: "2026-03-02T11:59:57+00:00",
  });
  // Dropped: since is the drop; a reader silent for over 30 s is not reporting, whatever it said.
  const dropped = {
    ...row,
    state: "dropped",
    connected_since: null,
    dropped_at: "2026-03-02T11:59:30+00:00",
  };
  assertEquals(toStreamHealth(dropped, now).since, "2026-03-02T11:59:30+00:00");
  assertEquals(toStreamHealth(dropped, now).state, "dropped");
  assertEquals(
    toStreamHealth({ ...row, reported_at: "2026-03-02T11:59:29+00:00" }, now).state,
    "not_reporting",
  );
  assertEquals(toStreamHealth({ ...row, last_message_at: null }, now).lastMessageAgeSeconds, null);
});

Deno.test("an unknown route answers 404 with a JSON error", async () => {
  const res = await app.fetch(new Request("http://local/api/nope", { method: "POST" }));
  assertEquals(res.status, 404);
  const body = await res.json();
  assertEquals(body.code, "not_found");
  assertEquals(typeof body.message, "string");
  assertEquals(body.error, body.message);
});

Deno.test("CORS preflight is answered for browser clients", async () => {
  const app = createApiApp({ env: envFrom({ SITE_URL: "http://127.0.0.1:5173" }) });
  const res = await app.fetch(
    new Request("http://local/api/health", {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "GET" },
    }),
  );
  assertEquals(res.status, 204);
  assertEquals(res.headers.get("access-control-allow-origin"), "http://127.0.0.1:5173");
});
