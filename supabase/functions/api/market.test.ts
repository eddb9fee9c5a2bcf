import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { createApiApp } from "./app.ts";
import { MESSAGES } from "./errors.ts";
import { FakeMarket, feedRow } from "./fake-market-db.ts";
import type { VenueReading, VenueReadingsReader } from "./venue-confirmations.ts";

const NOW = Date.parse("2026-11-21T12:00:00Z");
const ids = { free: "u-free", basic: "u-basic", pro: "u-pro", ent: "u-ent", lapsed: "u-lapsed" };

function setup(
  opts: { keepAliveMs?: number; reauthMs?: number; venueReadings?: VenueReadingsReader } = {},
) {
  const market = new FakeMarket();
  const tokens = {
    free: market.addCaller({ id: ids.free }),
    basic: market.addCaller({ id: ids.basic, plan: "basic", subscriptionActive: true }),
    pro: market.addCaller({
      id: ids.pro,
      plan: "pro",
      subscriptionActive: true,
      selectedWindowMinutes: 15,
    }),
    ent: market.addCaller({
      id: ids.ent,
      plan: "enterprise",
      subscriptionActive: true,
      selectedWindowMinutes: 5,
    }),
    lapsed: market.addCaller({ id: ids.lapsed, plan: "pro", subscriptionActive: false }),
    banned: market.addCaller({
      id: "u-banned",
      plan: "pro",
      subscriptionActive: true,
      banned: true,
    }),
  };
  const app = createApiApp({
    env: envFrom({}),
    db: market.factory,
    now: () => NOW,
    keepAliveMs: opts.keepAliveMs ?? 60_000,
    joinTimeoutMs: 500,
    venueReadings: opts.venueReadings ?? (() => Promise.resolve([])),
    ...(opts.reauthMs ? { reauthMs: opts.reauthMs } : {}),
  });
  const get = (path: string, token: string | null = null, init: RequestInit = {}) =>
    app.fetch(
      new Request(`http://local/api${path}`, {
        ...init,
        headers: {
          apikey: "sb_publishable_test",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      }),
    );
  return { market, tokens, app, get };
}

async function expectError(res: Response, status: number, error: string, message?: string) {
  assertEquals(res.status, status);
  assertEquals(res.headers.get("content-type")?.startsWith("application/json"), true);
  const body = await res.json();
  // `error` is the message the specification's screens show; `code` the reason (decision 0024).
  assertEquals(body.code, error, JSON.stringify(body));
  assertEquals(typeof body.message, "string");
  assertEquals(body.error, body.message);
  if (message !== undefined) assertEquals(body.message, message);
  return body as { error: string; code: string; message: string };
}

const MARKET_PATHS = [
  "/gainers/recent",
  "/gainers/history/PEPE%2FUSDT",
  "/gainers/analysis/PEPE%2FUSDT",
  "/signals/recent",
  "/sse",
];

// ---------------------------------------------------------------------------------------------
// Who may call
// ---------------------------------------------------------------------------------------------

Deno.test("every market route refuses a request without a token with 401 (the apikey is no login)", async () => {
  const t = setup();
  for (const path of MARKET_PATHS) {
    await expectError(await t.get(path), 401, "unauthorized", MESSAGES.loginRequired);
  }
  assertEquals(t.market.calls.length, 0);
});

Deno.test("an invalid or unknown token is a 401", async () => {
  const t = setup();
  for (const path of MARKET_PATHS) {
    await expectError(await t.get(path, "not-a-session"), 401, "unauthorized");
  }
  const res = await t.app.fetch(
    new Request("http://local/api/gainers/recent", { headers: { authorization: "Basic abc" } }),
  );
  await expectError(res, 401, "unauthorized");
});

Deno.test("a user without an active paid plan gets 403 subscription_required on every route", async () => {
  const t = setup();
  for (const who of ["free", "lapsed"] as const) {
    for (const path of MARKET_PATHS) {
      await expectError(
        await t.get(path, t.tokens[who]),
        403,
        "subscription_required",
        "An active subscription is required to see market data.",
      );
    }
  }
  assertEquals(t.market.joins.length, 0);
});

Deno.test("a banned subscriber gets 403 banned", async () => {
  const t = setup();
  await expectError(await t.get("/gainers/recent", t.tokens.banned), 403, "banned");
});

Deno.test("every call is made with the caller's own token", async () => {
  const t = setup();
  t.market.feeds.set(15, [feedRow()]);
  assertEquals((await t.get("/gainers/recent", t.tokens.pro)).status, 200);
  assertEquals((await t.get("/signals/recent", t.tokens.pro)).status, 200);
  ok(t.market.calls.length >= 2);
  for (const call of t.market.calls) assertEquals(call.token, t.tokens.pro);
});

Deno.test("other methods on market routes answer 405 with Allow: GET", async () => {
  const t = setup();
  const res = await t.get("/gainers/recent", t.tokens.pro, { method: "POST" });
  await expectError(res, 405, "method_not_allowed");
  assertEquals(res.headers.get("allow"), "GET");
});

Deno.test("without SUPABASE_URL and a publishable key the layer answers 500 api_not_configured", async () => {
  const app = createApiApp({ env: envFrom({}) });
  const res = await app.fetch(
    new Request("http://local/api/gainers/recent", { headers: { authorization: "Bearer x" } }),
  );
  const body = await expectError(res, 500, "api_not_configured");
  ok(body.message.includes("SUPABASE_URL"));
  ok(body.message.includes("SUPABASE_ANON_KEY"));
});

// ---------------------------------------------------------------------------------------------
// GET /api/gainers/recent
// ---------------------------------------------------------------------------------------------

Deno.test("/gainers/recent answers the caller's window list in camelCase", async () => {
  const t = setup();
  t.market.feeds.set(30, [feedRow(), feedRow({ id: 12, instrument_id: 8, symbol: "X/USDT" })]);
  const res = await t.get("/gainers/recent", t.tokens.basic);
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assertEquals(body.length, 2);
  deepStrictEqual(body[0], {
    id: 11,
    instrumentId: 7,
    symbol: "PEPE/USDT",
    exchange: "Binance",
    exchangeType: "cex",
    network: null,
    source: "binance",
    poolUrl: null,
    price: 0.0000123,
    price3hourAgo: 0.00001,
    pct: 23.5,
    windowUsed: 30,
    pct3hour: 23,
    volume24h: 2500000,
    ts: "2026-11-21T10:00:00.000Z",
    // The venue's time of the quote, 1.5 s before the scan wrote the entry (decision 0033).
    quotedAt: "2026-11-21T09:59:58.500Z",
    // Through when the venue confirmed that price (its stream, decision 0079): the data age's start.
    confirmedAt: "2026-11-21T09:59:59.500Z",
    // Issue 26: the trust fields, camelCased.
    volume24hUsd: 2500000,
    liquidityUsd: null,
    spreadPct: 0.012,
    thin: false,
    confirmedOn: ["Coinbase"],
    flags: [],
    trustScore: 74,
    asset: "PEPE",
    poolName: null,
    pct30min: 23.5,
  });
  // No ?window=: movers_feed(null), the caller's selected window.
  deepStrictEqual(t.market.calls.find((c) => c.call === "moversFeed")!.args, [null]);
});

Deno.test("/gainers/recent: a DEX pool's trust fields; hideThin and confirmedOnly filter", async () => {
  const t = setup();
  const pool = feedRow({
    id: 13,
    instrument_id: 9,
    symbol: "SFP/WBNB",
    exchange: "PancakeSwap V3 (BNB Chain)",
    exchange_type: "dex",
    volume_24h_usd: "900000",
    liquidity_usd: "45000.5",
    spread_pct: null,
    thin: true,
    confirmed_on: [],
    flags: ["young_pool", "wash_volume", "not_a_flag"],
    trust_score: 0,
    asset: "SFP",
    pool_name: "SFP / WBNB 0.25%",
  });
  t.market.feeds.set(30, [feedRow(), pool]);
  const all = await (await t.get("/gainers/recent", t.tokens.basic)).json();
  assertEquals(all.length, 2);
  deepStrictEqual(
    [
      all[1].liquidityUsd,
      all[1].volume24hUsd,
      all[1].thin,
      all[1].flags,
      all[1].poolName,
      all[1].asset,
    ],
    [45000.5, 900000, true, ["young_pool", "wash_volume"], "SFP / WBNB 0.25%", "SFP"],
  );
  const solid = await (await t.get("/gainers/recent?hideThin=true", t.tokens.basic)).json();
  deepStrictEqual(solid.map((g: { symbol: string }) => g.symbol), ["PEPE/USDT"]);
  const confirmed = await (await t.get("/gainers/recent?confirmedOnly=true", t.tokens.basic))
    .json();
  deepStrictEqual(confirmed.map((g: { symbol: string }) => g.symbol), ["PEPE/USDT"]);
  const both =
    await (await t.get("/gainers/recent?hideThin=false&confirmedOnly=false", t.tokens.basic))
      .json();
  assertEquals(both.length, 2);
  await expectError(
    await t.get("/gainers/recent?hideThin=yes", t.tokens.basic),
    400,
    "invalid_request",
    "hideThin must be true or false.",
  );
});

Deno.test("/gainers/recent: an entry from before venue time carries the scan's time as quotedAt", async () => {
  const t = setup();
  t.market.feeds.set(30, [feedRow({ quoted_at: null })]);
  const body = await (await t.get("/gainers/recent", t.tokens.basic)).json();
  assertEquals(body[0].quotedAt, "2026-11-21T10:00:00.000Z");
  assertEquals(body[0].confirmedAt, "2026-11-21T10:00:00.000Z");
});

Deno.test("/gainers/recent: confirmedAt is the quote's time when the venue confirmed nothing later", async () => {
  const t = setup();
  t.market.feeds.set(30, [
    feedRow({ confirmed_at: null }),
    feedRow({
      id: 12,
      instrument_id: 8,
      symbol: "X/USDT",
      confirmed_at: "2026-11-21T09:59:50+00:00",
    }),
  ]);
  const body = await (await t.get("/gainers/recent", t.tokens.basic)).json();
  deepStrictEqual(body.map((g: { confirmedAt: string }) => g.confirmedAt), [
    "2026-11-21T09:59:58.500Z",
    "2026-11-21T09:59:58.500Z",
  ]);
});

Deno.test("/gainers/recent?window= picks an offered window", async () => {
  const t = setup();
  t.market.feeds.set(30, [feedRow()]);
  t.market.feeds.set(20, [feedRow({ pct: 4 })]);
  t.market.feeds.set(5, [feedRow({ pct: -2 })]);
  const pro = await (await t.get("/gainers/recent", t.tokens.pro)).json();
  assertEquals(pro.length, 0); // 15 (selected) has no entries
  const pro20 = await (await t.get("/gainers/recent?window=20", t.tokens.pro)).json();
  assertEquals(pro20[0].windowUsed, 20);
  assertEquals(pro20[0].pct20min, 4);
  const ent = await (await t.get("/gainers/recent", t.tokens.ent)).json();
  assertEquals(ent[0].windowUsed, 5);
  assertEquals(ent[0].pct5min, -2);
});

Deno.test("/gainers/recent with a window the plan does not offer is a 403 naming the allowed windows", async () => {
  const t = setup();
  const basic = await expectError(
    await t.get("/gainers/recent?window=5", t.tokens.basic),
    403,
    "window_not_allowed",
  );
  assertEquals(
    basic.message,
    "The basic plan does not offer a 5-minute window. Allowed windows (minutes): 30.",
  );
  const pro = await expectError(
    await t.get("/gainers/recent?window=0", t.tokens.pro),
    403,
    "window_not_allowed",
  );
  assertEquals(
    pro.message,
    "The pro plan does not offer a 0-minute window. Allowed windows (minutes): 15, 20, 25 or 30.",
  );
});

Deno.test("/gainers/recent refuses malformed windows with 400", async () => {
  const t = setup();
  for (const w of ["abc", "-5", "7", "1.5", "", "99999", "30x"]) {
    const body = await expectError(
      await t.get(`/gainers/recent?window=${encodeURIComponent(w)}`, t.tokens.ent),
      400,
      "invalid_request",
    );
    ok(body.message.startsWith("window must be one of 0, 5, 10, 15, 20, 25, 30"), body.message);
  }
});

Deno.test("database refusals map to statuses; anything else is a 500", async () => {
  const t = setup();
  const cases = [
    [{ code: "PT403", message: "Active subscription required" }, 403, "subscription_required"],
    [
      { code: "42501", message: "permission denied for function movers_feed" },
      403,
      "subscription_required",
    ],
    [{ code: "PGRST303", message: "JWT expired" }, 401, "unauthorized"],
    [{ code: "22P02", message: "invalid input syntax for type integer" }, 400, "invalid_request"],
    [{ code: "XX000", message: "boom" }, 500, "internal_error"],
  ] as const;
  for (const [error, status, code] of cases) {
    t.market.failNext = error;
    await expectError(await t.get("/gainers/recent", t.tokens.pro), status, code);
  }
});

// ---------------------------------------------------------------------------------------------
// GET /api/gainers/history/{symbol}
// ---------------------------------------------------------------------------------------------

function seedHistory(t: ReturnType<typeof setup>) {
  t.market.instrumentRows.push(
    { id: 7, symbol: "PEPE/USDT", exchange: "Binance" },
    { id: 3, symbol: "PEPE/USDT", exchange: "Bybit" },
    { id: 9, symbol: "SOLO/USDC", exchange: "Coinbase" },
  );
  const minutes = (m: number) => new Date(NOW - m * 60_000).toISOString();
  t.market.history.set(7, [
    { ts: minutes(200), price: 0.5, volume_24h: null }, // older than 3 hours
    { ts: minutes(10), price: "1.25", volume_24h: "900" },
    { ts: minutes(0), price: 1.5, volume_24h: null },
  ]);
  t.market.history.set(3, [{ ts: minutes(5), price: 2, volume_24h: null }]);
  t.market.history.set(9, [{ ts: minutes(1), price: 3, volume_24h: null }]);
}

Deno.test("/gainers/history answers the last 3 hours as { ts, price }, oldest first", async () => {
  const t = setup();
  seedHistory(t);
  const res = await t.get("/gainers/history/SOLO%2FUSDC", t.tokens.pro);
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json(), [{ ts: new Date(NOW - 60_000).toISOString(), price: 3 }]);
  const call = t.market.calls.find((c) => c.call === "priceHistory")!;
  deepStrictEqual(call.args, [9, new Date(NOW - 3 * 3600_000).toISOString()]);
});

Deno.test("/gainers/history accepts the symbol encoded or as is", async () => {
  const t = setup();
  seedHistory(t);
  const encoded = await (await t.get("/gainers/history/SOLO%2FUSDC", t.tokens.pro)).json();
  const raw = await (await t.get("/gainers/history/SOLO/USDC", t.tokens.pro)).json();
  deepStrictEqual(raw, encoded);
  assertEquals(raw.length, 1);
});

Deno.test("a symbol on several venues: ?exchange= picks one, else the strongest current mover, else the oldest", async () => {
  const t = setup();
  seedHistory(t);
  // ?exchange=
  const bybit = await (await t.get("/gainers/history/PEPE%2FUSDT?exchange=Bybit", t.tokens.pro))
    .json();
  assertEquals(bybit.length, 1);
  assertEquals(bybit[0].price, 2);
  // No mover in the caller's list (pro: 15 minutes): the oldest instrument (id 3, Bybit).
  const oldest = await (await t.get("/gainers/history/PEPE%2FUSDT", t.tokens.pro)).json();
  assertEquals(oldest[0].price, 2);
  // The strongest entry of the caller's list with that symbol: Binance (instrument 7).
  t.market.feeds.set(15, [
    feedRow({ instrument_id: 99, symbol: "OTHER/USDT" }),
    feedRow({ instrument_id: 7 }),
    feedRow({ instrument_id: 3, exchange: "Bybit" }),
  ]);
  const strongest = await (await t.get("/gainers/history/PEPE%2FUSDT", t.tokens.pro)).json();
  deepStrictEqual(strongest.map((p: { price: number }) => p.price), [1.25, 1.5]);
});

Deno.test("an unknown symbol (or venue) is a 404; a bad symbol or exchange a 400", async () => {
  const t = setup();
  seedHistory(t);
  for (const kind of ["history", "analysis"]) {
    await expectError(
      await t.get(`/gainers/${kind}/NOPE%2FUSDT`, t.tokens.pro),
      404,
      "unknown_symbol",
      "No market data for NOPE/USDT.",
    );
    await expectError(
      await t.get(`/gainers/${kind}/PEPE%2FUSDT?exchange=Kraken`, t.tokens.pro),
      404,
      "unknown_symbol",
      "No market data for PEPE/USDT on Kraken.",
    );
    await expectError(
      await t.get(`/gainers/${kind}/${"A".repeat(65)}`, t.tokens.pro),
      400,
      "invalid_request",
    );
    await expectError(
      await t.get(`/gainers/${kind}/PEPE%2FUSDT?exchange=`, t.tokens.pro),
      400,
      "invalid_request",
    );
  }
  // No symbol at all: no such route.
  await expectError(await t.get("/gainers/history/", t.tokens.pro), 404, "not_found");
});

// ---------------------------------------------------------------------------------------------
// GET /api/gainers/analysis/{symbol}
// ---------------------------------------------------------------------------------------------

/** A steady climb: one sample a minute over the last two hours. */
function climbing(minutes = 120, volume: number | null = 5_000_000) {
  return Array.from({ length: minutes + 1 }, (_, i) => ({
    ts: new Date(NOW - (minutes - i) * 60_000).toISOString(),
    price: 100 * (1 + 0.001 * i),
    volume_24h: i === minutes ? null : volume,
  }));
}

Deno.test("/gainers/analysis answers the shared analysis of the last 3 hours", async () => {
  const t = setup();
  t.market.instrumentRows.push({ id: 5, symbol: "UP/USDT", exchange: "Binance" });
  t.market.history.set(5, climbing());
  const res = await t.get("/gainers/analysis/UP%2FUSDT", t.tokens.pro);
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.symbol, "UP/USDT");
  assertEquals(body.exchange, "Binance");
  assertEquals(body.enoughData, true);
  assertEquals(body.trend, "bullish");
  assertEquals(body.forecast, "up");
  assertEquals(body.dataPoints, 121);
  assertEquals(body.timeframe, "2h");
  // The newest known volume (5M, the last sample has none): good liquidity.
  assertEquals(body.liquidityScore, "good");
  ok(body.riskScore >= 1 && body.riskScore <= 5);
  assertEquals(
    body.riskText,
    body.riskScore >= 4 ? "low" : body.riskScore >= 3 ? "medium" : "high",
  );
  for (const key of ["confidence", "forecastPct", "momentum", "volatility"]) ok(key in body, key);
});

Deno.test("/gainers/analysis without volume in the history uses the mover's volume", async () => {
  const t = setup();
  t.market.instrumentRows.push(
    { id: 5, symbol: "UP/USDT", exchange: "Binance" },
    { id: 6, symbol: "UP/USDT", exchange: "Gate" },
  );
  t.market.history.set(6, climbing(120, null));
  t.market.feeds.set(15, [feedRow({ instrument_id: 6, symbol: "UP/USDT", volume_24h: 50 })]);
  const body = await (await t.get("/gainers/analysis/UP%2FUSDT", t.tokens.pro)).json();
  assertEquals(body.exchange, "Gate");
  assertEquals(body.liquidityScore, "poor");
});

Deno.test("/gainers/analysis with too little history is a 200 with enoughData: false", async () => {
  const t = setup();
  t.market.instrumentRows.push({ id: 5, symbol: "NEW/USDT", exchange: "Binance" });
  t.market.history.set(5, climbing(8));
  const res = await t.get("/gainers/analysis/NEW%2FUSDT", t.tokens.pro);
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json(), {
    symbol: "NEW/USDT",
    exchange: "Binance",
    enoughData: false,
    dataPoints: 9,
    message: "Not enough data for analysis",
  });
});

// ---------------------------------------------------------------------------------------------
// GET /api/signals/recent
// ---------------------------------------------------------------------------------------------

const signalRow = (id: number) => ({
  id,
  symbol: "PEPE/USDT",
  exchange: "Binance",
  exchange_type: "cex",
  timeframe: "5min",
  strategy: "rsi",
  signal: "bullish",
  confidence: "0.8",
  confidence_tier: "high",
  price: "1.5",
  volume_24h: null,
  indicator_values: { rsi: 24.5 },
  computed_at: "2026-11-21T11:59:00+00:00",
});

Deno.test("/signals/recent answers camelCased signals, 200 by default", async () => {
  const t = setup();
  t.market.signals = Array.from({ length: 250 }, (_, i) => signalRow(1000 - i));
  const res = await t.get("/signals/recent", t.tokens.basic);
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(body.length, 200);
  deepStrictEqual(body[0], {
    id: 1000,
    symbol: "PEPE/USDT",
    exchange: "Binance",
    exchangeType: "cex",
    timeframe: "5min",
    strategy: "rsi",
    signal: "bullish",
    confidence: 0.8,
    confidenceTier: "high",
    price: 1.5,
    volume24h: null,
    indicatorValues: { rsi: 24.5 },
    computedAt: "2026-11-21T11:59:00.000Z",
  });
  assertEquals((await (await t.get("/signals/recent?limit=5", t.tokens.basic)).json()).length, 5);
  for (const limit of ["0", "501", "x", "-1"]) {
    await expectError(
      await t.get(`/signals/recent?limit=${limit}`, t.tokens.basic),
      400,
      "invalid_request",
    );
  }
});

// ---------------------------------------------------------------------------------------------
// GET /api/sse
// ---------------------------------------------------------------------------------------------

/** Reads the stream until `done(text)` holds (or throws after `ms`). */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  done: (text: string) => boolean,
  ms = 2_000,
  seen = { text: "" },
): Promise<string> {
  const decoder = new TextDecoder();
  const deadline = Date.now() + ms;
  while (!done(seen.text)) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((r) => {
      timer = setTimeout(() => r("timeout"), Math.max(0, deadline - Date.now()));
    });
    const next = await Promise.race([reader.read(), timeout]);
    clearTimeout(timer);
    if (next === "timeout") throw new Error(`timed out; got: ${JSON.stringify(seen.text)}`);
    if (next.done) break;
    seen.text += decoder.decode(next.value, { stream: true });
  }
  return seen.text;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("/sse joins the caller's window and streams each entry of a scan as one data message", async () => {
  const t = setup();
  const ac = new AbortController();
  const res = await t.get("/sse", t.tokens.pro, { signal: ac.signal });
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  assertEquals(res.headers.get("cache-control"), "no-cache, no-transform");
  const reader = res.body!.getReader();
  const seen = { text: "" };
  const opening = await readUntil(reader, (s) => s.includes("event: connected"), 2_000, seen);
  assertEquals(
    opening,
    `: connected\nretry: 5000\n\nid: ${NOW}\nevent: connected\ndata: {"window":15}\n\n`,
  );
  // The caller's token, the selected window (15), checked with movers_feed first.
  const join = t.market.joinsOf(15)[0]!;
  assertEquals(join.token, t.tokens.pro);
  deepStrictEqual(t.market.calls.find((c) => c.call === "moversFeed")!.args, [15]);

  t.market.broadcast(15, {
    window: 15,
    scanned_at: "2026-11-21T12:00:00Z",
    entries: [
      feedRow({ window_used: 15, symbol: "A/USDT" }),
      { junk: true },
      feedRow({ window_used: 15, symbol: "B/USDT", instrument_id: 8 }),
    ],
  });
  // A payload of another window (never expected on this topic) is ignored.
  t.market.broadcast(15, { window: 30, entries: [feedRow({ symbol: "WRONG/USDT" })] });
  const text = await readUntil(reader, (s) => s.includes("B/USDT"), 2_000, seen);
  const messages = text.slice(opening.length).split("\n\n").filter(Boolean);
  assertEquals(messages.length, 2);
  // Every event carries the scan's time as its id (Last-Event-ID on a reconnect).
  const idLine = `id: ${Date.parse("2026-11-21T12:00:00Z")}\n`;
  for (const m of messages) {
    ok(m.startsWith(`${idLine}data: {`) && !m.slice(idLine.length).includes("\n"), m);
  }
  const first = JSON.parse(messages[0]!.slice(`${idLine}data: `.length));
  assertEquals(first.symbol, "A/USDT");
  assertEquals(first.windowUsed, 15);
  assertEquals(first.pct15min, 23.5);
  assertEquals(first.instrumentId, 7);
  ok(!text.includes("WRONG"));

  ac.abort();
  await reader.cancel().catch(() => {});
  await tick();
  assertEquals(join.left, true);
});

Deno.test("/sse entries carry their venue's confirmation as /gainers/recent does, as reported before the scan", async () => {
  // Binance's stream run began at 11:50; its last full poll ran at 11:59:30 and wrote the rows.
  const report = (reportedAt: string, through: string): VenueReading => ({
    source: "binance",
    confirmedSince: "2026-11-21T11:50:00Z",
    confirmedThrough: through,
    reportedAt,
    lastSuccessAt: "2026-11-21T11:59:30Z",
  });
  let readings = [report("2026-11-21T11:59:58.100Z", "2026-11-21T11:59:57.500Z")];
  let reads = 0;
  const t = setup({
    venueReadings: () => {
      reads++;
      return Promise.resolve(readings);
    },
  });
  const ac = new AbortController();
  const res = await t.get("/sse", t.tokens.pro, { signal: ac.signal });
  const reader = res.body!.getReader();
  const seen = { text: "" };
  await readUntil(reader, (s) => s.includes("event: connected"), 2_000, seen);
  const entry = (symbol: string, ts: string, source = "binance") =>
    feedRow({
      window_used: 15,
      symbol,
      source,
      ts,
      quoted_at: "2026-11-21T11:59:29.500Z",
      confirmed_at: undefined,
    });
  const gainers = async (scannedAt: string, entries: unknown[]) => {
    const before = seen.text.length;
    t.market.broadcast(15, { window: 15, scanned_at: scannedAt, entries });
    const last = (entries[entries.length - 1] as { symbol: string }).symbol;
    await readUntil(reader, (s) => s.slice(before).includes(`"symbol":"${last}"`), 2_000, seen);
    return new Map(
      seen.text.slice(before).split("\n\n").filter((m) => m.includes("data: {")).map((m) => {
        const g = JSON.parse(m.slice(m.indexOf("data: ") + 6));
        return [g.symbol, g] as const;
      }),
    );
  };
  const first = await gainers("2026-11-21T12:00:00Z", [
    entry("UNCHANGED/USDT", "2026-11-21T11:59:30Z"),
    // Written before the last full poll: the poll did not include it, its quote holds.
    entry("DELISTED/USDT", "2026-11-21T11:58:00Z"),
    // A venue without a stream report.
    entry("POOL/WETH", "2026-11-21T11:59:40Z", "geckoterminal"),
  ]);
  const unchanged = first.get("UNCHANGED/USDT")!;
  assertEquals(unchanged.quotedAt, "2026-11-21T11:59:29.500Z");
  assertEquals(unchanged.confirmedAt, "2026-11-21T11:59:57.500Z");
  ok(unchanged.confirmedAt !== unchanged.quotedAt);
  assertEquals(first.get("DELISTED/USDT")!.confirmedAt, "2026-11-21T11:59:29.500Z");
  assertEquals(first.get("POOL/WETH")!.confirmedAt, "2026-11-21T11:59:29.500Z");
  assertEquals(reads, 1);

  // A report made after the scan (12:00:01.2) is not applied to it: the newest one before is.
  readings = [report("2026-11-21T12:00:01.200Z", "2026-11-21T12:00:00.900Z")];
  const second = await gainers("2026-11-21T12:00:01Z", [
    entry("UNCHANGED/USDT", "2026-11-21T11:59:30Z"),
  ]);
  assertEquals(reads, 2);
  assertEquals(second.get("UNCHANGED/USDT")!.confirmedAt, "2026-11-21T11:59:57.500Z");
  // The next scan, after that report, gets it; a second window's broadcast of the same scan
  // would share that read.
  const third = await gainers("2026-11-21T12:00:02Z", [
    entry("UNCHANGED/USDT", "2026-11-21T11:59:30Z"),
  ]);
  assertEquals(reads, 3);
  // A broadcast of a scan from before the last read (another window's) reads nothing again.
  await gainers("2026-11-21T11:59:59Z", [entry("UNCHANGED/USDT", "2026-11-21T11:59:30Z")]);
  assertEquals(reads, 3);
  assertEquals(third.get("UNCHANGED/USDT")!.confirmedAt, "2026-11-21T12:00:00.900Z");
  ac.abort();
  await reader.cancel().catch(() => {});
});

Deno.test("/sse?window= streams an offered window; other windows are refused before streaming", async () => {
  const t = setup();
  const ok30 = await t.get("/sse?window=30", t.tokens.pro);
  assertEquals(ok30.status, 200);
  assertEquals(t.market.joinsOf(30).length, 1);
  await ok30.body!.cancel();
  await tick();
  assertEquals(t.market.joinsOf(30)[0]!.left, true);

  const refused = await expectError(
    await t.get("/sse?window=5", t.tokens.pro),
    403,
    "window_not_allowed",
  );
  ok(refused.message.includes("15, 20, 25 or 30"));
  await expectError(await t.get("/sse?window=abc", t.tokens.pro), 400, "invalid_request");
  assertEquals(t.market.joinsOf(5).length, 0);
});

Deno.test("/sse reads the caller and the window's movers in one request (decision 0071)", async () => {
  const t = setup();
  const ac = new AbortController();
  const res = await t.get("/sse?window=20", t.tokens.pro, { signal: ac.signal });
  assertEquals(res.status, 200);
  await readUntil(res.body!.getReader(), (s) => s.includes("event: connected"));
  ac.abort();
  const mine = t.market.calls.filter((c) => c.token === t.tokens.pro);
  // The fake's movers_stream_open asks its movers_feed; then the join. No second feed read.
  deepStrictEqual(mine.map((c) => [c.call, c.args]), [
    ["openMovers", [20]],
    ["moversFeed", [20]],
    ["joinMovers", [20, 500]],
  ]);
  // The refusals keep their order and codes: 401, 403 banned, 403 subscription_required, the
  // window's 403, and a malformed window's 400 after the subscriber check.
  await expectError(await t.get("/sse", null), 401, "unauthorized");
  await expectError(await t.get("/sse", "no-such-token"), 401, "unauthorized");
  await expectError(await t.get("/sse", t.tokens.banned), 403, "banned");
  await expectError(await t.get("/sse", t.tokens.lapsed), 403, "subscription_required");
  await expectError(await t.get("/sse?window=5", t.tokens.basic), 403, "window_not_allowed");
  await expectError(await t.get("/sse?window=7", t.tokens.free), 403, "subscription_required");
  await expectError(await t.get("/sse?window=7", t.tokens.pro), 400, "invalid_request");
});

Deno.test("/sse: a refused join is a 403 JSON, a silent Realtime a 503, and nothing streams", async () => {
  const t = setup();
  t.market.nextJoin = "refuse";
  await expectError(await t.get("/sse", t.tokens.basic), 403, "stream_refused");
  t.market.nextJoin = "timeout";
  const unavailable = await t.get("/sse", t.tokens.basic);
  assertEquals(unavailable.headers.get("retry-after"), "5");
  await expectError(unavailable, 503, "realtime_unavailable");
  assertEquals(t.market.joins.length, 0);
});

Deno.test("/sse: when the channel ends, an error event is sent and the stream closes", async () => {
  const t = setup();
  const res = await t.get("/sse", t.tokens.basic);
  const reader = res.body!.getReader();
  const seen = { text: "" };
  await readUntil(reader, (s) => s.includes("event: connected"), 2_000, seen);
  const join = t.market.joinsOf(30)[0]!;
  join.handlers.onEnd("Token has expired");
  const text = await readUntil(reader, () => false, 2_000, seen).catch((e) => String(e));
  ok(
    seen.text.endsWith(
      'event: error\ndata: {"error":"stream_closed","message":"Token has expired"}\n\n',
    ),
    text,
  );
  assertEquals((await reader.read()).done, true);
  await tick();
  assertEquals(join.left, true);
});

Deno.test("/sse re-checks its caller in one request each time, and a ban ends the stream", async () => {
  const t = setup({ reauthMs: 20 });
  const res = await t.get("/sse", t.tokens.pro);
  const reader = res.body!.getReader();
  const seen = { text: "" };
  await readUntil(reader, (s) => s.includes("event: connected"), 2_000, seen);
  const checks = () =>
    t.market.calls.filter((c) => c.token === t.tokens.pro && c.call === "sessionCaller").length;
  // A few re-checks pass while the plan holds; each is one session_caller request.
  for (const until = Date.now() + 5_000; checks() < 3;) {
    if (Date.now() > until) throw new Error(`${checks()} session_caller re-checks in 5 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  ok(!seen.text.includes("event: error"), seen.text);
  t.market.callers.get(t.tokens.pro)!.banned = true;
  await readUntil(reader, (s) => s.includes("event: error"), 2_000, seen);
  ok(seen.text.endsWith('event: error\ndata: {"error":"Your account is banned."}\n\n'), seen.text);
  assertEquals((await reader.read()).done, true);
  await tick();
  assertEquals(t.market.joinsOf(15)[0]!.left, true);
  const mine = t.market.calls.filter((c) => c.token === t.tokens.pro).map((c) => c.call);
  // After the connect's own requests, nothing but the one-request re-checks.
  deepStrictEqual([...new Set(mine.slice(3))], ["sessionCaller"]);
});

Deno.test("/sse sends a keep-alive comment periodically", async () => {
  const t = setup({ keepAliveMs: 20 });
  const ac = new AbortController();
  const res = await t.get("/sse", t.tokens.ent, { signal: ac.signal });
  const reader = res.body!.getReader();
  const text = await readUntil(reader, (s) => s.includes(": keep-alive\n\n"));
  ok(text.startsWith(": connected\n"));
  ac.abort();
  await reader.cancel().catch(() => {});
  await tick();
  assertEquals(t.market.joinsOf(5)[0]!.left, true);
});

Deno.test("/sse: a client gone during the join still leaves the channel", async () => {
  const t = setup();
  const ac = new AbortController();
  const db = t.market.factory;
  // Abort while joining: the fake's join resolves after the abort.
  const app = createApiApp({
    env: envFrom({}),
    db: (env, token) => {
      const inner = db(env, token);
      return {
        ...inner,
        joinMovers: async (w, h, ms) => {
          ac.abort();
          return await inner.joinMovers(w, h, ms);
        },
      };
    },
    keepAliveMs: 60_000,
  });
  const res = await app.fetch(
    new Request("http://local/api/sse", {
      headers: { authorization: `Bearer ${t.tokens.basic}` },
      signal: ac.signal,
    }),
  );
  await res.body?.cancel().catch(() => {});
  await tick();
  assertEquals(t.market.joinsOf(30)[0]!.left, true);
});

// ---------------------------------------------------------------------------------------------
// The Pro data: GET /api/gainers/candles/{symbol}, /api/gainers/insights/{symbol},
// /api/charts/compare (decision 0035: the database refuses Basic with PT403 pro_required)
// ---------------------------------------------------------------------------------------------

function seedPro(t: ReturnType<typeof setup>) {
  t.market.instrumentRows.push(
    { id: 1, symbol: "BTC/USDT", exchange: "Binance" },
    { id: 2, symbol: "ETH/USDT", exchange: "Binance" },
  );
  t.market.candleRows.set("1:1h", [
    {
      bucket: "2026-11-21T10:00:00+00:00",
      open: "100",
      high: "110.5",
      low: 99,
      close: "105",
      volume: "1200.5",
    },
    {
      bucket: "2026-11-21T11:00:00+00:00",
      open: 105,
      high: 106,
      low: 101,
      close: 102,
      volume: null,
    },
  ]);
  t.market.insightRows.set(1, {
    instrument_id: 1,
    symbol: "BTC/USDT",
    as_of: "2026-11-21T11:55:00+00:00",
    move_1h_pct: "2.5",
    comparison: {
      hours: 700,
      occurrences: 12,
      after_1h: { avg_pct: 0.4, samples: 12 },
      after_4h: { avg_pct: -0.2, samples: 11 },
      after_24h: { avg_pct: null, samples: 0 },
    },
    percentile: 91.5,
    btc_correlation: null,
    btc_correlation_pairs: 0,
    btc_instrument_id: 1,
    volatility: {
      regime: "wild",
      stddev_24h_pct: 1.9,
      stddev_30d_pct: 0.8,
      samples_24h: 23,
      samples_30d: 700,
    },
    drawdown: { pct: 3.1, peak_at: "2026-11-21T02:00:00+00:00", trough_at: null },
  });
  t.market.comparePoints.set(1, [[Date.parse("2026-11-21T10:00:00Z"), 0], [
    Date.parse("2026-11-21T10:05:00Z"),
    1.25,
  ]]);
  t.market.comparePoints.set(2, [[Date.parse("2026-11-21T10:00:00Z"), 0]]);
}

Deno.test("/gainers/candles answers Pro the chosen resolution's candles as numbers", async () => {
  const t = setup();
  seedPro(t);
  const res = await t.get("/gainers/candles/BTC%2FUSDT?resolution=1h", t.tokens.pro);
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json(), [
    {
      ts: "2026-11-21T10:00:00.000Z",
      open: 100,
      high: 110.5,
      low: 99,
      close: 105,
      volume: 1200.5,
    },
    { ts: "2026-11-21T11:00:00.000Z", open: 105, high: 106, low: 101, close: 102, volume: null },
  ]);
  // 5m by default; an unknown resolution is 400 before the database is asked.
  await t.get("/gainers/candles/BTC%2FUSDT", t.tokens.ent);
  deepStrictEqual(t.market.calls.filter((c) => c.call === "candles").map((c) => c.args), [
    [1, "1h"],
    [1, "5m"],
  ]);
  await expectError(
    await t.get("/gainers/candles/BTC%2FUSDT?resolution=15m", t.tokens.pro),
    400,
    "invalid_request",
    "resolution must be 5m, 1h or 4h.",
  );
});

Deno.test("the Pro routes answer Basic 403 pro_required, like the RPCs", async () => {
  const t = setup();
  seedPro(t);
  for (
    const path of [
      "/gainers/candles/BTC%2FUSDT?resolution=4h",
      "/gainers/insights/BTC%2FUSDT",
      "/charts/compare?symbols=BTC%2FUSDT,ETH%2FUSDT",
    ]
  ) {
    await expectError(await t.get(path, t.tokens.basic), 403, "pro_required", MESSAGES.proRequired);
    await expectError(await t.get(path, t.tokens.free), 403, "subscription_required");
    await expectError(await t.get(path, t.tokens.lapsed), 403, "subscription_required");
    await expectError(await t.get(path, t.tokens.banned), 403, "banned");
    await expectError(await t.get(path), 401, "unauthorized");
  }
});

Deno.test("/gainers/insights answers the comparison and analytics in camelCase", async () => {
  const t = setup();
  seedPro(t);
  const res = await t.get("/gainers/insights/BTC%2FUSDT", t.tokens.pro);
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json(), {
    instrumentId: 1,
    symbol: "BTC/USDT",
    exchange: "Binance",
    asOf: "2026-11-21T11:55:00.000Z",
    move1hPct: 2.5,
    comparison: {
      hours: 700,
      occurrences: 12,
      after1h: { avgPct: 0.4, samples: 12 },
      after4h: { avgPct: -0.2, samples: 11 },
      after24h: { avgPct: null, samples: 0 },
    },
    percentile: 91.5,
    btcCorrelation: null,
    btcCorrelationPairs: 0,
    btcInstrumentId: 1,
    volatility: {
      regime: "wild",
      stddev24hPct: 1.9,
      stddev30dPct: 0.8,
      samples24h: 23,
      samples30d: 700,
    },
    drawdown: { pct: 3.1, peakAt: "2026-11-21T02:00:00.000Z", troughAt: null },
  });
  await expectError(
    await t.get("/gainers/insights/NOPE%2FUSDT", t.tokens.pro),
    404,
    "unknown_symbol",
  );
});

Deno.test("/charts/compare normalises two to four symbols; bad lists are 400", async () => {
  const t = setup();
  seedPro(t);
  const res = await t.get("/charts/compare?symbols=BTC%2FUSDT,ETH%2FUSDT&range=7d", t.tokens.pro);
  assertEquals(res.status, 200);
  deepStrictEqual(await res.json(), [
    {
      instrumentId: 1,
      symbol: "BTC/USDT",
      exchange: "Binance",
      points: [
        { ts: "2026-11-21T10:00:00.000Z", pct: 0 },
        { ts: "2026-11-21T10:05:00.000Z", pct: 1.25 },
      ],
    },
    {
      instrumentId: 2,
      symbol: "ETH/USDT",
      exchange: "Binance",
      points: [{ ts: "2026-11-21T10:00:00.000Z", pct: 0 }],
    },
  ]);
  deepStrictEqual(t.market.calls.find((c) => c.call === "compare")!.args, [[1, 2], "7d"]);
  for (
    const query of [
      "symbols=BTC%2FUSDT",
      "symbols=BTC%2FUSDT,BTC%2FUSDT",
      "symbols=A,B,C,D,E",
      "symbols=BTC%2FUSDT,ETH%2FUSDT&range=1y",
      "",
    ]
  ) {
    await expectError(
      await t.get(`/charts/compare?${query}`, t.tokens.pro),
      400,
      "invalid_request",
    );
  }
  await expectError(
    await t.get("/charts/compare?symbols=BTC%2FUSDT,NOPE%2FUSDT", t.tokens.pro),
    404,
    "unknown_symbol",
  );
});
