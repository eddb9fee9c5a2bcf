// The local stand-in for pg_cron + pg_net: POSTs `<api>/functions/v1/scan` with the service key
// on a schedule. `startMarketCron` runs one schedule per market source at that venue's cadence
// (MARKET_CADENCE_SECONDS; the simulated market every SCAN_INTERVAL_SECONDS, default 10), each
// asking for its own source (`{ "sources": ["binance"] }`), as the hosted pg_cron jobs
// `market-scan-<source>` do (decision 0033). Never two scans of one schedule at once: a tick that
// finds one still running is skipped, and a slow venue never delays another's schedule. Failures
// are logged when they start or change, and once a minute a summary.
import {
  CadenceError,
  DEFAULT_CADENCE_SECONDS,
  DEFAULT_DEX_ROTATION,
  describeDexRotation,
  type DexRotation,
  parseCadence,
  parseDexRotation,
} from "../supabase/functions/_shared/domain/cadence.ts";
import { MARKET_SOURCES, type MarketSource } from "../supabase/functions/_shared/domain/market.ts";

export const DEFAULT_SCAN_INTERVAL_SECONDS = 10;
const SUMMARY_EVERY_MS = 60_000;

export interface CronOptions {
  /** The stack's API URL, e.g. http://127.0.0.1:54321. */
  apiUrl: string;
  /** Sent as `Authorization: Bearer` (the service-role key). */
  serviceKey: string;
  intervalMs?: number;
  /** A scan taking longer than this is aborted (default 60 s). */
  timeoutMs?: number;
  /** Run the first scan right away instead of after one interval (default true). */
  immediate?: boolean;
  fetch?: typeof fetch;
  log?: (line: string) => void;
  now?: () => number;
  /** The JSON body sent (default `{}`: every enabled source). */
  body?: string;
  /** Names the schedule in log lines (default `scan`). */
  label?: string;
}

export interface CronStats {
  ok: number;
  failed: number;
  skipped: number;
}

export interface CronRunner {
  /** Totals since start. */
  readonly stats: CronStats;
  /** Runs one tick now (skipped when a scan is running); resolves when it is done. */
  tick(): Promise<void>;
  /** Stops the schedule, aborts a running scan and waits for it. */
  stop(): Promise<void>;
}

/** SCAN_INTERVAL_SECONDS as milliseconds (default 10 s); a bad value falls back to the default. */
export function scanIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.SCAN_INTERVAL_SECONDS);
  return (Number.isFinite(n) && n >= 1 ? n : DEFAULT_SCAN_INTERVAL_SECONDS) * 1000;
}

function describe(err: unknown): string {
  if (err instanceof Error) return err.name === "TimeoutError" ? "timed out" : err.message;
  return String(err);
}

export function startCron(opts: CronOptions): CronRunner {
  const intervalMs = opts.intervalMs ?? DEFAULT_SCAN_INTERVAL_SECONDS * 1000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const doFetch = opts.fetch ?? fetch;
  const log = opts.log ?? ((l: string) => console.log(l));
  const now = opts.now ?? Date.now;
  const url = `${opts.apiUrl.replace(/\/+$/, "")}/functions/v1/scan`;
  const label = opts.label ?? "scan";
  const requestBody = opts.body ?? "{}";

  const stats: CronStats = { ok: 0, failed: 0, skipped: 0 };
  let window: CronStats = { ok: 0, failed: 0, skipped: 0 };
  let windowStart = now();
  let lastError: string | null = null;
  let lastResult = "";
  let running: Promise<void> | null = null;
  let stopped = false;
  const controller = new AbortController();

  const summarize = () => {
    if (now() - windowStart < SUMMARY_EVERY_MS) return;
    const w = window;
    log(
      `[cron] ${label}: ${w.ok} ok, ${w.failed} failed, ${w.skipped} skipped (still running) in the last minute` +
        (lastResult ? `; last: ${lastResult}` : ""),
    );
    window = { ok: 0, failed: 0, skipped: 0 };
    windowStart = now();
  };

  const scan = async () => {
    try {
      const res = await doFetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${opts.serviceKey}`, "content-type": "application/json" },
        body: requestBody,
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      const body = JSON.parse(text) as {
        ingest?: { instruments?: number; movers?: number };
        sources?: Record<string, { error?: string; backoffUntil?: string }>;
      };
      const problems = Object.entries(body.sources ?? {})
        .filter(([, s]) => s.error || s.backoffUntil)
        .map(([name, s]) => `${name}: ${s.error ?? `paused until ${s.backoffUntil}`}`);
      lastResult =
        `${body.ingest?.instruments ?? "?"} instruments, ${body.ingest?.movers ?? "?"} movers` +
        (problems.length ? ` (${problems.join("; ")})` : "");
      stats.ok++;
      window.ok++;
      if (lastError !== null) log(`[cron] ${label} works again: ${lastResult}`);
      lastError = null;
    } catch (err) {
      if (stopped) return;
      stats.failed++;
      window.failed++;
      const message = describe(err);
      // One line when failing starts or the reason changes, not one every 10 s.
      if (message !== lastError) log(`[cron] ${label} failed: ${message}`);
      lastError = message;
    }
  };

  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      stats.skipped++;
      window.skipped++;
      return running;
    }
    running = scan().finally(() => {
      running = null;
      if (!stopped) summarize();
    });
    return running;
  };

  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref?.();
  const first = opts.immediate === false ? null : setTimeout(() => void tick(), 0);

  return {
    stats,
    tick,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      if (first) clearTimeout(first);
      controller.abort();
      await running?.catch(() => {});
    },
  };
}

/** The sources named in MARKET_SOURCES (default simulated); unknown names are left to the scan to refuse. */
export function marketSources(env: NodeJS.ProcessEnv = process.env): MarketSource[] {
  const names = (env.MARKET_SOURCES || "simulated")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s): s is MarketSource => (MARKET_SOURCES as readonly string[]).includes(s));
  return names.length > 0 ? [...new Set(names)] : ["simulated"];
}

/** One line per source: its cadence and, for the DEX rotation, each pool's refresh interval. */
export function describeCadence(
  sources: MarketSource[],
  cadence: Record<MarketSource, number>,
  rotation: DexRotation = DEFAULT_DEX_ROTATION,
): string {
  return sources
    .map((s) => {
      const every = cadence[s];
      if (s === "dex") {
        return `dex every ${every} s (GeckoTerminal's free tier takes 30 calls/min; ${describeDexRotation(every, rotation)})`;
      }
      return `${s} every ${every} s`;
    })
    .join("; ");
}

/**
 * One schedule per market source at its cadence. A bad MARKET_CADENCE_SECONDS is logged and the
 * defaults are used (the scan function itself refuses it with 500 market_cadence_invalid).
 */
export function startMarketCron(
  opts: Omit<CronOptions, "intervalMs" | "body" | "label"> & { env?: NodeJS.ProcessEnv },
): CronRunner {
  const env = opts.env ?? process.env;
  const log = opts.log ?? ((l: string) => console.log(l));
  const sources = marketSources(env);
  let cadence: Record<MarketSource, number>;
  try {
    cadence = parseCadence(env.MARKET_CADENCE_SECONDS, scanIntervalMs(env) / 1000);
  } catch (err) {
    log(`[cron] ${(err as Error).message}; using the defaults`);
    cadence = { ...DEFAULT_CADENCE_SECONDS, simulated: scanIntervalMs(env) / 1000 };
  }
  let rotation: DexRotation = DEFAULT_DEX_ROTATION;
  try {
    rotation = parseDexRotation(env.GECKOTERMINAL_NETWORKS, env.GECKOTERMINAL_PAGES);
  } catch (err) {
    // The scan refuses it (500 market_cadence_invalid); the log says so at start.
    if (!(err instanceof CadenceError)) throw err;
    log(`[cron] ${err.message}; the DEX scans will fail until it is fixed`);
  }
  log(`[cron] market sources: ${describeCadence(sources, cadence, rotation)}`);
  const runners = sources.map((source) =>
    startCron({
      ...opts,
      log,
      intervalMs: cadence[source] * 1000,
      body: JSON.stringify({ sources: [source] }),
      label: `scan ${source}`,
    }),
  );
  const stats: CronStats = {
    get ok() {
      return runners.reduce((n, r) => n + r.stats.ok, 0);
    },
    get failed() {
      return runners.reduce((n, r) => n + r.stats.failed, 0);
    },
    get skipped() {
      return runners.reduce((n, r) => n + r.stats.skipped, 0);
    },
  };
  return {
    stats,
    tick: async () => {
      await Promise.all(runners.map((r) => r.tick()));
    },
    stop: async () => {
      await Promise.all(runners.map((r) => r.stop()));
    },
  };
}
