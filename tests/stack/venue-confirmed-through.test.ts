// Issue 25 (decision 0079), on PGlite and PostgreSQL 15: a venue's "confirmed through" time.
// Binance's `!miniTicker@arr` names only the symbols that changed, so an unchanged symbol's quote
// time ages although each event confirms it unchanged. The stream worker reports through when its
// stored events confirm the venue's set; movers_feed's confirmed_at (the dashboard's data age) and
// /api/gainers/recent's confirmedAt carry it for a symbol the venue's last full poll wrote, while
// quoted_at / quotedAt stay the quote's own time. When the venue stalls the confirmation stops and
// the unchanged rows go stale. /api/sse's entries carry the same confirmedAt (decision 0086) and
// /api/health lists the venue's confirmed-through time, its age and that it is not stale.
import { isQuoteStale } from "@domain/quote-age";
import { afterAll, afterEach, expect, it } from "vitest";
import { type WebSocket as Socket, WebSocket, WebSocketServer } from "ws";
import type { SocketFactory } from "../../supabase/functions/_shared/market/stream-reader.ts";
import {
  startStreamWorker,
  type StreamWorker,
} from "../../supabase/functions/_shared/market/stream-worker.ts";
import { type OpenStream, openStream } from "../support/api.ts";
import { demoUser, serviceClient, stackInfo } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
const UNCHANGED = `CU${run}`;
const MOVING = `CM${run}`;
const symbolOf = (base: string) => `${base}/USDT`;

let server: WebSocketServer | null = null;
let worker: StreamWorker | null = null;
let sse: OpenStream | null = null;
afterEach(async () => {
  sse?.close();
  sse = null;
  await worker?.stop();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  worker = server = null;
});
afterAll(async () => {
  const service = serviceClient();
  for (const base of [UNCHANGED, MOVING]) {
    await service
      .from("instruments")
      .delete()
      .eq("venue_key", `Binance:${symbolOf(base)}`);
  }
  await service.from("stream_health").delete().eq("source", "binance");
  await service.from("source_health").delete().eq("source", "binance");
});

/** A Binance `!miniTicker@arr` stream the test speaks for. */
async function binanceStream(): Promise<{
  url: string;
  push(base: string, price: number, at: number): void;
}> {
  const wss = (server = new WebSocketServer({ host: "127.0.0.1", port: 0 }));
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  let socket: Socket | null = null;
  wss.on("connection", (ws) => (socket = ws));
  const { port } = wss.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    push(base, price, at) {
      const row = {
        e: "24hrMiniTicker",
        E: at,
        s: `${base}USDT`,
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

const quote = (base: string, price: number, ts: number) => ({
  venueKey: `Binance:${symbolOf(base)}`,
  symbol: symbolOf(base),
  exchange: "Binance",
  exchangeType: "cex",
  source: "binance",
  price,
  volume24h: 5_000_000,
  volume24hUsd: 5_000_000,
  ts: new Date(ts).toISOString(),
});

it("an unchanged symbol shows its venue's confirmed-through age while the stream confirms it; a stalled venue's rows go stale", async () => {
  const service = serviceClient();
  // Twenty minutes ago: the reference of the 30-minute window (so both rows rank in its top 100).
  const past = Date.now() - 20 * 60_000;
  const earlier = await service.rpc("ingest_scan", {
    quotes: [quote(UNCHANGED, 1, past), quote(MOVING, 1, past)],
    scanned_at: new Date(past).toISOString(),
  });
  expect(earlier.error).toBeNull();

  // The stream opens (its run begins) ...
  const stream = await binanceStream();
  worker = startStreamWorker({
    client: service,
    WebSocket: WebSocket as unknown as SocketFactory,
    urls: { binance: stream.url },
    batchMs: 100,
  });
  const reader = worker.readers.binance!;
  await expect.poll(() => reader.status().state, { timeout: 10_000 }).toBe("connected");
  stream.push(MOVING, 100, Date.now());
  await expect.poll(() => reader.status().confirmedThrough, { timeout: 15_000 }).not.toBeNull();

  // ... then a full poll of the venue writes both symbols.
  const polledAt = Date.now();
  const quotedAt = polledAt - 500;
  const poll = await service.rpc("ingest_scan", {
    quotes: [quote(UNCHANGED, 100, quotedAt), quote(MOVING, 100, quotedAt)],
    scanned_at: new Date(polledAt).toISOString(),
  });
  expect(poll.error).toBeNull();
  const health = await service.rpc("record_source_health", {
    reports: [{ source: "binance", state: "ok", quotes: 2 }],
    scanned_at: new Date(polledAt).toISOString(),
  });
  expect(health.error).toBeNull();

  // A subscriber's live stream of the 30-minute window, open before the confirmation.
  const { client: user } = await demoUser("enterprise@demo.local");
  const { data: session } = await user.auth.getSession();
  const token = session.session!.access_token;
  sse = await openStream("/sse?window=30", { auth: { bearer: token } });
  expect(sse.res.status).toBe(200);
  await sse.next((e) => e.event === "connected");

  // The stream names only the moving symbol; each stored event confirms the unchanged one.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const stored = async () => {
    const { data, error } = await service
      .from("stream_health")
      .select("confirmed_since, confirmed_through")
      .eq("source", "binance")
      .single();
    if (error) throw error;
    return data;
  };
  type Entry = { symbol: string; quotedAt: string; confirmedAt: string };
  let confirmedAt = 0;
  let live: Entry | undefined;
  // A broadcast waits 250 ms for the stream's venues to be read again, then uses the reading it
  // has (decision 0086): on a busy machine an entry carries an earlier confirmation of the run
  // than the newest, never a later one. Within a few scans an entry carries one of them.
  const pushed: number[] = [];
  for (let attempt = 0; attempt < 4; attempt++) {
    confirmedAt = Date.now();
    pushed.push(confirmedAt);
    stream.push(MOVING, 120 + attempt, confirmedAt);
    await expect
      .poll(async () => Date.parse((await stored()).confirmed_through ?? ""), { timeout: 15_000 })
      .toBe(confirmedAt);
    expect(Date.parse((await stored()).confirmed_since!)).toBeLessThanOrEqual(polledAt);
    const reportSeenAt = Date.now();

    // A scan after that report (another symbol's quote): its broadcast's entry of the unchanged
    // symbol carries the venue's confirmation, as /gainers/recent does, not its quote's time.
    // (Quickly: after 5 s of silence the reader reconnects and its new run confirms nothing.)
    const other = await service.rpc("ingest_scan", {
      quotes: [quote(MOVING, 121 + attempt, Date.now())],
      scanned_at: new Date().toISOString(),
    });
    expect(other.error).toBeNull();
    live = (
      await sse.next(
        (e) =>
          Number(e.id) > reportSeenAt &&
          (e.data as Entry | undefined)?.symbol === symbolOf(UNCHANGED),
        20_000,
      )
    ).data as Entry;
    expect(Date.parse(live.quotedAt)).toBe(quotedAt);
    // Never later than the newest report, never earlier than the quote.
    expect(Date.parse(live.confirmedAt)).toBeLessThanOrEqual(confirmedAt);
    expect(Date.parse(live.confirmedAt)).toBeGreaterThanOrEqual(quotedAt);
    if (pushed.includes(Date.parse(live.confirmedAt))) break;
  }
  // The venue's confirmation by its stream (an event after the quote), not the quote's time.
  expect(pushed).toContain(Date.parse(live!.confirmedAt));
  type Row = { symbol: string; quoted_at: string; confirmed_at: string };
  const feed = async (): Promise<Map<string, Row>> => {
    const { data, error } = await user.rpc("movers_feed", { window_minutes: 30 });
    if (error) throw error;
    return new Map((data as Row[]).map((row) => [row.symbol, row]));
  };
  await expect
    .poll(async () => Date.parse((await feed()).get(symbolOf(MOVING))?.quoted_at ?? ""), {
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(confirmedAt);
  const rows = await feed();
  const unchanged = rows.get(symbolOf(UNCHANGED))!;
  expect(unchanged).toBeDefined();
  // The quote's own time stays; its data age counts from the venue's confirmation.
  expect(Date.parse(unchanged.quoted_at)).toBe(quotedAt);
  expect(Date.parse(unchanged.confirmed_at)).toBe(confirmedAt);
  expect(Date.parse(rows.get(symbolOf(MOVING))!.confirmed_at)).toBeGreaterThanOrEqual(confirmedAt);

  const { url, publishableKey } = stackInfo();
  const gainers = async () => {
    const res = await fetch(`${url}/api/gainers/recent?window=30`, {
      headers: { apikey: publishableKey, authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { symbol: string; quotedAt: string; confirmedAt: string }[];
    return body.find((g) => g.symbol === symbolOf(UNCHANGED))!;
  };
  const gainer = await gainers();
  expect(Date.parse(gainer.quotedAt)).toBe(quotedAt);
  expect(Date.parse(gainer.confirmedAt)).toBe(confirmedAt);

  // /api/health: the venue's confirmation, its age at the answer, not stale; the stream's run.
  type Health = {
    time: string;
    sources: {
      source: string;
      confirmedThrough: string | null;
      confirmedBy: string | null;
      confirmedAgeSeconds: number | null;
      stale: boolean;
    }[];
    streams: { source: string; confirmedThrough: string | null }[];
  };
  const healthRes = await fetch(`${url}/api/health`, { headers: { apikey: publishableKey } });
  expect(healthRes.status).toBe(200);
  const body = (await healthRes.json()) as Health;
  const binance = body.sources.find((s) => s.source === "binance")!;
  expect(binance).toMatchObject({
    confirmedThrough: new Date(confirmedAt).toISOString(),
    confirmedBy: "stream",
    confirmedAgeSeconds: Math.floor((Date.parse(body.time) - confirmedAt) / 1000),
    stale: false,
  });
  const streamThrough = body.streams.find((s) => s.source === "binance")!.confirmedThrough;
  expect(Date.parse(streamThrough ?? "")).toBe(confirmedAt);

  // The venue stalls: no more events. The confirmation stops (after 5 s of silence the reader
  // drops the socket and reconnects: a new run, which confirms nothing until its first stored
  // event), so the unchanged row ages from it and, past the 10-second window, is stale.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const after = (await stored()).confirmed_through;
  expect(after === null || Date.parse(after) === confirmedAt).toBe(true);
  const later = (await feed()).get(symbolOf(UNCHANGED))!;
  expect(Date.parse(later.confirmed_at)).toBeLessThanOrEqual(confirmedAt);
  expect(isQuoteStale(later.confirmed_at, 0, Date.now())).toBe(true);
  expect(Date.parse((await gainers()).confirmedAt)).toBeLessThanOrEqual(confirmedAt);
}, 120_000);
