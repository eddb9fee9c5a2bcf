// The Supabase implementation of the market port, against a fake Supabase HTTP API: which
// requests it makes, with which credentials, and how it reads the answers.
import { deepStrictEqual, ok, rejects, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { createCallerClient, supabaseMarketDb } from "./market-db.ts";

const URL_BASE = "http://supabase.test";
const KEY = "sb_publishable_test_key";
const TOKEN = "user.access.token";
const USER_ID = "0c9d7a52-3f1e-4b8a-9c6d-2e4f6a8b0c1d";

type Handler = (req: Request, url: URL) => Response | Promise<Response>;

function fakeSupabase(handler: Handler) {
  const requests: Request[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    requests.push(req.clone());
    return await handler(req, new URL(req.url));
  };
  const env = envFrom({ SUPABASE_URL: URL_BASE, SUPABASE_PUBLISHABLE_KEY: KEY });
  const db = supabaseMarketDb(createCallerClient(env, TOKEN, fetchImpl), TOKEN, () => {
    throw new Error("no Realtime in these tests");
  });
  return { db, requests };
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers });

Deno.test("caller(): Auth's verdict on the token, then the own profile, both with the caller's token", async () => {
  const { db, requests } = fakeSupabase((_req, url) => {
    if (url.pathname === "/auth/v1/user") return json({ id: USER_ID, email: "p@example.test" });
    if (url.pathname === "/rest/v1/profiles") {
      return json([{
        id: USER_ID,
        plan: "pro",
        subscription_active: true,
        banned: false,
        selected_window_minutes: 20,
      }]);
    }
    return json({ message: "unexpected" }, 500);
  });
  deepStrictEqual(await db.caller(), {
    id: USER_ID,
    plan: "pro",
    subscriptionActive: true,
    banned: false,
    selectedWindowMinutes: 20,
  });
  assertEquals(requests.length, 2);
  for (const req of requests) {
    assertEquals(req.headers.get("authorization"), `Bearer ${TOKEN}`);
    assertEquals(req.headers.get("apikey"), KEY);
  }
  const profileUrl = new URL(requests[1]!.url);
  assertEquals(profileUrl.searchParams.get("id"), `eq.${USER_ID}`);
});

Deno.test("caller(): a token Auth refuses is no caller; an Auth outage is an error", async () => {
  const refused = fakeSupabase(() =>
    json({ code: 403, error_code: "bad_jwt", msg: "invalid JWT" }, 403)
  );
  assertEquals(await refused.db.caller(), null);
  const down = fakeSupabase(() => json({ message: "upstream down" }, 502));
  await rejects(() => down.db.caller());
});

Deno.test("moversFeed(): movers_feed with or without a window; PT403 becomes the matching 403", async () => {
  const bodies: unknown[] = [];
  const { db } = fakeSupabase(async (req, url) => {
    assertEquals(url.pathname, "/rest/v1/rpc/movers_feed");
    const body = await req.json();
    bodies.push(body);
    if (body.window_minutes === 5) {
      return json({
        code: "PT403",
        message: "The basic plan does not offer a 5 minute window",
        details: null,
        hint: null,
      }, 403);
    }
    return json([{ id: 1, symbol: "A/USDT" }]);
  });
  deepStrictEqual(await db.moversFeed(null), [{ id: 1, symbol: "A/USDT" }]);
  deepStrictEqual(await db.moversFeed(30), [{ id: 1, symbol: "A/USDT" }]);
  deepStrictEqual(bodies, [{}, { window_minutes: 30 }]);
  await rejects(
    () => db.moversFeed(5, { plan: "basic" }),
    (err: unknown) =>
      err instanceof HttpError && err.status === 403 && err.code === "window_not_allowed" &&
      err.message.includes("(minutes): 30"),
  );
});

Deno.test("priceHistory(): one instrument through price_history_for, since the given time", async () => {
  const all = [
    { ts: "2026-11-21T08:59:50.000Z", price: 1, volume_24h: null },
    { ts: "2026-11-21T09:00:00.000Z", price: 2, volume_24h: null },
    { ts: "2026-11-21T09:04:50.000Z", price: 3, volume_24h: 7 },
  ];
  const bodies: unknown[] = [];
  const { db, requests } = fakeSupabase(async (req, url) => {
    assertEquals(url.pathname, "/rest/v1/rpc/price_history_for");
    bodies.push(await req.json());
    return json(all);
  });
  const rows = await db.priceHistory(42, "2026-11-21T09:00:00.000Z");
  deepStrictEqual(rows, all.slice(1));
  deepStrictEqual(bodies, [{ instrument: 42 }]);
  assertEquals(requests.length, 1);
});

Deno.test("recentSignals() and instruments() ask for the newest signals and exact matches", async () => {
  const { db, requests } = fakeSupabase(() => json([]));
  await db.recentSignals(200);
  await db.instruments("PEPE/USDT", "Binance");
  const signals = new URL(requests[0]!.url);
  assertEquals(signals.pathname, "/rest/v1/strategy_signals");
  assertEquals(signals.searchParams.get("order"), "computed_at.desc,id.desc");
  assertEquals(signals.searchParams.get("limit"), "200");
  const instruments = new URL(requests[1]!.url);
  assertEquals(instruments.searchParams.get("symbol"), "eq.PEPE/USDT");
  assertEquals(instruments.searchParams.get("exchange"), "eq.Binance");
  ok(requests.every((r) => r.headers.get("authorization") === `Bearer ${TOKEN}`));
});

Deno.test("openMovers(): one movers_stream_open request reads the caller and the window's rows", async () => {
  const row = { id: 7, symbol: "PEPE/USDT", pct: 12.5, window_used: 15 };
  const { db, requests } = fakeSupabase((_req, url) => {
    if (url.pathname === "/rest/v1/rpc/movers_stream_open") {
      return json({
        caller: {
          id: USER_ID,
          plan: "pro",
          subscription_active: true,
          banned: false,
          selected_window_minutes: 20,
        },
        window: 15,
        feed: [row],
        error: null,
      });
    }
    return json({ message: "unexpected" }, 500);
  });
  const opening = await db.openMovers(15);
  deepStrictEqual(opening, {
    caller: {
      id: USER_ID,
      plan: "pro",
      subscriptionActive: true,
      banned: false,
      selectedWindowMinutes: 20,
    },
    windowMinutes: 15,
    rows: [row],
    refusal: null,
  });
  assertEquals(requests.length, 1);
  assertEquals(requests[0]!.headers.get("authorization"), `Bearer ${TOKEN}`);
  deepStrictEqual(await requests[0]!.json(), { window_minutes: 15 });
});

Deno.test("openMovers(): no live session is no caller; movers_feed's refusal is the matching 403", async () => {
  let answer: Response = json({ caller: null });
  const { db } = fakeSupabase(() => answer.clone());
  deepStrictEqual(await db.openMovers(null), {
    caller: null,
    windowMinutes: null,
    rows: [],
    refusal: null,
  });
  answer = json({ code: "PGRST303", message: "JWT expired" }, 401);
  assertEquals((await db.openMovers(null)).caller, null);

  answer = json({
    caller: {
      id: USER_ID,
      plan: "basic",
      subscription_active: true,
      banned: false,
      selected_window_minutes: 30,
    },
    window: 5,
    feed: null,
    error: { code: "PT403", message: "The basic plan does not offer a 5 minute window" },
  });
  const refused = await db.openMovers(5);
  ok(refused.refusal instanceof HttpError);
  assertEquals(refused.refusal.status, 403);
  assertEquals(refused.refusal.code, "window_not_allowed");
  deepStrictEqual(refused.rows, []);

  answer = json({ code: "XX000", message: "boom" }, 500);
  await rejects(() => db.openMovers(30));
});
