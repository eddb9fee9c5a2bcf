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
import { type FakeVenues, startFakeVenues } from "./fake-venues.ts";

let venues: FakeVenues | null = null;
let reader: StreamReader | null = null;
afterEach(async () => {
  await reader?.stop();
  await venues?.stop();
  reader = venues = null;
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
