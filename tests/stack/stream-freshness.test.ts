// Issue 25 (decision 0063), on PGlite and PostgreSQL 15: the stream worker against a database
// slower than the stream. The seconds of quotes that arrive while an ingest runs go to the next
// ingest together (the newest quote per instrument), so a quote reaches the database one ingest
// late at most, never behind a queue that grows by a second every second; and what the database
// then shows — movers.quoted_at, movers_feed's quoted_at (the dashboard's data-age cell) and
// /api/gainers/recent's quotedAt — is the venue's time of its latest quote. The merged seconds
// store no invented samples: the history holds the two quotes that were ingested.
import { afterAll, afterEach, expect, it } from "vitest";
import { type WebSocket as Socket, WebSocket, WebSocketServer } from "ws";
import type { SocketFactory } from "../../supabase/functions/_shared/market/stream-reader.ts";
import {
  type RpcClient,
  startStreamWorker,
  type StreamWorker,
} from "../../supabase/functions/_shared/market/stream-worker.ts";
import { demoUser, serviceClient, stackInfo } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
const BASE = `SF${run}`;
const SYMBOL = `${BASE}/USDT`;

let server: WebSocketServer | null = null;
let worker: StreamWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  worker = server = null;
});
afterAll(async () => {
  await serviceClient().from("instruments").delete().eq("venue_key", `Binance:${SYMBOL}`);
  await serviceClient().from("stream_health").delete().eq("source", "binance");
});

/** A Binance `!miniTicker@arr` stream the test speaks for: one row of our symbol per message. */
async function binanceStream(): Promise<{ url: string; push(price: number, at: number): void }> {
  const wss = (server = new WebSocketServer({ host: "127.0.0.1", port: 0 }));
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  let socket: Socket | null = null;
  wss.on("connection", (ws) => (socket = ws));
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    push(price, at) {
      const row = {
        e: "24hrMiniTicker",
        E: at,
        s: `${BASE}USDT`,
        c: String(price),
        o: "1",
        h: String(price),
        l: "1",
        v: "1000",
        q: "5000000",
      };
      socket!.send(JSON.stringify({ stream: "!miniTicker@arr", data: [row] }));
    },
  };
}

it("a database slower than the stream: one ingest late at most, and the quote time shown is the venue's latest", async () => {
  const stream = await binanceStream();
  const service = serviceClient();
  // The first ingest waits until the test lets it go: a database busy for several seconds.
  let release: () => void = () => {};
  const busy = new Promise<void>((resolve) => (release = resolve));
  const ingests: { symbol: string; price: number; ts: string }[][] = [];
  const client: RpcClient = {
    rpc: (fn, args) => {
      if (fn !== "ingest_scan") return service.rpc(fn as never, args as never);
      const quotes = args.quotes as { symbol: string; price: number; ts: string }[];
      ingests.push(quotes.filter((q) => q.symbol === SYMBOL));
      const first = ingests.length === 1;
      return (async () => {
        if (first) await busy;
        return service.rpc("ingest_scan", args as never);
      })();
    },
  };
  worker = startStreamWorker({
    client,
    WebSocket: WebSocket as unknown as SocketFactory,
    urls: { binance: stream.url },
    batchMs: 100,
  });
  const reader = worker.readers.binance!;
  await expect.poll(() => reader.live(), { timeout: 10_000 }).toBe(true);

  const now = Date.now();
  // The venue's first quote, 20 minutes old (the reference of the 30-minute window).
  const first = now - 20 * 60_000;
  stream.push(1, first);
  await expect.poll(() => ingests.length, { timeout: 10_000 }).toBe(1);
  // Five more seconds of the stream while that ingest runs.
  const times = [4, 3, 2, 1, 0].map((s) => now - s * 1000);
  for (const [i, at] of times.entries()) {
    stream.push(20 * (i + 1), at);
    await expect.poll(() => reader.merged, { timeout: 10_000 }).toBe(i + 1);
  }
  const last = times.at(-1)!;
  release();
  await expect.poll(() => ingests.length, { timeout: 20_000 }).toBe(2);
  // The five seconds went into one ingest with the newest quote (the old reader queued five).
  expect(ingests[1]).toEqual([
    expect.objectContaining({ price: 100, ts: new Date(last).toISOString() }),
  ]);

  // The stored row: the venue's time of its latest quote, and two real samples, no others.
  const mover = async () => {
    const { data, error } = await service
      .from("movers")
      .select("price, quoted_at, pct_10sec, pct_30min")
      .eq("symbol", SYMBOL)
      .eq("exchange", "Binance")
      .maybeSingle();
    if (error) throw error;
    return data;
  };
  await expect.poll(async () => Number((await mover())?.price), { timeout: 20_000 }).toBe(100);
  const row = (await mover())!;
  expect(Date.parse(row.quoted_at!)).toBe(last);
  expect(Number(row.pct_30min)).toBe(9900);
  // Two samples 20 minutes apart: no 10-second figure is made up from the merged seconds.
  expect(row.pct_10sec).toBeNull();
  const instrument = await service
    .from("instruments")
    .select("id")
    .eq("venue_key", `Binance:${SYMBOL}`)
    .single();
  const history = await service
    .from("price_history")
    .select("ts, price")
    .eq("instrument_id", instrument.data!.id)
    .order("ts");
  expect(history.error).toBeNull();
  expect(history.data!.map((h) => [Date.parse(h.ts), Number(h.price)])).toEqual([
    [first, 1],
    [last, 100],
  ]);

  // The dashboard's data-age cell reads movers_feed's quoted_at; /api/gainers/recent carries it
  // as quotedAt.
  const { client: user } = await demoUser("enterprise@demo.local");
  const feed = await user.rpc("movers_feed", { window_minutes: 30 });
  expect(feed.error).toBeNull();
  const entry = feed.data!.find((e) => e.symbol === SYMBOL);
  expect(entry).toBeDefined();
  expect(Date.parse(entry!.quoted_at!)).toBe(last);
  const { data: session } = await user.auth.getSession();
  const { url, publishableKey } = stackInfo();
  const res = await fetch(`${url}/api/gainers/recent?window=30`, {
    headers: { apikey: publishableKey, authorization: `Bearer ${session.session!.access_token}` },
  });
  expect(res.status).toBe(200);
  const gainers = (await res.json()) as { symbol: string; exchange: string; quotedAt: string }[];
  const gainer = gainers.find((g) => g.symbol === SYMBOL && g.exchange === "Binance");
  expect(gainer).toBeDefined();
  expect(Date.parse(gainer!.quotedAt)).toBe(last);
}, 120_000);

it("/api/health lists each stream as its reader reported it, without a login", async () => {
  const service = serviceClient();
  const lastMessageAt = new Date(Date.now() - 3_000).toISOString();
  const connectedSince = new Date(Date.now() - 60_000).toISOString();
  const { error } = await service.rpc("record_stream_health", {
    report: {
      source: "binance",
      state: "connected",
      connectedSince,
      droppedAt: null,
      reconnects: 4,
      lastMessageAt,
      quotes: 13,
    },
  });
  expect(error).toBeNull();
  type Health = {
    status: string;
    streams: {
      source: string;
      state: string;
      since: string | null;
      reconnects: number;
      lastMessageAt: string | null;
      lastMessageAgeSeconds: number | null;
      reportedAt: string;
    }[];
  };
  const health = async () => {
    const res = await fetch(`${stackInfo().url}/api/health`);
    expect(res.status).toBe(200);
    return (await res.json()) as Health;
  };
  const first = await health();
  expect(first.status).toBe("ok");
  const binance = first.streams.find((s) => s.source === "binance")!;
  expect(binance).toMatchObject({ state: "connected", reconnects: 4 });
  expect(Date.parse(binance.since!)).toBe(Date.parse(connectedSince));
  expect(Date.parse(binance.lastMessageAt!)).toBe(Date.parse(lastMessageAt));
  expect(binance.lastMessageAgeSeconds).toBeGreaterThanOrEqual(3);
  expect(binance.lastMessageAgeSeconds).toBeLessThan(60);

  // The reader dropped the stream: since is the drop.
  const droppedAt = new Date(Date.now() - 2_000).toISOString();
  await service.rpc("record_stream_health", {
    report: {
      source: "binance",
      state: "dropped",
      droppedAt,
      reconnects: 4,
      lastMessageAt,
      quotes: 0,
    },
  });
  const dropped = (await health()).streams.find((s) => s.source === "binance")!;
  expect(dropped.state).toBe("dropped");
  expect(Date.parse(dropped.since!)).toBe(Date.parse(droppedAt));

  // A reader that has not reported for over 30 s is not running, whatever it last said.
  const { error: aged } = await service
    .from("stream_health")
    .update({ reported_at: new Date(Date.now() - 45_000).toISOString() })
    .eq("source", "binance");
  expect(aged).toBeNull();
  const silent = (await health()).streams.find((s) => s.source === "binance")!;
  expect(silent.state).toBe("not_reporting");

  // The contract documents the streams.
  const spec = (await (await fetch(`${stackInfo().url}/api/openapi.json`)).json()) as {
    paths: Record<
      string,
      {
        get: {
          responses: Record<
            string,
            { content: Record<string, { schema: { properties: Record<string, unknown> } }> }
          >;
        };
      }
    >;
  };
  const schema =
    spec.paths["/api/health"]!.get.responses["200"]!.content["application/json"]!.schema;
  expect(Object.keys(schema.properties)).toEqual(["status", "time", "sources", "streams"]);
});
