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
  },
];

Deno.test("GET /api/health answers 200 with status ok, each source's and each stream's state", async () => {
  const res = await createApiApp({
    sourceHealth: () => Promise.resolve(HEALTH),
    streamHealth: () => Promise.resolve(STREAMS),
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.status, "ok");
  deepStrictEqual(body.sources, HEALTH);
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
  deepStrictEqual(await res.json().then((b) => [b.status, b.sources, b.streams]), [
    "degraded",
    HEALTH,
    [],
  ]);
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
  };
  deepStrictEqual(toStreamHealth(row, now), {
    source: "coinbase",
    state: "connected",
    since: "2026-03-02T11:50:00+00:00",
    reconnects: 3,
    lastMessageAt: "2026-03-02T11:59:57.400+00:00",
    lastMessageAgeSeconds: 2,
    reportedAt: "2026-03-02T11:59:58+00:00",
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
