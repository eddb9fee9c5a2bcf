// The streaming worker beside the project (decisions 0034, 0054, 0061): for each venue it is asked
// to read, a stream reader (`stream-reader.ts`) whose one-second batches go to `ingest_scan`, whose
// alerts are enqueued beside the writes by one alert step for all venues (`alert-step.ts`:
// `enqueue_alerts_between` over the writes that landed meanwhile, decision 0069), and whose state
// goes to `record_stream_health` once a second, all through the service-role client. Runtime-agnostic: the WebSocket constructor and the
// client are passed in. The hosted worker is `stream-worker-main.ts` (Deno, `npm run
// worker:streams`); the local stack runs the same code in its own process (devstack/venues/readers.ts).
import type { Quote } from "../domain/market.ts";
import { type AlertStep, startAlertStep } from "./alert-step.ts";
import { createCoinbaseAdapter } from "./coinbase.ts";
import {
  type SocketFactory,
  startStreamReader,
  type StreamReader,
  type StreamStatus,
} from "./stream-reader.ts";

export type StreamVenue = "binance" | "coinbase";
export const STREAM_VENUES: readonly StreamVenue[] = ["binance", "coinbase"];

/** The venues' own stream endpoints, used when `BINANCE_WS_URL` / `COINBASE_WS_URL` are unset. */
export const REAL_STREAM_URLS: Record<StreamVenue, string> = {
  binance: "wss://stream.binance.com:9443",
  coinbase: "wss://advanced-trade-ws.coinbase.com",
};

/** The part of a Supabase client the worker uses. */
export interface RpcClient {
  rpc(
    fn: string,
    args: Record<string, unknown>,
  ): PromiseLike<{ data: unknown; error: { message: string } | null }>;
}

export interface StreamWorkerOptions {
  client: RpcClient;
  WebSocket: SocketFactory;
  /** Venue → stream base URL. */
  urls: Partial<Record<StreamVenue, string>>;
  /** Coinbase's REST base (its product list names the products to subscribe to). */
  coinbaseApiUrl?: string;
  /** Wakes the outbox worker when the alert step wrote jobs (as the scan does). */
  wakeDelivery?: () => Promise<void>;
  log?: (line: string) => void;
  batchMs?: number;
  fetch?: typeof fetch;
  /** The first pause before the Coinbase product list is read again after a failure (5 s). */
  productRetryMs?: number;
}

export interface StreamWorker {
  readers: Partial<Record<StreamVenue, StreamReader>>;
  /** The alert step shared by the venues' readers (its counts: tests, logs). */
  alerts: AlertStep;
  /**
   * Settles after the first read of Coinbase's product list: the reader started, or the read
   * failed and is tried again later.
   */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** `BTC/USD` → `BTC-USD`, the product id Coinbase's channels take. */
function productId(q: Quote): string {
  return q.symbol.replace("/", "-");
}

function countOf(data: unknown, key: "jobs" | "writes"): number {
  const n = (data as Record<string, unknown> | null)?.[key];
  return typeof n === "number" ? n : 0;
}

export function startStreamWorker(opts: StreamWorkerOptions): StreamWorker {
  const log = opts.log ?? (() => {});
  const { client } = opts;
  // The movers the ingests write may cross subscribers' thresholds: while a stream is live its
  // venue is polled only now and then, so the stream's writes enqueue the alerts — beside the
  // next ingest, not before it, and several writes in one call when they come faster.
  const alerts = startAlertStep({
    enqueue: async (since, through) => {
      const { data, error } = await client.rpc("enqueue_alerts_between", { since, through });
      if (error) throw new Error(`enqueue_alerts_between: ${error.message}`);
      return { jobs: countOf(data, "jobs"), writes: countOf(data, "writes") };
    },
    wakeDelivery: opts.wakeDelivery,
    log,
  });
  const ingest = (venue: StreamVenue) => async (quotes: Quote[]) => {
    const scannedAt = new Date().toISOString();
    const { error } = await client.rpc("ingest_scan", { quotes, scanned_at: scannedAt });
    if (error) throw new Error(`${venue} ingest_scan: ${error.message}`);
    alerts.wrote(scannedAt);
  };
  const report = async (status: StreamStatus) => {
    const { error } = await client.rpc("record_stream_health", { report: status });
    if (error) throw new Error(`record_stream_health: ${error.message}`);
  };
  const readers: StreamWorker["readers"] = {};
  const start = (venue: StreamVenue, url: string, productIds?: string[]) => {
    readers[venue] = startStreamReader({
      venue,
      url,
      WebSocket: opts.WebSocket,
      ...(productIds ? { productIds } : {}),
      ingest: ingest(venue),
      report,
      log,
      batchMs: opts.batchMs,
    });
    log(
      `[stream] reading ${venue} by stream; polling slows to its safety cadence while it is live`,
    );
  };
  if (opts.urls.binance) start("binance", opts.urls.binance);
  let stopped = false;
  // The channels want product ids: the tradable dollar-quoted ones of the product list. Read in
  // the background, so an unreachable venue never holds up the start; `ready` settles after the
  // first attempt. A failed or empty read is tried again (5 s, doubling up to 5 minutes): one
  // 429 or timeout at start must not leave Coinbase without its stream until the worker restarts.
  const coinbaseUrl = opts.urls.coinbase;
  const coinbase = coinbaseUrl ? createCoinbaseAdapter({ baseUrl: opts.coinbaseApiUrl }) : null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const readProducts = async (pause: number): Promise<void> => {
    if (!coinbase || !coinbaseUrl || stopped) return;
    let why: string;
    try {
      const { quotes } = await coinbase.fetchQuotes(opts.fetch ? { fetch: opts.fetch } : {});
      if (stopped) return;
      if (quotes.length > 0) {
        start("coinbase", coinbaseUrl, quotes.map(productId));
        return;
      }
      why = "the product list is empty";
    } catch (err) {
      why = `no product list (${(err as Error).message})`;
    }
    if (stopped) return;
    log(`[stream] coinbase: ${why}; no stream yet, trying again in ${pause / 1000} s`);
    retry = setTimeout(() => void readProducts(Math.min(pause * 2, 300_000)), pause);
  };
  const ready = readProducts(opts.productRetryMs ?? 5_000);
  return {
    readers,
    alerts,
    ready,
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      await ready;
      await Promise.all(Object.values(readers).map((r) => r.stop()));
      await alerts.stop();
    },
  };
}

/** What `npm run worker:streams` runs with, checked before anything connects. */
export interface StreamWorkerConfig {
  supabaseUrl: string;
  serviceKey: string;
  urls: Partial<Record<StreamVenue, string>>;
  coinbaseApiUrl?: string;
}

export const STREAM_WORKER_USAGE = `usage: npm run worker:streams -- [--venues binance,coinbase]

Reads the venues' streams and feeds the project's ingest_scan once a second (decision 0061).
Settings (environment):
  SUPABASE_URL               the project's https URL (required)
  SUPABASE_SERVICE_ROLE_KEY  the service-role key, or SUPABASE_SECRET_KEY (required)
  MARKET_SOURCES             the venues when --venues is not given (default binance,coinbase)
  BINANCE_WS_URL             default ${REAL_STREAM_URLS.binance}
  COINBASE_WS_URL            default ${REAL_STREAM_URLS.coinbase}
  COINBASE_API_URL           Coinbase's REST base, for the product list (default the real one)`;

/** Every problem with the arguments and settings, reported at once. */
export class StreamWorkerArgsError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `npm run worker:streams cannot start:\n${
        problems.map((p) => `  - ${p}`).join("\n")
      }\n\n${STREAM_WORKER_USAGE}`,
    );
    this.name = "StreamWorkerArgsError";
  }
}

/** `--help`: returns null (print the usage); otherwise the checked settings, or throws. */
export function parseStreamWorkerArgs(
  args: readonly string[],
  env: (name: string) => string | undefined,
): StreamWorkerConfig | null {
  const problems: string[] = [];
  let venueList: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--help" || arg === "-h") return null;
    if (arg === "--venues" || arg.startsWith("--venues=")) {
      const value = arg === "--venues" ? args[++i] : arg.slice("--venues=".length);
      if (!value || value.startsWith("--")) {
        problems.push("--venues needs a list: binance,coinbase");
      } else venueList = value;
      continue;
    }
    problems.push(`unknown argument ${arg} (use --venues, --help)`);
  }
  const fromSources = venueList === undefined;
  const names = (venueList ?? env("MARKET_SOURCES") ?? "binance,coinbase")
    .split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const venues = names.filter((n): n is StreamVenue => STREAM_VENUES.includes(n as StreamVenue));
  if (!fromSources) {
    for (const n of names.filter((n) => !venues.includes(n as StreamVenue))) {
      problems.push(`--venues: ${n} has no stream (streams: ${STREAM_VENUES.join(", ")})`);
    }
  }
  if (venues.length === 0 && problems.length === 0) {
    problems.push(
      `no venue with a stream: ${
        fromSources ? `MARKET_SOURCES is ${JSON.stringify(names.join(","))}` : "--venues is empty"
      } (streams: ${STREAM_VENUES.join(", ")})`,
    );
  }

  const supabaseUrl = env("SUPABASE_URL")?.trim() ?? "";
  if (!supabaseUrl) {
    problems.push("SUPABASE_URL is missing: the project's https://<ref>.supabase.co");
  } else if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(supabaseUrl)) {
    problems.push(`SUPABASE_URL is not an http(s) URL: ${JSON.stringify(supabaseUrl)}`);
  }
  const serviceKey = (env("SUPABASE_SERVICE_ROLE_KEY") || env("SUPABASE_SECRET_KEY"))?.trim() ?? "";
  if (!serviceKey) {
    problems.push(
      "SUPABASE_SERVICE_ROLE_KEY is missing: the project's service-role (secret) key, which ingest_scan requires",
    );
  }
  const urls: Partial<Record<StreamVenue, string>> = {};
  for (const venue of venues) {
    const name = `${venue.toUpperCase()}_WS_URL`;
    const url = env(name)?.trim() || REAL_STREAM_URLS[venue];
    if (!/^wss?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url)) {
      problems.push(`${name} is not a ws:// or wss:// URL without query: ${JSON.stringify(url)}`);
    } else urls[venue] = url;
  }
  const coinbaseApiUrl = env("COINBASE_API_URL")?.trim() || undefined;
  if (problems.length > 0) throw new StreamWorkerArgsError(problems);
  return {
    supabaseUrl: supabaseUrl.replace(/\/+$/, ""),
    serviceKey,
    urls,
    ...(coinbaseApiUrl ? { coinbaseApiUrl } : {}),
  };
}
