import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { type MarketSource, type Quote, SCAN_GROUP } from "../_shared/domain/market.ts";
import { envFrom } from "../_shared/env.ts";
import { createBinanceAdapter } from "../_shared/market/binance.ts";
import { MarketSourceError } from "../_shared/market/types.ts";
import { createSimulatedAdapter } from "../_shared/market/simulated.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "../_shared/market/testing.ts";
import type { HistoryBatch, MarketAdapter } from "../_shared/market/types.ts";
import {
  BACKFILL_IDLE_MS,
  BACKFILL_SPAN_MS,
  type BackfillResult,
  createScanApp,
  type IngestResult,
  type PollingState,
  type ScanDb,
  type ScanDeps,
  type SourceHealth,
} from "./app.ts";
import { type ReplayedSignalRow, replayedSignalRows } from "./signals.ts";

const SERVICE_KEY = "sb_secret_test_service_key_0123456789";
const SCAN_SECRET = "scan-secret-from-pg-cron-9f8e7d6c5b4a";
const NOW = new Date("2026-03-02T12:00:00.000Z");

class FakeScanDb implements ScanDb {
  pollingState?: ScanDb["pollingState"];
  calls: { quotes: Quote[]; scannedAt: string; group?: string }[] = [];
  result: IngestResult = {
    instruments: 0,
    movers: 0,
    stale: 0,
    pruned: 0,
    broadcasts: 1,
    skipped: 0,
  };
  ingest(quotes: Quote[], scannedAt: string, group?: string): Promise<IngestResult> {
    this.calls.push({ quotes, scannedAt, ...(group ? { group } : {}) });
    return Promise.resolve({ ...this.result, instruments: quotes.length, movers: quotes.length });
  }
}

function failing(source: MarketSource, message: string): MarketAdapter {
  return { source, fetchQuotes: () => Promise.reject(new Error(message)) };
}

function setup(env: Record<string, string | undefined> = {}, deps: Partial<ScanDeps> = {}) {
  const db = new FakeScanDb();
  const signals: string[] = [];
  const app = createScanApp({
    env: envFrom({
      SUPABASE_URL: "http://127.0.0.1:1",
      SUPABASE_SERVICE_ROLE_KEY: SERVICE_KEY,
      SCAN_SECRET,
      ...env,
    }),
    now: () => NOW,
    db: () => db,
    signals: (ctx) => {
      signals.push(ctx.scannedAt);
      return Promise.resolve(5);
    },
    ...deps,
  });
  const call = (auth: string | null = SERVICE_KEY, method = "POST") =>
    app.fetch(
      new Request("http://local/scan", {
        method,
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
      }),
    );
  return { app, db, call, signals };
}

Deno.test("scan: no token, a wrong token or a user's token is refused with 401", async () => {
  const t = setup();
  for (const auth of [null, "wrong", `${SERVICE_KEY}x`, "eyJhbGciOiJIUzI1NiJ9.e30.sig"]) {
    const res = await t.call(auth);
    assertEquals(res.status, 401);
    assertEquals((await res.json()).error, "unauthorized");
  }
  assertEquals(t.db.calls.length, 0);
});

Deno.test("scan: the service-role key (either name) and SCAN_SECRET are accepted", async () => {
  for (
    const [env, token] of [
      [{}, SERVICE_KEY],
      [{}, SCAN_SECRET],
      [
        { SUPABASE_SERVICE_ROLE_KEY: undefined, SUPABASE_SECRET_KEY: "sb_secret_new" },
        "sb_secret_new",
      ],
    ] as const
  ) {
    const t = setup(env);
    const res = await t.call(token);
    assertEquals(res.status, 200, token);
    assertEquals(t.db.calls.length, 1);
  }
});

Deno.test("scan: without any accepted secret configured the scan says so (500)", async () => {
  const t = setup({ SUPABASE_SERVICE_ROLE_KEY: undefined, SCAN_SECRET: undefined });
  const res = await t.call("anything");
  assertEquals(res.status, 500);
  assertEquals((await res.json()).error, "scan_not_configured");
});

Deno.test("scan: other methods get 405", async () => {
  const t = setup();
  for (const method of ["GET", "PUT", "DELETE"]) {
    const res = await t.call(SERVICE_KEY, method);
    assertEquals(res.status, 405);
    assertEquals(res.headers.get("allow"), "POST");
  }
});

Deno.test("scan: the simulated market by default, ingested once with the scan time", async () => {
  const t = setup();
  const res = await t.call();
  assertEquals(res.status, 200);
  const body = await res.json();
  assertEquals(t.db.calls.length, 1);
  const [{ quotes, scannedAt }] = t.db.calls;
  assertEquals(scannedAt, NOW.toISOString());
  ok(quotes.length >= 280);
  ok(quotes.every((q) => q.source === "simulated"));
  deepStrictEqual(Object.keys(body.sources), ["simulated"]);
  deepStrictEqual(body.sources.simulated, {
    quotes: quotes.length,
    skipped: 0,
    inactive: 0,
    illiquid: 0,
    // The simulated market's cadence is SCAN_INTERVAL_SECONDS (10 s by default).
    cadenceSeconds: 10,
    lastQuoteAt: NOW.toISOString(),
  });
  deepStrictEqual(body.ingest, {
    instruments: quotes.length,
    movers: quotes.length,
    stale: 0,
    pruned: 0,
    broadcasts: 1,
    skipped: 0,
  });
  deepStrictEqual(body.signals, { computed: 5 });
  deepStrictEqual(t.signals, [NOW.toISOString()]);
  ok(typeof body.durationMs === "number" && body.durationMs >= 0);
});

Deno.test("scan: a failing source is reported and the others are still ingested, each in its own call", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(ticker));
  const t = setup({ MARKET_SOURCES: "binance, coinbase,dex,simulated" }, {
    fetch: f.fetch,
    adapters: {
      binance: createBinanceAdapter(),
      coinbase: failing("coinbase", "api.coinbase.com answered HTTP 503"),
      dex: failing("dex", "api.geckoterminal.com did not answer within 8000 ms"),
      simulated: createSimulatedAdapter(),
    },
  });
  const res = await t.call(SCAN_SECRET);
  assertEquals(res.status, 200);
  const body = await res.json();
  deepStrictEqual(body.sources.binance, {
    quotes: 13,
    skipped: 2,
    inactive: 2,
    illiquid: 0,
    cadenceSeconds: 2,
    lastQuoteAt: "2026-03-02T12:00:00.123Z",
  });
  deepStrictEqual(body.sources.coinbase, {
    quotes: 0,
    skipped: 0,
    inactive: 0,
    illiquid: 0,
    error: "api.coinbase.com answered HTTP 503",
    failure: "other",
    cadenceSeconds: 2,
  });
  assertEquals(body.sources.dex.error, "api.geckoterminal.com did not answer within 8000 ms");
  // One ingest per venue that delivered: Binance's and the simulated market's, apart.
  assertEquals(t.db.calls.length, 2);
  deepStrictEqual(
    t.db.calls.map((c) => [...new Set(c.quotes.map((q) => q.source))]).sort(),
    [["binance"], ["simulated"]],
  );
  assertEquals(
    t.db.calls.reduce((n, c) => n + c.quotes.length, 0),
    13 + body.sources.simulated.quotes,
  );
  assertEquals(body.ingest.instruments, 13 + body.sources.simulated.quotes);
});

Deno.test("scan: a rate-limited source reports when it may be called again", async () => {
  const f = fakeFetch(() => jsonResponse({ code: -1003 }, 429, { "retry-after": "120" }));
  const t = setup({ MARKET_SOURCES: "binance" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter() },
  });
  const first = await (await t.call()).json();
  deepStrictEqual(first.sources.binance, {
    quotes: 0,
    skipped: 0,
    inactive: 0,
    illiquid: 0,
    backoffUntil: "2026-03-02T12:02:00.000Z",
    cadenceSeconds: 2,
  });
  // The adapter lives as long as the app (the worker): the next scan does not call Binance.
  const second = await (await t.call()).json();
  assertEquals(second.sources.binance.backoffUntil, "2026-03-02T12:02:00.000Z");
  assertEquals(f.calls.length, 1);
  assertEquals(t.db.calls.length, 2);
});

Deno.test("scan: an answer with no usable row is a failed scan of that source, with its counts", async () => {
  // Binance answering [] and Binance answering rows of another endpoint (ticker/price).
  for (
    const [answer, counts, message] of [
      [[], { skipped: 0, inactive: 0, illiquid: 0 }, "ticker/24hr returned no rows"],
      [
        [{ symbol: "BTCUSDT", price: "66909.89000000" }, { symbol: "ETHUSDT", price: "3398.17" }],
        { skipped: 2, inactive: 0, illiquid: 0 },
        "ticker/24hr returned 2 rows and none usable (2 malformed, 0 inactive, 0 illiquid)",
      ],
    ] as const
  ) {
    const f = fakeFetch(() => jsonResponse(answer));
    const t = setup({ MARKET_SOURCES: "binance,simulated" }, {
      fetch: f.fetch,
      adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
    });
    const body = await (await t.call()).json();
    deepStrictEqual(body.sources.binance, {
      quotes: 0,
      ...counts,
      error: message,
      failure: "empty",
      cadenceSeconds: 2,
    });
    // The other sources are still ingested.
    ok(body.sources.simulated.quotes > 0);
    assertEquals(t.db.calls.length, 1);
  }
});

Deno.test("scan: BINANCE_API_URL, COINBASE_API_URL and GECKOTERMINAL_API_URL point the venues elsewhere", async () => {
  const bodies: Record<string, unknown> = {
    "http://127.0.0.1:9/binance/api/v3/ticker/24hr": await loadMarketFixture(
      "binance-ticker-24hr",
    ),
    "https://cb.mirror.example/api/v3/brokerage/market/products?product_type=SPOT":
      await loadMarketFixture("coinbase-products"),
  };
  const f = fakeFetch((url) =>
    url in bodies
      ? jsonResponse(bodies[url])
      : url.startsWith("http://localhost:8787/v2/networks/")
      ? jsonResponse({ data: [] })
      : new Response("not this host", { status: 404 })
  );
  const t = setup({
    MARKET_SOURCES: "binance,coinbase,dex",
    BINANCE_API_URL: "http://127.0.0.1:9/binance/",
    COINBASE_API_URL: "https://cb.mirror.example",
    GECKOTERMINAL_API_URL: "http://localhost:8787/v2",
  }, { fetch: f.fetch, adapters: undefined });
  const body = await (await t.call()).json();
  assertEquals(body.sources.binance.quotes, 13);
  assertEquals(body.sources.coinbase.quotes, 10);
  ok(/no rows/.test(body.sources.dex.error), body.sources.dex.error);
  assertEquals(f.calls.length, 3);
  ok(f.calls.every((c) => !/binance\.com|coinbase\.com|geckoterminal\.com/.test(c.url)));
});

Deno.test("scan: a base URL that is not an http(s) URL fails that venue, not the scan", async () => {
  const t = setup({
    MARKET_SOURCES: "binance,simulated",
    BINANCE_API_URL: "ftp://mirror.example",
  }, { adapters: undefined });
  const res = await t.call();
  assertEquals(res.status, 200);
  const body = await res.json();
  ok(/BINANCE_API_URL must be an http\(s\) URL/.test(body.sources.binance.error));
  ok(body.sources.simulated.quotes > 0);
});

Deno.test("scan: an unknown MARKET_SOURCES name is a configuration error", async () => {
  const t = setup({ MARKET_SOURCES: "simulated,kraken" });
  const res = await t.call();
  assertEquals(res.status, 500);
  const body = await res.json();
  assertEquals(body.error, "market_sources_invalid");
  ok(body.message.includes("kraken"));
  assertEquals(t.db.calls.length, 0);
});

Deno.test("scan: a failing ingest fails the scan (500); failing signals do not", async () => {
  const broken = setup({}, {
    db: () => ({ ingest: () => Promise.reject(new Error("ingest_scan failed: connection reset")) }),
  });
  assertEquals((await broken.call()).status, 500);

  const t = setup({}, { signals: () => Promise.reject(new Error("strategy_signals: timeout")) });
  const res = await t.call();
  assertEquals(res.status, 200);
  deepStrictEqual((await res.json()).signals, { computed: 0, error: "strategy_signals: timeout" });
});

Deno.test("scan: every scan call carries SCAN_GROUP, one source or several (decision 0104, round 2)", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(ticker));
  const t = setup({ MARKET_SOURCES: "binance,simulated" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
  });
  assertEquals((await t.call()).status, 200);
  assertEquals(t.db.calls.length, 2);
  deepStrictEqual(t.db.calls.map((c) => c.group), [SCAN_GROUP, SCAN_GROUP]);
  ok(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(SCAN_GROUP));
  // The next scan, another invocation's in production, carries the same group.
  assertEquals((await t.call()).status, 200);
  deepStrictEqual(new Set(t.db.calls.map((c) => c.group)), new Set([SCAN_GROUP]));

  // A per-venue scan (production's schedules, decision 0033) is grouped too.
  const one = setup();
  assertEquals((await one.call()).status, 200);
  assertEquals(one.db.calls.length, 1);
  assertEquals(one.db.calls[0]!.group, SCAN_GROUP);
});

Deno.test("scan: when a scan call fails, an empty ingest publishes what the others left to it (decision 0104)", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(ticker));
  const db = new FakeScanDb();
  const ingest = db.ingest.bind(db);
  db.ingest = (quotes, scannedAt, group) =>
    quotes.some((q) => q.source === "binance")
      ? Promise.reject(
        new Error("ingest_scan failed: canceling statement due to statement timeout"),
      )
      : ingest(quotes, scannedAt, group);
  const t = setup({ MARKET_SOURCES: "binance,simulated" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
    db: () => db,
  });
  assertEquals((await t.call()).status, 500);
  // The simulated market's call (grouped), then the empty publishing call (not grouped).
  assertEquals(db.calls.length, 2);
  assertEquals(db.calls[0]!.group, SCAN_GROUP);
  ok(db.calls[0]!.quotes.length > 0);
  deepStrictEqual(db.calls[1], { quotes: [], scannedAt: NOW.toISOString() });

  // A call that left its rows to a call in flight (deferred) is the normal case: the database
  // waits only for calls whose transaction is in progress, so no empty ingest follows.
  const late = new FakeScanDb();
  const lateIngest = late.ingest.bind(late);
  late.ingest = async (quotes, scannedAt, group) => {
    const r = await lateIngest(quotes, scannedAt, group);
    return group ? { ...r, deferred: true } : r;
  };
  const l = setup({ MARKET_SOURCES: "binance,simulated" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
    db: () => late,
  });
  assertEquals((await l.call()).status, 200);
  assertEquals(late.calls.length, 2);
  ok(late.calls.every((c) => c.group === SCAN_GROUP));

  // A per-venue scan whose call fails makes the empty ingest too: another invocation's call may
  // have left its rows to it.
  const single = new FakeScanDb();
  const singleIngest = single.ingest.bind(single);
  single.ingest = (quotes, scannedAt, group) =>
    group
      ? Promise.reject(new Error("ingest_scan failed: connection reset"))
      : singleIngest(quotes, scannedAt, group);
  const s = setup({}, { db: () => single });
  assertEquals((await s.call()).status, 500);
  deepStrictEqual(single.calls, [{ quotes: [], scannedAt: NOW.toISOString() }]);
});

/** A database whose history ends at `newest` (null: empty) and that records backfills. */
class HistoryDb extends FakeScanDb {
  checks = 0;
  backfills: { batch: HistoryBatch; until: string }[] = [];
  failBackfill: string | null = null;
  constructor(public newest: string | null) {
    super();
  }
  newestSample(): Promise<string | null> {
    this.checks++;
    return Promise.resolve(this.newest);
  }
  backfill(batch: HistoryBatch, until: string): Promise<BackfillResult> {
    if (this.failBackfill) return Promise.reject(new Error(this.failBackfill));
    this.backfills.push({ batch, until });
    return Promise.resolve({
      instruments: batch.instruments.length,
      samples: batch.instruments.length * batch.stamps.length,
    });
  }
}

function historySetup(newest: string | null, env: Record<string, string> = {}) {
  const db = new HistoryDb(newest);
  const t = setup(env, { db: () => db });
  return { ...t, db };
}

Deno.test("scan: an empty history gets the simulated market's last 3 hours before the first ingest", async () => {
  const t = historySetup(null);
  const body = await (await t.call()).json();
  assertEquals(t.db.backfills.length, 1);
  const [{ batch, until }] = t.db.backfills;
  assertEquals(until, NOW.toISOString());
  assertEquals(Date.parse(batch.stamps[0]!), NOW.getTime() - BACKFILL_SPAN_MS);
  assertEquals(Date.parse(batch.stamps.at(-1)!), NOW.getTime() - 10_000);
  ok(batch.instruments.length >= 280);
  deepStrictEqual(body.backfill, {
    instruments: batch.instruments.length,
    samples: batch.instruments.length * batch.stamps.length,
  });
  // Then the scan itself, as always.
  assertEquals(t.db.calls.length, 1);
  deepStrictEqual(t.signals, [NOW.toISOString()]);

  // Once per instance: the next scan neither asks nor fills again.
  const again = await (await t.call()).json();
  assertEquals(again.backfill, undefined);
  assertEquals(t.db.checks, 1);
  assertEquals(t.db.backfills.length, 1);
});

/** A HistoryDb that also takes the replay's signals (decision 0090). */
class ReplayDb extends HistoryDb {
  replayed: ReplayedSignalRow[][] = [];
  replaySignals(rows: ReplayedSignalRow[]) {
    this.replayed.push(rows);
    return Promise.resolve({ signals: rows.length, outcomes: 7 });
  }
}

Deno.test("scan: the replayed past's signals are stored with the backfill, with the outcomes due", async () => {
  const db = new ReplayDb(null);
  const t = setup({}, { db: () => db });
  const body = await (await t.call()).json();
  assertEquals(db.replayed.length, 1);
  const rows = db.replayed[0]!;
  ok(rows.length > 0);
  const [{ batch }] = db.backfills;
  deepStrictEqual(
    rows,
    replayedSignalRows(
      batch!,
      NOW.getTime() - BACKFILL_SPAN_MS,
      Math.floor(NOW.getTime() / 300_000) * 300_000 - 1,
    ),
  );
  // The current candle is the live step's.
  deepStrictEqual(t.signals, [NOW.toISOString()]);
  const current = Math.floor(NOW.getTime() / 300_000) * 300_000;
  ok(rows.every((r) => Date.parse(r.computed_at) < current), "all before the current candle");
  assertEquals(body.backfill.signals, rows.length);
  assertEquals(body.backfill.outcomes, 7);
  // A second scan of the instance replays nothing.
  await t.call();
  assertEquals(db.replayed.length, 1);
});

Deno.test("scan: a history the scans keep is not filled; one left idle for 5 minutes is", async () => {
  const kept = historySetup(new Date(NOW.getTime() - BACKFILL_IDLE_MS + 20_000).toISOString());
  assertEquals((await (await kept.call()).json()).backfill, undefined);
  assertEquals(kept.db.backfills.length, 0);
  await kept.call();
  assertEquals(kept.db.checks, 1);

  const idle = historySetup(new Date(NOW.getTime() - BACKFILL_IDLE_MS).toISOString());
  ok((await (await idle.call()).json()).backfill.samples > 0);
  assertEquals(idle.db.backfills.length, 1);
});

Deno.test("scan: a failed backfill is reported, the scan still ingests, and the next scan tries again", async () => {
  const t = historySetup(null);
  t.db.failBackfill = "ingest_backfill failed: statement timeout";
  const res = await t.call();
  assertEquals(res.status, 200);
  deepStrictEqual((await res.json()).backfill, {
    samples: 0,
    instruments: 0,
    error: "ingest_backfill failed: statement timeout",
  });
  assertEquals(t.db.calls.length, 1);
  t.db.failBackfill = null;
  ok((await (await t.call()).json()).backfill.samples > 0);
});

Deno.test("scan: venues that cannot replay their past are never backfilled", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const db = new HistoryDb(null);
  const t = setup({ MARKET_SOURCES: "binance" }, {
    db: () => db,
    fetch: fakeFetch(() => jsonResponse(ticker)).fetch,
  });
  const body = await (await t.call()).json();
  assertEquals(body.backfill, undefined);
  assertEquals(db.checks, 0);
});

Deno.test("scan: each source's state is recorded — live, backing off, or failing with its kind and status", async () => {
  const recorded: { health: SourceHealth[]; scannedAt: string }[] = [];
  const db = new FakeScanDb();
  const t = setup({ MARKET_SOURCES: "binance,coinbase,dex,simulated" }, {
    db: () =>
      Object.assign(db, {
        recordHealth: (health: SourceHealth[], scannedAt: string) => {
          recorded.push({ health, scannedAt });
          return Promise.resolve();
        },
      }),
    fetch: fakeFetch(() => jsonResponse({ code: -1003 }, 429, { "retry-after": "60" })).fetch,
    adapters: {
      binance: createBinanceAdapter(),
      coinbase: {
        source: "coinbase",
        fetchQuotes: () =>
          Promise.reject(
            new MarketSourceError("coinbase", "http", "api.coinbase.com answered HTTP 503", 503),
          ),
      },
      dex: {
        source: "dex",
        fetchQuotes: () =>
          Promise.reject(new MarketSourceError("dex", "timeout", "no answer within 8000 ms")),
      },
      simulated: createSimulatedAdapter(),
    },
  });
  const body = await (await t.call()).json();
  deepStrictEqual(body.sources.coinbase, {
    quotes: 0,
    skipped: 0,
    inactive: 0,
    illiquid: 0,
    error: "api.coinbase.com answered HTTP 503",
    failure: "http",
    httpStatus: 503,
    cadenceSeconds: 2,
  });
  // Each source's state is recorded as soon as it was read, one call per source.
  assertEquals(recorded.length, 4);
  ok(recorded.every((r) => r.scannedAt === NOW.toISOString() && r.health.length === 1));
  deepStrictEqual(
    recorded.map((r) => r.health[0]!).sort((a, b) => a.source.localeCompare(b.source)),
    [
      {
        source: "binance",
        state: "backoff",
        quotes: 0,
        backoffUntil: "2026-03-02T12:01:00.000Z",
        cadenceSeconds: 2,
      },
      {
        source: "coinbase",
        state: "failing",
        quotes: 0,
        failure: "http",
        httpStatus: 503,
        message: "api.coinbase.com answered HTTP 503",
        cadenceSeconds: 2,
      },
      {
        source: "dex",
        state: "failing",
        quotes: 0,
        failure: "timeout",
        message: "no answer within 8000 ms",
        // Each pool: every 3 s one of five networks, so every 15 s.
        cadenceSeconds: 15,
      },
      {
        source: "simulated",
        state: "ok",
        quotes: body.sources.simulated.quotes,
        cadenceSeconds: 10,
        lastQuoteAt: NOW.toISOString(),
      },
    ],
  );
});

Deno.test("scan: failing to record the sources' state does not fail the scan", async () => {
  const db = Object.assign(new FakeScanDb(), {
    recordHealth: () => Promise.reject(new Error("record_source_health failed: timeout")),
  });
  const t = setup({}, { db: () => db });
  const res = await t.call();
  assertEquals(res.status, 200);
  assertEquals(db.calls.length, 1);
});

// ---------------------------------------------------------------------------------------------
// Each venue at its own cadence (decision 0033)
// ---------------------------------------------------------------------------------------------

function post(app: { fetch(req: Request): Response | Promise<Response> }, body: string) {
  return app.fetch(
    new Request("http://local/scan", {
      method: "POST",
      headers: { authorization: `Bearer ${SERVICE_KEY}`, "content-type": "application/json" },
      body,
    }),
  );
}

Deno.test("scan: { sources: [...] } reads only those venues (each venue's own schedule)", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const f = fakeFetch(() => jsonResponse(ticker));
  const t = setup({ MARKET_SOURCES: "binance,simulated" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
  });
  const res = await post(t.app, JSON.stringify({ sources: ["binance"] }));
  assertEquals(res.status, 200);
  const body = await res.json();
  deepStrictEqual(Object.keys(body.sources), ["binance"]);
  assertEquals(t.db.calls.length, 1);
  ok(t.db.calls[0]!.quotes.every((q) => q.source === "binance"));
});

Deno.test("scan: a source that is not enabled, or a body that is not a source list, is a 400", async () => {
  const t = setup({ MARKET_SOURCES: "simulated" });
  const off = await post(t.app, JSON.stringify({ sources: ["binance"] }));
  assertEquals(off.status, 400);
  const offBody = await off.json();
  assertEquals(offBody.error, "source_not_enabled");
  ok(offBody.message.includes("binance"));
  for (
    const bad of ["{", JSON.stringify({ sources: "binance" }), JSON.stringify({ sources: [] })]
  ) {
    const res = await post(t.app, bad);
    assertEquals(res.status, 400);
    assertEquals((await res.json()).error, "invalid_body");
  }
  assertEquals(t.db.calls.length, 0);
});

Deno.test("scan: a venue that stalls does not hold back the others' ingest", async () => {
  let release!: () => void;
  const stalled = new Promise<void>((resolve) => (release = resolve));
  const t = setup({ MARKET_SOURCES: "binance,simulated" }, {
    adapters: {
      binance: {
        source: "binance",
        fetchQuotes: async () => {
          await stalled;
          throw new MarketSourceError("binance", "timeout", "no answer within 8000 ms");
        },
      },
      simulated: createSimulatedAdapter(),
    },
  });
  const pending = t.call();
  // The simulated market is ingested while Binance still has not answered.
  for (let i = 0; i < 100 && t.db.calls.length === 0; i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  assertEquals(t.db.calls.length, 1);
  ok(t.db.calls[0]!.quotes.every((q) => q.source === "simulated"));
  release();
  const body = await (await pending).json();
  assertEquals(body.sources.binance.failure, "timeout");
  assertEquals(t.db.calls.length, 1);
});

Deno.test("scan: an unreadable MARKET_CADENCE_SECONDS is a configuration error (500)", async () => {
  const t = setup({ MARKET_CADENCE_SECONDS: "dex=1" });
  const res = await t.call();
  assertEquals(res.status, 500);
  const body = await res.json();
  assertEquals(body.error, "market_cadence_invalid");
  ok(body.message.includes("dex"));
  assertEquals(t.db.calls.length, 0);
});

Deno.test("scan: while a venue's stream is live its schedule polls only at the safety cadence", async () => {
  const ticker = await loadMarketFixture("binance-ticker-24hr");
  const prices = await loadMarketFixture("binance-ticker-price");
  const f = fakeFetch((url) => jsonResponse(url.includes("ticker/price") ? prices : ticker));
  const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
  let state: PollingState = {
    stream: { state: "connected", lastMessageAt: ago(500), reportedAt: ago(300) },
    lastPollAt: ago(10_000),
  };
  const t = setup({ MARKET_SOURCES: "binance,simulated", STREAM_SAFETY_POLL_SECONDS: "30" }, {
    fetch: f.fetch,
    adapters: { binance: createBinanceAdapter(), simulated: createSimulatedAdapter() },
  });
  t.db.pollingState = (sources) =>
    Promise.resolve(Object.fromEntries(sources.map((s) => [s, s === "binance" ? state : null])));
  const binance = async () => (await post(t.app, JSON.stringify({ sources: ["binance"] }))).json();

  // Live stream, polled 10 s ago: this tick reads nothing and ingests nothing.
  const skipped = await binance();
  deepStrictEqual(skipped.sources.binance, {
    quotes: 0,
    skipped: 0,
    inactive: 0,
    illiquid: 0,
    byStream: true,
  });
  assertEquals(t.db.calls.length, 0);
  assertEquals(f.calls.length, 0);

  // The safety cadence is due: poll.
  state = { ...state, lastPollAt: ago(30_000) };
  ok((await binance()).sources.binance.quotes > 0);
  assertEquals(t.db.calls.length, 1);

  // The stream dropped a moment ago (last poll 1 s ago): the very next tick polls.
  state = {
    stream: { state: "dropped", lastMessageAt: ago(1_500), reportedAt: ago(200) },
    lastPollAt: ago(1_000),
  };
  ok((await binance()).sources.binance.quotes > 0);
  assertEquals(t.db.calls.length, 2);

  // Another source in the same call is read as usual while Binance is carried by its stream.
  state = {
    stream: { state: "connected", lastMessageAt: ago(500), reportedAt: ago(300) },
    lastPollAt: ago(1_000),
  };
  const both = await (await t.call()).json();
  assertEquals(both.sources.binance.byStream, true);
  ok(both.sources.simulated.quotes > 0);
  assertEquals(t.db.calls.length, 3);
  ok(t.db.calls[2]!.quotes.every((q) => q.source === "simulated"));
});

Deno.test("scan: unreadable stream state polls every source; a bad STREAM_SAFETY_POLL_SECONDS is a 500", async () => {
  const t = setup();
  t.db.pollingState = () => Promise.reject(new Error("connection refused"));
  const res = await t.call();
  assertEquals(res.status, 200);
  ok((await res.json()).sources.simulated.quotes > 0);

  const bad = setup({ STREAM_SAFETY_POLL_SECONDS: "1" });
  const refused = await bad.call();
  assertEquals(refused.status, 500);
  const body = await refused.json();
  assertEquals(body.error, "stream_safety_poll_invalid");
  ok(body.message.includes("STREAM_SAFETY_POLL_SECONDS"));
  assertEquals(bad.db.calls.length, 0);
});

Deno.test("scan: the DEX rotation is GECKOTERMINAL_NETWORKS × GECKOTERMINAL_PAGES, its interval in the source's cadence and logged once (decision 0091)", async () => {
  const eth = await loadMarketFixture("geckoterminal-trending-eth");
  const base = await loadMarketFixture("geckoterminal-trending-base");
  const f = fakeFetch((url) => jsonResponse(url.includes("/networks/eth/") ? eth : base));
  const t = setup({
    MARKET_SOURCES: "dex",
    MARKET_CADENCE_SECONDS: "dex=2",
    GECKOTERMINAL_NETWORKS: "eth,base",
    GECKOTERMINAL_PAGES: "3",
  }, { fetch: f.fetch, adapters: undefined });
  const logged: string[] = [];
  const info = console.info;
  console.info = (...args: unknown[]) => void logged.push(args.join(" "));
  try {
    for (let i = 0; i < 6; i++) {
      const body = await (await t.call()).json();
      ok(body.sources.dex.quotes > 0, JSON.stringify(body.sources.dex));
      // 2 networks × 3 pages, one call every 2 s: each pool every 12 s.
      assertEquals(body.sources.dex.cadenceSeconds, 12);
    }
  } finally {
    console.info = info;
  }
  deepStrictEqual(logged.filter((l) => l.startsWith("[scan] dex:")), [
    "[scan] dex: 2 networks × 3 pages at 30 calls/min: every pool every 12 s",
  ]);
  // Every (network, page) read once in the 6 scans.
  deepStrictEqual(
    f.calls.map((c) => {
      const u = new URL(c.url);
      return `${u.pathname.split("/")[4]} ${u.searchParams.get("page")}`;
    }).sort(),
    ["base 1", "base 2", "base 3", "eth 1", "eth 2", "eth 3"],
  );
  // Each page's pools were ingested by its own scan.
  assertEquals(t.db.calls.length, 6);
  ok(t.db.calls.every((c) => c.quotes.length > 0 && c.quotes.every((q) => q.source === "dex")));
});

Deno.test("scan: an unreadable GECKOTERMINAL_PAGES or GECKOTERMINAL_NETWORKS is a configuration error (500)", async () => {
  for (
    const env of [{ GECKOTERMINAL_PAGES: "11" }, { GECKOTERMINAL_NETWORKS: "eth,polygon" }]
  ) {
    const t = setup({ MARKET_SOURCES: "dex", ...env }, { adapters: undefined });
    const res = await t.call();
    assertEquals(res.status, 500);
    const body = await res.json();
    assertEquals(body.error, "market_cadence_invalid");
    ok(/GECKOTERMINAL_(PAGES|NETWORKS)/.test(body.message), body.message);
    assertEquals(t.db.calls.length, 0);
  }
});
