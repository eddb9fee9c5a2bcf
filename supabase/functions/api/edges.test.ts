// Characterisation of the /api layer's edge answers, written before the routes moved to
// @hono/zod-openapi (decision 0062) and kept passing through it: a malformed JSON body is
// `400 invalid_json`, an empty body reads as `{}` and is validated, a body is read whatever its
// content type (no 415), a missing field names itself, an unknown query value is a 400 with the
// route's own message, and the caller is checked before the request's parts.
import { strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { createApiApp } from "./app.ts";
import { FakeMarket } from "./fake-market-db.ts";

const authCalls: string[] = [];
/** GoTrue refusing every password: a body that got through validation ends as 401. */
const authFetch: typeof fetch = (input) => {
  authCalls.push(String(input instanceof Request ? input.url : input));
  return Promise.resolve(
    Response.json({ code: "invalid_credentials", error_code: "invalid_credentials", msg: "no" }, {
      status: 400,
    }),
  );
};

const market = new FakeMarket();
const pro = market.addCaller({ id: "u-pro", plan: "pro", subscriptionActive: true });
const app = createApiApp({
  env: envFrom({ SUPABASE_URL: "http://127.0.0.1:9", SUPABASE_ANON_KEY: "k" }),
  sourceHealth: () => Promise.resolve([]),
  authFetch,
  db: market.factory,
  now: () => Date.parse("2026-11-21T12:00:00Z"),
});

function post(path: string, body: string | null, headers: Record<string, string> = {}) {
  return app.fetch(
    new Request(`http://local/api${path}`, { method: "POST", headers, body }),
  );
}

async function expectError(res: Response, status: number, code: string, message: string) {
  const body = await res.json();
  assertEquals(res.status, status, JSON.stringify(body));
  assertEquals(res.headers.get("content-type")?.startsWith("application/json"), true);
  assertEquals(body.code, code);
  assertEquals(body.message, message);
  assertEquals(body.error, message);
}

const JSON_TYPE = { "content-type": "application/json" };
const NOT_JSON = "The request body is not valid JSON.";

Deno.test("a malformed JSON body is 400 invalid_json, with or without a JSON content type", async () => {
  await expectError(await post("/auth/login", "{nope", JSON_TYPE), 400, "invalid_json", NOT_JSON);
  await expectError(await post("/auth/login", "{nope"), 400, "invalid_json", NOT_JSON);
  await expectError(
    await post("/auth/register", "[1,", { "content-type": "text/plain" }),
    400,
    "invalid_json",
    NOT_JSON,
  );
});

Deno.test("an empty body reads as {} and is validated (the first missing field is named)", async () => {
  for (const body of [null, "", "   "]) {
    await expectError(
      await post("/auth/login", body, JSON_TYPE),
      400,
      "invalid_request",
      "email: Invalid input: expected string, received undefined",
    );
  }
});

Deno.test("a body is read whatever its content type: no 415", async () => {
  const credentials = JSON.stringify({ email: "a@example.com", password: "secret-password" });
  for (const headers of [{}, { "content-type": "text/plain" }, JSON_TYPE]) {
    const before = authCalls.length;
    await expectError(
      await post("/auth/login", credentials, headers),
      401,
      "invalid_credentials",
      "Invalid email or password",
    );
    assertEquals(authCalls.length, before + 1, "the credentials reached Auth");
  }
});

Deno.test("a missing or invalid field is 400 invalid_request with the schema's message", async () => {
  await expectError(
    await post("/auth/login", JSON.stringify({ email: "a@example.com" }), JSON_TYPE),
    400,
    "invalid_request",
    "password: Invalid input: expected string, received undefined",
  );
  await expectError(
    await post("/auth/login", JSON.stringify({ email: "a@example.com", password: "" }), JSON_TYPE),
    400,
    "invalid_request",
    "Password is required",
  );
  await expectError(
    await post("/auth/register", JSON.stringify({ email: "a@example.com", password: "short" })),
    400,
    "invalid_request",
    "Password must be at least 8 characters",
  );
});

Deno.test("an unknown query value is 400 invalid_request with the route's message", async () => {
  const get = (path: string) =>
    app.fetch(
      new Request(`http://local/api${path}`, { headers: { authorization: `Bearer ${pro}` } }),
    );
  await expectError(
    await get("/gainers/recent?window=7"),
    400,
    "invalid_request",
    "window must be one of 0, 5, 10, 15, 20, 25, 30 (minutes; 0 is the 10-second window).",
  );
  await expectError(
    await get("/gainers/recent?hideThin=maybe"),
    400,
    "invalid_request",
    "hideThin must be true or false.",
  );
  await expectError(
    await get("/signals/recent?limit=0"),
    400,
    "invalid_request",
    "limit must be a whole number from 1 to 500.",
  );
  await expectError(
    await get("/gainers/candles/BTC%2FUSDT?resolution=1d"),
    400,
    "invalid_request",
    "resolution must be 5m, 1h or 4h.",
  );
});

Deno.test("the caller is checked before the body and the path: no login is 401 first", async () => {
  await expectError(
    await post("/support/tickets", "{nope", JSON_TYPE),
    401,
    "unauthorized",
    "Please log in to continue.",
  );
  await expectError(
    await app.fetch(new Request("http://local/api/support/tickets/not-a-uuid")),
    401,
    "unauthorized",
    "Please log in to continue.",
  );
  await expectError(
    await app.fetch(new Request("http://local/api/gainers/recent?window=7")),
    401,
    "unauthorized",
    "Please log in to see market data.",
  );
});
