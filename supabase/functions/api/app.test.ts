import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import app, { createApiApp } from "./app.ts";
import { envFrom } from "../_shared/env.ts";
import type { SourceHealthEntry } from "./health.ts";

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

Deno.test("GET /api/health answers 200 with status ok and each source's state", async () => {
  const res = await createApiApp({ sourceHealth: () => Promise.resolve(HEALTH) }).fetch(
    new Request("http://local/api/health"),
  );
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.status, "ok");
  deepStrictEqual(body.sources, HEALTH);
});

Deno.test("GET /api/health says degraded, still 200, when the sources cannot be read", async () => {
  const res = await createApiApp({
    sourceHealth: () => Promise.reject(new Error("connection refused")),
  }).fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json().then((b) => [b.status, b.sources]), ["degraded", []]);
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
