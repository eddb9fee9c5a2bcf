// The local stand-in for the streaming worker beside a hosted project (decisions 0034, 0054):
// for each venue in MARKET_SOURCES whose stream URL is set (`BINANCE_WS_URL`, `COINBASE_WS_URL`;
// FAKE_VENUES=1 sets them to the fakes), a reader that feeds `ingest_scan` once a second through
// the service-role client, with the quotes' own event times. The polling schedules keep running:
// when a stream drops, polling alone carries the venue until the reader has reconnected.
import { createClient } from "@supabase/supabase-js";
import { WebSocket } from "ws";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import { createCoinbaseAdapter } from "../../supabase/functions/_shared/market/coinbase.ts";
import {
  type SocketFactory,
  startStreamReader,
  type StreamReader,
} from "../../supabase/functions/_shared/market/stream-reader.ts";

export interface StreamReadersOptions {
  apiUrl: string;
  serviceKey: string;
  /** The scan's settings: MARKET_SOURCES, BINANCE_WS_URL, COINBASE_WS_URL, COINBASE_API_URL. */
  env: Record<string, string | undefined>;
  log?: (line: string) => void;
  batchMs?: number;
}

export interface StreamReaders {
  readers: Partial<Record<"binance" | "coinbase", StreamReader>>;
  /** Settles once the Coinbase reader has started (it first reads the product list), or could not. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** `BTC/USD` → `BTC-USD`, the product id Coinbase's channels take. */
function productId(q: Quote): string {
  return q.symbol.replace("/", "-");
}

export async function startStreamReaders(opts: StreamReadersOptions): Promise<StreamReaders> {
  const log = opts.log ?? (() => {});
  const sources = new Set(
    (opts.env.MARKET_SOURCES ?? "").split(",").map((s) => s.trim().toLowerCase()),
  );
  const service = createClient(opts.apiUrl, opts.serviceKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; supabase-js wants one for Realtime even if unused.
    realtime: { transport: WebSocket as never },
  });
  const ingest = (venue: string) => async (quotes: Quote[]) => {
    const { error } = await service.rpc("ingest_scan", {
      quotes: quotes as never,
      scanned_at: new Date().toISOString(),
    });
    if (error) throw new Error(`${venue} ingest_scan: ${error.message}`);
  };
  const readers: StreamReaders["readers"] = {};
  const binanceUrl = opts.env.BINANCE_WS_URL?.trim();
  if (sources.has("binance") && binanceUrl) {
    readers.binance = startStreamReader({
      venue: "binance",
      url: binanceUrl,
      WebSocket: WebSocket as unknown as SocketFactory,
      ingest: ingest("binance"),
      log,
      batchMs: opts.batchMs,
    });
  }
  const coinbaseUrl = opts.env.COINBASE_WS_URL?.trim();
  let stopped = false;
  // The channels want product ids: the tradable dollar-quoted ones of the product list. Read in
  // the background, so an unreachable venue never holds up the stack's start.
  const coinbaseStart =
    sources.has("coinbase") && coinbaseUrl
      ? createCoinbaseAdapter({ baseUrl: opts.env.COINBASE_API_URL })
          .fetchQuotes()
          .then(({ quotes }) => {
            if (stopped || quotes.length === 0) return;
            readers.coinbase = startStreamReader({
              venue: "coinbase",
              url: coinbaseUrl,
              WebSocket: WebSocket as unknown as SocketFactory,
              productIds: quotes.map(productId),
              ingest: ingest("coinbase"),
              log,
              batchMs: opts.batchMs,
            });
            log("[stream] reading coinbase by stream; polling continues");
          })
          .catch((err: unknown) =>
            log(`[stream] coinbase: no product list (${(err as Error).message}); no stream`),
          )
      : Promise.resolve();
  if (readers.binance) log("[stream] reading binance by stream; polling continues");
  return {
    readers,
    ready: coinbaseStart,
    stop: async () => {
      stopped = true;
      await coinbaseStart;
      await Promise.all(Object.values(readers).map((r) => r.stop()));
    },
  };
}
