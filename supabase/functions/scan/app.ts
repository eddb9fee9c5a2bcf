// POST /functions/v1/scan (pg_cron + pg_net in production, the local stack's cron runner
// locally): read every enabled market source in parallel, ingest all quotes with ONE call of
// public.ingest_scan, then compute strategy signals. A failing source is reported and the others
// are still ingested. Callers authenticate with the service-role key or SCAN_SECRET.
import type { SupabaseClient } from "@supabase/supabase-js";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import type { MarketSource, Quote, ScanResult } from "../_shared/domain/market.ts";
import { denoEnv, type Env, notConfigured } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { createAdapters, enabledSources } from "../_shared/market/sources.ts";
import {
  type HistoryBatch,
  type MarketAdapter,
  MarketSourceError,
  NO_ROWS,
} from "../_shared/market/types.ts";
import { bearerToken, createServiceClient } from "../_shared/supabase.ts";
import { createSignalsStep, type SignalsStep } from "./signals.ts";

/** What `public.ingest_scan` returns (`skipped`: quotes the database refused). */
export type IngestResult = ScanResult;

/** What `public.ingest_backfill` returns. */
export interface BackfillResult {
  instruments: number;
  samples: number;
}

/** The database side of a scan. */
export interface ScanDb {
  ingest(quotes: Quote[], scannedAt: string): Promise<IngestResult>;
  /** The time of the newest stored price sample, or null when there is none. */
  newestSample?(): Promise<string | null>;
  /** Stores a source's replayed past (`public.ingest_backfill`). */
  backfill?(batch: HistoryBatch, until: string): Promise<BackfillResult>;
  /** Stores each source's state (`public.record_source_health`). */
  recordHealth?(health: SourceHealth[], scannedAt: string): Promise<void>;
  /** Turns the movers that cross subscribers' thresholds into outbox jobs (`public.enqueue_alerts`). */
  enqueueAlerts?(scannedAt: string): Promise<AlertsResult>;
}

/** What `public.enqueue_alerts` returns: symbols crossed (per user) and outbox jobs written. */
export interface AlertsResult {
  alerts: number;
  jobs: number;
  error?: string;
}

/** How far back a replayed past reaches: the 3-hour column's reference, and a minute more. */
export const BACKFILL_SPAN_MS = 3 * 3_600_000 + 60_000;
/** A history whose newest sample is younger than this is being kept by the scans already. */
export const BACKFILL_IDLE_MS = 5 * 60_000;

/** One source in a scan's answer. Every row the venue sent is in at most one count. */
export interface SourceReport {
  quotes: number;
  /** Malformed rows (a fault of the venue's answer or of our parsing: worth a look). */
  skipped: number;
  /** Delisted, halted, disabled or priceless rows (normal: real Binance lists dozens). */
  inactive: number;
  /** DEX pools below the liquidity floor (`DEX_MIN_LIQUIDITY_USD`), never movers. */
  illiquid: number;
  /**
   * The source failed this scan: unreachable, timed out, an HTTP error, an unreadable body, or
   * an answer with no usable row (`quotes` 0; the counts say what the rows were).
   */
  error?: string;
  /** Why the source failed: network, timeout, http, parse (an adapter's kind) or other. */
  failure?: string;
  httpStatus?: number;
  backoffUntil?: string;
}

/** One source's outcome as `public.record_source_health` stores it. */
export interface SourceHealth {
  source: MarketSource;
  state: "ok" | "backoff" | "failing";
  quotes: number;
  failure?: string;
  httpStatus?: number;
  message?: string;
  backoffUntil?: string;
}

/** The scan's per-source report as health rows: failing, backing off, or live. */
export function sourceHealth(report: ScanResponse["sources"]): SourceHealth[] {
  return (Object.entries(report) as [MarketSource, SourceReport][]).map(([source, r]) =>
    r.error
      ? {
        source,
        state: "failing",
        quotes: 0,
        failure: r.failure ?? "other",
        ...(r.httpStatus ? { httpStatus: r.httpStatus } : {}),
        message: r.error.slice(0, 300),
      }
      : r.backoffUntil && r.quotes === 0
      ? { source, state: "backoff", quotes: 0, backoffUntil: r.backoffUntil }
      : { source, state: "ok", quotes: r.quotes }
  );
}

export interface ScanResponse {
  sources: Partial<Record<MarketSource, SourceReport>>;
  /** Present when this scan replayed a source's past into an empty or stale history. */
  backfill?: { samples: number; instruments: number; error?: string };
  ingest: IngestResult;
  signals: { computed: number; error?: string };
  /** Alerts are enqueued after the answer (decision 0029): the answer only says they were queued. */
  alerts?: { queued: true };
  durationMs: number;
}

export interface ScanDeps {
  env?: Env;
  fetch?: typeof fetch;
  now?: () => Date;
  /** The database port; default: `ingest_scan` through the service-role client. */
  db?: (env: Env) => ScanDb;
  /** Adapters by source; default one real adapter per source, kept for the app's lifetime. */
  adapters?: Partial<Record<MarketSource, MarketAdapter>>;
  /** Strategy signals after the ingest; default computes them once per 5-minute candle. */
  signals?: SignalsStep;
  /** Wakes the outbox worker after alerts were enqueued; default POSTs deliver-alerts. */
  deliver?: (env: Env) => Promise<void>;
  /** Called with the enqueue's result once it finished after the answer (tests, logs). */
  onAlerts?: (result: AlertsResult) => void;
}

/** POST /functions/v1/deliver-alerts with the service-role key (the worker checks it). */
export async function invokeDelivery(env: Env, doFetch: typeof fetch = fetch): Promise<void> {
  const url = env("SUPABASE_URL")?.trim();
  const key = env("SUPABASE_SERVICE_ROLE_KEY")?.trim() || env("SUPABASE_SECRET_KEY")?.trim();
  if (!url || !key) return;
  const res = await doFetch(`${url.replace(/\/+$/, "")}/functions/v1/deliver-alerts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
    body: "{}",
  });
  await res.body?.cancel();
}

function num(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new Error(`ingest_scan returned no number for ${name}`);
  }
  return value;
}

/** `ingest_scan` over the service-role client. */
export function supabaseScanDb(client: SupabaseClient): ScanDb {
  return {
    async ingest(quotes, scannedAt) {
      const { data, error } = await client.rpc("ingest_scan", { quotes, scanned_at: scannedAt });
      if (error) throw new Error(`ingest_scan failed: ${error.message}`);
      const r = (data ?? {}) as Record<string, unknown>;
      return {
        instruments: num(r.instruments, "instruments"),
        movers: num(r.movers, "movers"),
        stale: typeof r.stale === "number" ? r.stale : 0,
        pruned: num(r.pruned, "pruned"),
        broadcasts: num(r.broadcasts, "broadcasts"),
        skipped: typeof r.skipped === "number" ? r.skipped : 0,
      };
    },
    async newestSample() {
      const { data, error } = await client.from("price_history").select("ts")
        .order("ts", { ascending: false }).limit(1);
      if (error) throw new Error(`reading the newest sample failed: ${error.message}`);
      const row = (data ?? [])[0] as { ts?: string } | undefined;
      return row?.ts ?? null;
    },
    async recordHealth(health, scannedAt) {
      const { error } = await client.rpc("record_source_health", {
        reports: health,
        scanned_at: scannedAt,
      });
      if (error) throw new Error(`record_source_health failed: ${error.message}`);
    },
    async enqueueAlerts(scannedAt) {
      const { data, error } = await client.rpc("enqueue_alerts", { scanned_at: scannedAt });
      if (error) throw new Error(`enqueue_alerts failed: ${error.message}`);
      const r = (data ?? {}) as Record<string, unknown>;
      return { alerts: num(r.alerts, "alerts"), jobs: num(r.jobs, "jobs") };
    },
    async backfill(batch, until) {
      const { data, error } = await client.rpc("ingest_backfill", { batch, until });
      if (error) throw new Error(`ingest_backfill failed: ${error.message}`);
      const r = (data ?? {}) as Record<string, unknown>;
      return {
        instruments: num(r.instruments, "instruments"),
        samples: num(r.samples, "samples"),
      };
    },
  };
}

/** Constant-time comparison of two strings (the length is not secret). */
function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

/** The bearer must be the service-role key (either name) or SCAN_SECRET; else 401. */
function authorize(env: Env, req: Request): void {
  const accepted = ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY", "SCAN_SECRET"]
    .map((name) => env(name)?.trim())
    .filter((v): v is string => !!v);
  if (accepted.length === 0) {
    throw notConfigured("scan_not_configured", ["SUPABASE_SERVICE_ROLE_KEY", "SCAN_SECRET"]);
  }
  const token = bearerToken(req);
  if (!token || !accepted.some((secret) => sameSecret(token, secret))) {
    throw new HttpError(401, "unauthorized", "The scan needs the service-role key or SCAN_SECRET.");
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createScanApp(deps: ScanDeps = {}) {
  const env = deps.env ?? denoEnv;
  const now = deps.now ?? (() => new Date());
  const adapters = deps.adapters ?? createAdapters(env);
  const makeDb = deps.db ??
    ((e: Env) => supabaseScanDb(createServiceClient(e, "scan_not_configured")));
  const signals = deps.signals ??
    createSignalsStep((e) => createServiceClient(e, "scan_not_configured"));
  const app = functionApp("scan", { cors: false });
  // Sources whose past this instance has replayed, or found kept by the scans already.
  const covered = new Set<MarketSource>();

  /**
   * Before a source that can replay its past (the simulated market) is first ingested by this
   * instance: when the history is empty or nobody scanned for BACKFILL_IDLE_MS (a fresh
   * database, `npm run db:reset`, a stack stopped overnight), its last 3 hours are stored first,
   * so the ingest below computes every window, and the signals step has its candles, at once.
   */
  async function backfill(
    sources: MarketSource[],
    db: ScanDb,
    scannedAt: Date,
  ): Promise<ScanResponse["backfill"]> {
    const replayable = sources.filter((s) => adapters[s]?.history && !covered.has(s));
    if (replayable.length === 0 || !db.newestSample || !db.backfill) return undefined;
    const newest = await db.newestSample();
    if (newest && scannedAt.getTime() - Date.parse(newest) < BACKFILL_IDLE_MS) {
      replayable.forEach((s) => covered.add(s));
      return undefined;
    }
    const range = {
      from: new Date(scannedAt.getTime() - BACKFILL_SPAN_MS),
      // The scan itself stores the current instant.
      to: new Date(scannedAt.getTime() - 10_000),
    };
    const total = { samples: 0, instruments: 0 };
    for (const source of replayable) {
      const r = await db.backfill(adapters[source]!.history!(range), scannedAt.toISOString());
      total.samples += r.samples;
      total.instruments += r.instruments;
      covered.add(source);
    }
    return total;
  }

  app.post("/", async (c) => {
    authorize(env, c.req.raw);
    const started = performance.now();
    const sources = enabledSources(env);
    const db = makeDb(env);
    const scannedAt = now().toISOString();

    const settled = await Promise.allSettled(
      sources.map((source) => {
        const adapter = adapters[source];
        if (!adapter) return Promise.reject(new Error(`no adapter for ${source}`));
        // Each request has its own timeout (8 s); the caller's signal is not passed on, as
        // Deno aborts it once the response is sent (legacy behaviour) and pg_net waits 30 s.
        return adapter.fetchQuotes({ fetch: deps.fetch, now });
      }),
    );
    const report: ScanResponse["sources"] = {};
    const quotes: Quote[] = [];
    settled.forEach((result, i) => {
      const source = sources[i]!;
      if (result.status === "fulfilled") {
        const { quotes: q, skipped, inactive, illiquid, backoffUntil } = result.value;
        quotes.push(...q);
        report[source] = {
          quotes: q.length,
          skipped,
          inactive,
          illiquid,
          ...(backoffUntil ? { backoffUntil } : {}),
        };
      } else {
        console.warn(`[scan] ${source} failed: ${message(result.reason)}`);
        const reason = result.reason;
        const counts = reason instanceof MarketSourceError ? reason.counts : undefined;
        report[source] = {
          quotes: 0,
          ...(counts ?? NO_ROWS),
          error: message(reason),
          failure: reason instanceof MarketSourceError ? reason.kind : "other",
          ...(reason instanceof MarketSourceError && reason.status
            ? { httpStatus: reason.status }
            : {}),
        };
      }
    });

    // A failed backfill is reported; the scan goes on and the next one tries again.
    let backfilled: ScanResponse["backfill"];
    try {
      backfilled = await backfill(sources, db, new Date(scannedAt));
    } catch (err) {
      console.warn(`[scan] backfill failed: ${message(err)}`);
      backfilled = { samples: 0, instruments: 0, error: message(err) };
    }

    const ingest = await db.ingest(quotes, scannedAt);

    // The sources' state is shown to users; failing to store it does not fail the scan.
    try {
      await db.recordHealth?.(sourceHealth(report), scannedAt);
    } catch (err) {
      console.warn(`[scan] source health not recorded: ${message(err)}`);
    }

    // Signals are a by-product: their failure is reported, the scan itself succeeded.
    let signalReport: ScanResponse["signals"];
    try {
      signalReport = { computed: await signals({ env, scannedAt, quotes }) };
    } catch (err) {
      console.warn(`[scan] signals failed: ${message(err)}`);
      signalReport = { computed: 0, error: message(err) };
    }

    // Alerts come after the signals (confluence reads them), and after the answer: the scan
    // never waits for them (decision 0029). Hosted edge functions keep the work alive through
    // EdgeRuntime.waitUntil; the local host keeps running promises. enqueue_alerts is a no-op
    // for a scan already enqueued, so the one retry cannot double a job. The outbox keeps the
    // jobs when the worker cannot be woken: the schedule delivers them then.
    let alerts: ScanResponse["alerts"];
    if (db.enqueueAlerts) {
      const enqueue = db.enqueueAlerts.bind(db);
      const work = (async () => {
        let result: AlertsResult;
        try {
          result = await enqueue(scannedAt);
        } catch (first) {
          console.warn(`[scan] alerts failed, retrying once: ${message(first)}`);
          try {
            result = await enqueue(scannedAt);
          } catch (err) {
            console.warn(`[scan] alerts failed: ${message(err)}`);
            return;
          }
        }
        if (result.jobs > 0) {
          await (deps.deliver ?? ((e: Env) => invokeDelivery(e, deps.fetch)))(env).catch((err) =>
            console.warn(`[scan] delivery not woken: ${message(err)}`)
          );
        }
        deps.onAlerts?.(result);
      })();
      // Hosted edge functions keep a promise alive after the response only through waitUntil.
      (globalThis as { EdgeRuntime?: { waitUntil(p: Promise<unknown>): void } }).EdgeRuntime
        ?.waitUntil(work);
      alerts = { queued: true };
    }

    const body: ScanResponse = {
      sources: report,
      ...(backfilled ? { backfill: backfilled } : {}),
      ingest,
      signals: signalReport,
      ...(alerts ? { alerts } : {}),
      durationMs: Math.round(performance.now() - started),
    };
    return c.json(body);
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createScanApp();
