import { strictEqual as assertEquals } from "node:assert/strict";
import app from "./app.ts";

Deno.test("GET /api/health answers 200 with status ok", async () => {
  const res = await app.fetch(new Request("http://local/api/health"));
  assertEquals(res.status, 200);
  assertEquals((await res.json()).status, "ok");
});

Deno.test("an unknown route answers 404 with a JSON error", async () => {
  const res = await app.fetch(new Request("http://local/api/nope", { method: "POST" }));
  assertEquals(res.status, 404);
  const body = await res.json();
  assertEquals(body.error, "not_found");
  assertEquals(typeof body.message, "string");
});

Deno.test("CORS preflight is answered for browser clients", async () => {
  const res = await app.fetch(
    new Request("http://local/api/health", {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "GET" },
    }),
  );
  assertEquals(res.status, 204);
  assertEquals(res.headers.get("access-control-allow-origin"), "http://127.0.0.1:5173");
});
