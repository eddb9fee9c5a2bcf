// Issue 25 (decision 0054): the scan, with its real adapters, against the fake Binance, Coinbase
// and GeckoTerminal servers on PGlite and PostgreSQL 15. A functions host of this test's own
// points the scan at the fakes (the suite's stack scans the simulated market only); it writes to
// the suite's database. Samples carry the venue's time, and a venue that stalls holds back
// neither the other venues' rows nor their health.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTIONS_DIR } from "../../devstack/deno.ts";
import { type FunctionsHost, startFunctionsHost } from "../../devstack/functions/host.ts";
import { type FakeVenues, startFakeVenues } from "../../devstack/venues/fake-venues.ts";
import { startStreamReaders } from "../../devstack/venues/readers.ts";
import { anonClient, serviceClient, stackInfo } from "../support/clients.ts";

let venues: FakeVenues;
let host: FunctionsHost;
/** The instruments the suite's database held before: the simulated market's share names with the fakes'. */
let existing: Set<number>;

beforeAll(async () => {
  const s = stackInfo();
  const { data: before, error } = await serviceClient().from("instruments").select("id");
  if (error) throw error;
  existing = new Set(before.map((i) => Number(i.id)));
  // Prices move when the test says (`tick()`), so a stored price can be compared with the fake's.
  venues = await startFakeVenues({ tickMs: 0, streamDropEveryMs: 0 });
  host = await startFunctionsHost({
    functionsDir: FUNCTIONS_DIR,
    configToml: path.join(FUNCTIONS_DIR, "../config.toml"),
    log: () => {},
    env: {
      SUPABASE_URL: s.url,
      SUPABASE_ANON_KEY: s.publishableKey,
      SUPABASE_PUBLISHABLE_KEY: s.publishableKey,
      SUPABASE_SERVICE_ROLE_KEY: s.secretKey,
      SUPABASE_SECRET_KEY: s.secretKey,
      MARKET_SOURCES: "binance,coinbase,dex",
      // Two pages of each network's trending pools in rotation (decision 0091).
      GECKOTERMINAL_PAGES: "2",
      ...venues.env,
    },
  });
}, 180_000);

afterAll(async () => {
  await host?.stop();
  await venues?.stop();
  // Only the instruments this file's scans added: the simulated market's own (same venue names,
  // e.g. Coinbase:BTC/USD) stay, or the files after this one would find no movers.
  const service = serviceClient();
  const { data: now } = await service.from("instruments").select("id");
  const added = (now ?? []).map((i) => Number(i.id)).filter((id) => !existing.has(id));
  for (let i = 0; i < added.length; i += 200) {
    await service
      .from("instruments")
      .delete()
      .in("id", added.slice(i, i + 200));
  }
  await service.from("source_health").delete().in("source", ["binance", "coinbase", "dex"]);
  await service.from("stream_health").delete().in("source", ["binance", "coinbase"]);
});

interface ScanAnswer {
  sources: Record<
    string,
    { quotes: number; error?: string; failure?: string; lastQuoteAt?: string; byStream?: true }
  >;
}

async function scan(sources: string[]): Promise<ScanAnswer> {
  const res = await fetch(`http://127.0.0.1:${host.port}/scan`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${stackInfo().secretKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ sources }),
  });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body as ScanAnswer;
}

async function moverOf(exchange: string, symbol: string) {
  const { data, error } = await serviceClient()
    .from("movers")
    .select("price, quoted_at, ts")
    .eq("exchange", exchange)
    .eq("symbol", symbol)
    .maybeSingle();
  expect(error).toBeNull();
  return data;
}

describe("the scan against the fake venues", () => {
  it("stores each venue's quotes stamped with the venue's own time", async () => {
    venues.tick();
    venues.tick();
    const before = Date.now();
    const answer = await scan(["binance", "coinbase", "dex"]);
    const after = Date.now();
    expect(answer.sources.binance).toMatchObject({ quotes: 13 });
    expect(answer.sources.coinbase).toMatchObject({ quotes: 10 });
    expect(answer.sources.dex!.quotes).toBeGreaterThan(0);

    const btc = await moverOf("Binance", "BTC/USDT");
    expect(btc).not.toBeNull();
    // The 24 h ticker's closeTime: the fake venue's clock when it answered.
    const quoted = Date.parse(btc!.quoted_at!);
    expect(quoted).toBeGreaterThanOrEqual(before);
    expect(quoted).toBeLessThanOrEqual(after);
    // The price is the fake market's, not the recording's.
    const walk = venues.market.binance.find((b) => b.row.symbol === "BTCUSDT")!.walk!;
    expect(Number(btc!.price)).toBeCloseTo(walk.price, 6);
    expect(Number(btc!.price)).not.toBe(66909.89);

    const { data: instrument } = await serviceClient()
      .from("instruments")
      .select("id")
      .eq("venue_key", "Coinbase:BTC/USD")
      .single();
    const { data: samples, error } = await serviceClient()
      .from("price_history")
      .select("ts, price")
      .eq("instrument_id", instrument!.id)
      .gte("ts", new Date(Math.floor(before / 1000) * 1000).toISOString());
    expect(error).toBeNull();
    // One sample from this scan (the simulated market may have stored older ones for the same pair).
    expect(samples!.length).toBe(1);
    // Coinbase's product list has no time per product: the answer's time on the venue's clock.
    expect(Date.parse(samples![0]!.ts)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(samples![0]!.ts)).toBeLessThanOrEqual(after);

    const { data: health } = await serviceClient()
      .from("source_health")
      .select("source, state, last_quote_at")
      .in("source", ["binance", "coinbase", "dex"]);
    expect(Object.fromEntries(health!.map((h) => [h.source, h.state]))).toEqual({
      binance: "ok",
      coinbase: "ok",
      dex: "ok",
    });
  });

  it("a venue that stalls holds back neither the other venues' rows nor their health", async () => {
    const previous = Date.parse((await moverOf("Binance", "BTC/USDT"))!.quoted_at!);
    venues.stall("coinbase", 30_000);
    try {
      let done = false;
      const call = scan(["binance", "coinbase"]).finally(() => (done = true));
      // Binance's quotes are in the database while Coinbase still has not answered.
      await expect
        .poll(async () => Date.parse((await moverOf("Binance", "BTC/USDT"))!.quoted_at!), {
          timeout: 20_000,
          interval: 200,
        })
        .toBeGreaterThan(previous);
      expect(done).toBe(false);
      const answer = await call;
      expect(answer.sources.binance).toMatchObject({ quotes: 13 });
      expect(answer.sources.coinbase).toMatchObject({ quotes: 0, failure: "timeout" });
      const { data: health } = await serviceClient()
        .from("source_health")
        .select("source, state")
        .in("source", ["binance", "coinbase"]);
      expect(Object.fromEntries(health!.map((h) => [h.source, h.state]))).toEqual({
        binance: "ok",
        coinbase: "failing",
      });
    } finally {
      venues.stall("coinbase", 0);
    }
  }, 60_000);

  it("a stream feeds the rows and slows polling; it records its health, shows dropped, and polling carries the venue at once", async () => {
    const s = stackInfo();
    const quotedAt = async () => Date.parse((await moverOf("Binance", "BTC/USDT"))!.quoted_at!);
    // What the Sources line reads: the stream's row, readable by a visitor.
    const visitor = anonClient();
    const streamRow = async () => {
      const { data, error } = await visitor
        .from("stream_health")
        .select("state, reconnects, connected_since, dropped_at, last_message_at, quotes")
        .eq("source", "binance")
        .maybeSingle();
      if (error) throw error;
      return data;
    };
    const streams = await startStreamReaders({
      apiUrl: s.url,
      serviceKey: s.secretKey,
      env: { MARKET_SOURCES: "binance", BINANCE_WS_URL: venues.urls.binanceWs },
    });
    const reader = streams.readers.binance!;
    // The fake market moves (and its stream pushes) twice a second for this test.
    const ticking = setInterval(() => venues.tick(), 500);
    try {
      // No scan is called: the rows move by the stream alone, stamped with its event time.
      const polled = await quotedAt();
      await expect.poll(quotedAt, { timeout: 20_000, interval: 250 }).toBeGreaterThan(polled);
      expect(reader.live()).toBe(true);
      // The reader records its own health: connected, no reconnect yet, the venue speaking.
      await expect
        .poll(async () => (await streamRow())?.state, { timeout: 10_000, interval: 250 })
        .toBe("connected");
      const connected = (await streamRow())!;
      expect(connected.reconnects).toBe(0);
      expect(connected.dropped_at).toBeNull();
      expect(Date.now() - Date.parse(connected.last_message_at!)).toBeLessThan(5_000);

      // While the stream is live, the venue's schedule polls only at the safety cadence (30 s):
      // after one poll, the next ticks read nothing from the venue.
      await scan(["binance"]);
      await expect
        .poll(async () => (await scan(["binance"])).sources.binance, {
          timeout: 20_000,
          interval: 500,
        })
        .toMatchObject({ quotes: 0, byStream: true });

      // The venue drops the stream and refuses new ones: the reader records "dropped" at once...
      venues.refuseStreams(true);
      venues.dropStreams("binance");
      await expect
        .poll(async () => (await streamRow())?.state, { timeout: 10_000, interval: 100 })
        .toBe("dropped");
      expect((await streamRow())!.dropped_at).not.toBeNull();
      await expect.poll(() => reader.live(), { timeout: 20_000, interval: 250 }).toBe(false);
      const lastStreamed = await quotedAt();
      // ...and the very next tick of the polling schedule polls again: a newer quote.
      const answer = await scan(["binance"]);
      expect(answer.sources.binance).toMatchObject({ quotes: 13 });
      expect(answer.sources.binance!.byStream).toBeUndefined();
      expect(await quotedAt()).toBeGreaterThan(lastStreamed);

      // Streams back: the reader reconnects, records "connected" with one reconnect, and feeds
      // the rows again.
      venues.refuseStreams(false);
      await expect
        .poll(() => reader.connections, { timeout: 30_000, interval: 250 })
        .toBeGreaterThan(1);
      await expect.poll(() => reader.live(), { timeout: 20_000, interval: 250 }).toBe(true);
      await expect
        .poll(async () => (await streamRow())?.state, { timeout: 10_000, interval: 250 })
        .toBe("connected");
      expect((await streamRow())!.reconnects).toBeGreaterThanOrEqual(1);
    } finally {
      clearInterval(ticking);
      venues.refuseStreams(false);
      await streams.stop();
    }
  }, 120_000);

  it("a stream health report is refused unless it is well-formed, and only the service role may send one", async () => {
    const visitor = anonClient();
    const denied = await visitor.rpc("record_stream_health", {
      report: { source: "binance", state: "connected" },
    });
    expect(denied.error).not.toBeNull();
    const service = serviceClient();
    const bad = await service.rpc("record_stream_health", {
      report: { source: "binance", state: "sleeping" },
    });
    expect(bad.error?.message).toMatch(/state must be connected or dropped/);
    const noSource = await service.rpc("record_stream_health", {
      report: { source: "Not A Source!", state: "dropped" },
    });
    expect(noSource.error?.message).toMatch(/source must be a source name/);
    // A visitor cannot write the table itself either.
    const write = await visitor
      .from("stream_health")
      .insert({ source: "binance", state: "dropped", dropped_at: new Date().toISOString() });
    expect(write.error).not.toBeNull();
  });
});

describe("the GeckoTerminal rotation over networks × pages (decision 0091)", () => {
  it("stores the pools of page 2; a page-1 pool keeps its last quote, older, until its page comes round", async () => {
    const start = Date.now();
    const cadences = new Set<number>();
    // 5 networks × 2 pages: every (network, page) once in 10 scans.
    for (let i = 0; i < 10; i++) {
      venues.tick();
      const answer = await scan(["dex"]);
      expect(answer.sources.dex!.error, JSON.stringify(answer.sources.dex)).toBeUndefined();
      expect(answer.sources.dex!.quotes).toBeGreaterThan(0);
      cadences.add((answer.sources.dex as { cadenceSeconds?: number }).cadenceSeconds!);
    }
    // The default 3 s cadence × 10 calls: each pool every 30 s.
    expect([...cadences]).toEqual([30]);
    const service = serviceClient();
    const { data: pools, error } = await service
      .from("instruments")
      .select("id, venue_key")
      .like("venue_key", "%pg2");
    expect(error).toBeNull();
    // The fake's page-2 pools (their addresses end in "pg2") of all five networks are stored.
    expect(new Set(pools!.map((p) => p.venue_key.split(":")[0])).size).toBe(5);
    const pageTwo = [...venues.market.dex.values()].flatMap(({ more }) =>
      more[0]!.filter((p) => p.walk && (p.row.attributes as { address?: unknown }).address),
    );
    expect(pools!.length).toBeGreaterThan(10);
    expect(pools!.length).toBeLessThanOrEqual(pageTwo.length);

    // Each stored page-2 pool has its sample from this test's scans, on the venue's clock.
    const { data: samples } = await service
      .from("price_history")
      .select("instrument_id, ts")
      .in(
        "instrument_id",
        pools!.map((p) => p.id),
      )
      .gte("ts", new Date(Math.floor(start / 1000) * 1000 - 1000).toISOString());
    expect(new Set(samples!.map((s) => s.instrument_id)).size).toBe(pools!.length);

    // The next scan reads one (network, page) again: only its pools get a newer quote; every
    // other pool keeps its last one (read on an earlier page-turn: older, not dropped, not
    // restamped) until its page comes round.
    const before = await dexQuotes(start);
    const pageOf = (key: string) => (key.endsWith("pg2") ? 2 : 1);
    expect(new Set([...before.keys()].map(pageOf))).toEqual(new Set([1, 2]));
    venues.tick();
    await scan(["dex"]);
    const after = await dexQuotes(start);
    const changed = [...after.keys()].filter((k) => after.get(k)! > (before.get(k) ?? 0));
    expect(changed.length).toBeGreaterThan(0);
    expect(new Set(changed.map((k) => `${k.split(":")[0]} ${pageOf(k)}`)).size).toBe(1);
    for (const [key, quoted] of before) {
      if (!changed.includes(key)) expect(after.get(key), key).toBe(quoted);
    }
  });
});

/** The DEX pools quoted since `since` (ms): venue key → newest `quoted_at` in the movers (ms). */
async function dexQuotes(since: number): Promise<Map<string, number>> {
  const service = serviceClient();
  const { data: instruments, error } = await service.from("instruments").select("id, venue_key");
  expect(error).toBeNull();
  const keys = new Map(
    instruments!
      .filter((i) => /^(ethereum|base|solana|bsc|arbitrum):/.test(i.venue_key))
      .map((i) => [Number(i.id), i.venue_key as string]),
  );
  const out = new Map<string, number>();
  const ids = [...keys.keys()];
  for (let i = 0; i < ids.length; i += 200) {
    const { data: movers, error: e } = await service
      .from("movers")
      .select("instrument_id, quoted_at")
      .in("instrument_id", ids.slice(i, i + 200));
    expect(e).toBeNull();
    for (const m of movers!) {
      const t = Date.parse(m.quoted_at!);
      const key = keys.get(Number(m.instrument_id))!;
      if (t >= since - 1000 && t > (out.get(key) ?? 0)) out.set(key, t);
    }
  }
  return out;
}
