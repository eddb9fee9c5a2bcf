// The local stand-in for the streaming worker beside a hosted project (decisions 0034, 0054, 0061):
// the same worker code (`_shared/market/stream-worker.ts`) in the stack's process, for each venue
// in MARKET_SOURCES whose stream URL is set (`BINANCE_WS_URL`, `COINBASE_WS_URL`; FAKE_VENUES=1
// sets them to the fakes). It feeds `ingest_scan` once a second through the service-role client
// with the quotes' own event times, and records its state in `stream_health`; while a stream is
// live the scan polls that venue only at its safety cadence, and at full cadence once it drops.
import { createClient } from "@supabase/supabase-js";
import { WebSocket } from "ws";
import type { SocketFactory } from "../../supabase/functions/_shared/market/stream-reader.ts";
import {
  type RpcClient,
  startStreamWorker,
  STREAM_VENUES,
  type StreamVenue,
  type StreamWorker,
} from "../../supabase/functions/_shared/market/stream-worker.ts";

export interface StreamReadersOptions {
  apiUrl: string;
  serviceKey: string;
  /** The scan's settings: MARKET_SOURCES, BINANCE_WS_URL, COINBASE_WS_URL, COINBASE_API_URL. */
  env: Record<string, string | undefined>;
  log?: (line: string) => void;
  batchMs?: number;
}

export type StreamReaders = StreamWorker;

export async function startStreamReaders(opts: StreamReadersOptions): Promise<StreamReaders> {
  const sources = new Set(
    (opts.env.MARKET_SOURCES ?? "").split(",").map((s) => s.trim().toLowerCase()),
  );
  const service = createClient(opts.apiUrl, opts.serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; supabase-js wants one for Realtime even if unused.
    realtime: { transport: WebSocket as never },
  });
  const urls: Partial<Record<StreamVenue, string>> = {};
  for (const venue of STREAM_VENUES) {
    const url = opts.env[`${venue.toUpperCase()}_WS_URL`]?.trim();
    if (sources.has(venue) && url) urls[venue] = url;
  }
  return startStreamWorker({
    client: service as unknown as RpcClient,
    WebSocket: WebSocket as unknown as SocketFactory,
    urls,
    coinbaseApiUrl: opts.env.COINBASE_API_URL,
    wakeDelivery: async () => {
      const res = await fetch(`${opts.apiUrl.replace(/\/+$/, "")}/functions/v1/deliver-alerts`, {
        method: "POST",
        headers: { Authorization: `Bearer ${opts.serviceKey}`, "Content-Type": "application/json" },
        body: "{}",
      });
      await res.body?.cancel();
    },
    log: opts.log,
    batchMs: opts.batchMs,
  });
}
