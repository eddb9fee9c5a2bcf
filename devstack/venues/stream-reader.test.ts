// The streaming reader's loop against the fake venues' streams: one-second batches of quotes
// stamped with the venue's event time, and a reconnect after the venue drops the stream.
import { afterEach, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import {
  type SocketFactory,
  startStreamReader,
  type StreamReader,
  type StreamStatus,
} from "../../supabase/functions/_shared/market/stream-reader.ts";
import {
  startStreamWorker,
  type StreamWorker,
} from "../../supabase/functions/_shared/market/stream-worker.ts";
import { type FakeVenues, startFakeVenues } from "./fake-venues.ts";

let venues: FakeVenues | null = null;
let reader: StreamReader | null = null;
let worker: StreamWorker | null = null;
afterEach(async () => {
  await reader?.stop();
  await worker?.stop();
  await venues?.stop();
  reader = venues = worker = null;
});

for (const venue of ["binance", "coinbase"] as const) {
  it(`${venue}: batches the stream's quotes with venue time, and reconnects after a drop`, async () => {
    const started = Date.now();
    const v = (venues = await startFakeVenues({ tickMs: 250, streamDropEveryMs: 0 }));
    const batches: Quote[][] = [];
    const reports: StreamStatus[] = [];
    const r = (reader = startStreamReader({
      venue,
      url: venue === "binance" ? v.urls.binanceWs : v.urls.coinbaseWs,
      WebSocket: WebSocket as unknown as SocketFactory,
      productIds: ["BTC-USD", "ETH-USD"],
      ingest: async (quotes) => void batches.push(quotes),
      report: async (status) => void reports.push(status),
      batchMs: 300,
      maxReconnectMs: 500,
    }));
    await expect.poll(() => batches.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const last = batches.at(-1)!;
    const symbol = venue === "binance" ? "BTC/USDT" : "BTC/USD";
    const btc = last.find((q) => q.symbol === symbol)!;
    expect(btc).toBeDefined();
    // Each instrument once per batch, stamped with the venue's time of that message.
    expect(new Set(last.map((q) => q.venueKey)).size).toBe(last.length);
    expect(Date.parse(btc.ts)).toBeGreaterThan(started);
    expect(r.live()).toBe(true);
    expect(r.connections).toBe(1);
    // Its own health: connected, no reconnect, the venue speaking; a report after each batch.
    expect(r.status()).toMatchObject({ source: venue, state: "connected", reconnects: 0 });
    expect(reports.at(-1)).toMatchObject({ state: "connected", droppedAt: null, reconnects: 0 });
    expect(Date.now() - Date.parse(reports.at(-1)!.lastMessageAt!)).toBeLessThan(5_000);
    const before = reports.length;

    expect(v.dropStreams(venue)).toBe(1);
    await expect.poll(() => r.connections, { timeout: 10_000 }).toBe(2);
    // The drop was reported at once, then the new connection with one reconnect.
    const after = reports.slice(before);
    const drop = after.findIndex((s) => s.state === "dropped");
    expect(drop).toBeGreaterThanOrEqual(0);
    expect(after[drop]!.droppedAt).not.toBeNull();
    await expect
      .poll(() => reports.at(-1), { timeout: 10_000 })
      .toMatchObject({ state: "connected", reconnects: 1, droppedAt: null });
    const batchesBefore = batches.length;
    await expect.poll(() => batches.length, { timeout: 10_000 }).toBeGreaterThan(batchesBefore);
  });
}

/** A socket the test drives by hand: `push` delivers a message as the venue would. */
class HandSocket {
  static last: HandSocket | null = null;
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(readonly url: string) {
    HandSocket.last = this;
    queueMicrotask(() => {
      this.readyState = 1;
      this.onopen?.({});
    });
  }
  send(): void {}
  close(): void {
    this.readyState = 3;
  }
  push(rows: { s: string; c: string; E: number }[]): void {
    const data = rows.map((r) => ({
      e: "24hrMiniTicker",
      o: "1",
      h: "2",
      l: "0.5",
      v: "10",
      q: "1000",
      ...r,
    }));
    this.onmessage?.({ data: JSON.stringify({ stream: "!miniTicker@arr", data }) });
  }
}

it("a database slower than the stream: the seconds that wait for an ingest go to the next one together, never a backlog", async () => {
  const calls: Quote[][] = [];
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const r = (reader = startStreamReader({
    venue: "binance",
    url: "ws://hand",
    WebSocket: HandSocket as unknown as SocketFactory,
    // The first ingest hangs until the test releases it (a database busy for many seconds).
    ingest: async (quotes) => {
      calls.push(quotes);
      if (calls.length === 1) await gate;
    },
    batchMs: 50,
  }));
  await expect.poll(() => HandSocket.last?.readyState).toBe(1);
  const socket = HandSocket.last!;
  const t0 = Date.parse("2026-11-28T12:00:00Z");
  socket.push([{ s: "BTCUSDT", c: "100", E: t0 }]);
  await expect.poll(() => calls.length).toBe(1);
  // Six more seconds of the stream while that ingest runs; ETH only in the first of them.
  socket.push([
    { s: "BTCUSDT", c: "101", E: t0 + 1000 },
    { s: "ETHUSDT", c: "10", E: t0 + 1000 },
  ]);
  for (let i = 2; i <= 6; i++) {
    await expect.poll(() => r.merged).toBe(i - 1);
    socket.push([{ s: "BTCUSDT", c: String(100 + i), E: t0 + i * 1000 }]);
  }
  await expect.poll(() => r.merged).toBe(6);
  expect(calls).toHaveLength(1);
  release();
  await expect.poll(() => calls.length).toBe(2);
  // One ingest with the newest quote of each instrument, not six ingests a second behind each other.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(calls).toHaveLength(2);
  const second = new Map(calls[1]!.map((q) => [q.symbol, q]));
  expect([...second.keys()].sort()).toEqual(["BTC/USDT", "ETH/USDT"]);
  expect(second.get("BTC/USDT")).toMatchObject({
    price: 106,
    ts: new Date(t0 + 6000).toISOString(),
  });
  expect(second.get("ETH/USDT")).toMatchObject({
    price: 10,
    ts: new Date(t0 + 1000).toISOString(),
  });
});

it("coinbase: a product list that fails at start is read again, and the stream starts then", async () => {
  const v = (venues = await startFakeVenues({ tickMs: 250, streamDropEveryMs: 0 }));
  let calls = 0;
  const lines: string[] = [];
  const w = (worker = startStreamWorker({
    client: { rpc: async () => ({ data: null, error: null }) },
    WebSocket: WebSocket as unknown as SocketFactory,
    urls: { coinbase: v.urls.coinbaseWs },
    coinbaseApiUrl: v.urls.coinbase,
    // The first read meets a venue that answers 503 (as a 429 or a timeout at start would).
    fetch: async (input, init) => {
      calls++;
      if (calls === 1) return new Response("busy", { status: 503 });
      return fetch(input, init);
    },
    productRetryMs: 100,
    log: (line) => lines.push(line),
  }));
  await w.ready;
  expect(w.readers.coinbase).toBeUndefined();
  expect(lines.join("\n")).toMatch(/coinbase: no product list .*trying again in 0.1 s/);
  await expect.poll(() => w.readers.coinbase?.live(), { timeout: 10_000 }).toBe(true);
  expect(calls).toBe(2);
});

it("the venue is confirmed through the newest stream event whose quotes are stored; a failed ingest starts the run again; silence stops it", async () => {
  const calls: Quote[][] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  let fail = false;
  const r = (reader = startStreamReader({
    venue: "binance",
    url: "ws://hand",
    WebSocket: HandSocket as unknown as SocketFactory,
    ingest: async (quotes) => {
      calls.push(quotes);
      if (fail) throw new Error("database gone");
      await gate;
    },
    batchMs: 50,
  }));
  await expect.poll(() => HandSocket.last?.readyState).toBe(1);
  const socket = HandSocket.last!;
  // The run starts when the stream opens; nothing is confirmed before its first stored event.
  expect(r.status().confirmedSince).not.toBeNull();
  expect(r.status().confirmedThrough).toBeNull();
  const since = r.status().confirmedSince;
  const t0 = Date.parse("2026-11-29T03:00:00Z");
  socket.push([{ s: "BTCUSDT", c: "100", E: t0 }]);
  await expect.poll(() => calls.length).toBe(1);
  // The ingest has not returned: the event's quote is not stored, so nothing is confirmed yet,
  // and a later event arriving meanwhile does not confirm past the quotes that wait.
  socket.push([{ s: "ETHUSDT", c: "10", E: t0 + 1000 }]);
  await expect.poll(() => r.merged).toBe(1);
  expect(r.status().confirmedThrough).toBeNull();
  release();
  await expect.poll(() => calls.length).toBe(2);
  await expect.poll(() => r.status().confirmedThrough).toBe(new Date(t0 + 1000).toISOString());
  expect(r.status().confirmedSince).toBe(since);

  // Silence (a stalled venue): the confirmation stays where it was.
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(r.status().confirmedThrough).toBe(new Date(t0 + 1000).toISOString());

  // A failed ingest loses its quotes: the run starts again, with nothing confirmed.
  fail = true;
  socket.push([{ s: "BTCUSDT", c: "101", E: t0 + 2000 }]);
  await expect.poll(() => calls.length).toBe(3);
  await expect.poll(() => r.status().confirmedThrough).toBeNull();
  expect(Date.parse(r.status().confirmedSince!)).toBeGreaterThan(Date.parse(since!));
  // The next stored event confirms again, from the new run.
  fail = false;
  gate = Promise.resolve();
  socket.push([{ s: "BTCUSDT", c: "102", E: t0 + 3000 }]);
  await expect.poll(() => r.status().confirmedThrough).toBe(new Date(t0 + 3000).toISOString());
});
