// POST /functions/v1/scan (pg_cron + pg_net in production, the local stack's cron runner
// locally): read the enabled market sources in parallel — every one, or those the body names
// (`{ "sources": ["binance"] }`: each venue has its own schedule at its own cadence, decision
// 0033) — and ingest each source's quotes with ONE call of public.ingest_scan as soon as that
// venue answered, then compute strategy signals. A failing or slow source is reported and never
// holds back the others. Every scan call carries one group (SCAN_GROUP): the database merges the
// rows of the calls in flight together — the venue calls of one scan, and the per-venue scans
// whose ticks coincide — into the kept lists and broadcasts them once, at the last of them
// (decision 0104). Callers authenticate with the service-role key or SCAN_SECRET.
import { asJson, type Db, jsonObject, serviceClient } from "../_shared/clients.ts";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  type MarketSource,
  type Quote,
  SCAN_GROUP,
  type ScanResult,
} from "../_shared/domain/market.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import {
  describeDexRotation,
  type DexRotation,
  parseCadence,
  parseDexRotation,
  refreshSeconds,
} from "../_shared/domain/cadence.ts";
import { createAdapters, enabledSources } from "../_shared/market/sources.ts";
import {
  parseSafetySeconds,
  skipPoll,
  type StreamState,
} from "../_shared/market/stream-polling.ts";
import {
  type HistoryBatch,
  type MarketAdapter,
  MarketSourceError,
  NO_ROWS,
} from "../_shared/market/types.ts";
import { requireBearerSecret } from "../_shared/bearer-secret.ts";
import { CANDLE_BUCKET_MS } from "../_shared/domain/candles.ts";
import {
  createSignalsStep,
  type ReplayedSignalRow,
  replayedSignalRows,
  type SignalsStep,
} from "./signals.ts";

/** What `public.ingest_scan` returns (`skipped`: quotes the database refused). */
export type IngestResult = ScanResult;

/** What `public.ingest_backfill` returns. */
export interface BackfillResult {
  instruments: number;
  samples: number;
}

/** The database side of a scan. */
export interface ScanDb {
  /**
   * `public.ingest_scan`. `group`: SCAN_GROUP for the scan's calls (decision 0104): a call that
   * reaches the database's publication while another call of the group is in flight leaves its
   * rows' kept lists and broadcast to the last of them (within 1 s or 6 calls).
   */
  ingest(quotes: Quote[], scannedAt: string, group?: string): Promise<IngestResult>;
  /** The time of the newest stored price sample, or null when there is none. */
  newestSample?(): Promise<string | null>;
  /** Stores a source's replayed past (`public.ingest_backfill`). */
  backfill?(batch: HistoryBatch, until: string): Promise<BackfillResult>;
  /**
   * Stores the signals computed at past points of a replayed history
   * (`public.ingest_replayed_signals`), then records the outcomes now due
   * (`public.record_signal_outcomes`).
   */
  replaySignals?(rows: ReplayedSignalRow[]): Promise<{ signals: number; outcomes: number }>;
  /** Stores each source's state (`public.record_source_health`). */
  recordHealth?(health: SourceHealth[], scannedAt: string): Promise<void>;
  /** Turns the movers that cross subscribers' thresholds into outbox jobs (`public.enqueue_alerts`). */
  enqueueAlerts?(scannedAt: string): Promise<AlertsResult>;
  /**
   * Per source: its stream's state (`stream_health`, null when no reader reports one) and its
   * last poll (`source_health.last_attempt_at`), to poll slowly while the stream is live.
   */
  pollingState?(
    sources: MarketSource[],
  ): Promise<Partial<Record<MarketSource, PollingState>>>;
}

/** What the scan knows about a source's stream and its last poll (decision 0061). */
export interface PollingState {
  stream: StreamState | null;
  lastPollAt: string | null;
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
  /** How often each of the source's instruments is refreshed, in seconds (decision 0033). */
  cadenceSeconds?: number;
  /** The venue time of the newest quote delivered. */
  lastQuoteAt?: string;
  /** The venue's clock minus ours, measured on the answer (ms). */
  skewMs?: number;
  /**
   * Not polled this tick: the venue's stream is live and the last poll is younger than the
   * safety cadence (`STREAM_SAFETY_POLL_SECONDS`, decision 0061).
   */
  byStream?: true;
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
  cadenceSeconds?: number;
  lastQuoteAt?: string;
  skewMs?: number;
}

/** The scan's per-source report as health rows: failing, backing off, or live. */
export function sourceHealth(report: ScanResponse["sources"]): SourceHealth[] {
  return (Object.entries(report) as [MarketSource, SourceReport][]).map(([source, r]) => ({
    ...healthState(source, r),
    ...(r.cadenceSeconds ? { cadenceSeconds: r.cadenceSeconds } : {}),
    ...(r.lastQuoteAt ? { lastQuoteAt: r.lastQuoteAt } : {}),
    ...(r.skewMs !== undefined ? { skewMs: r.skewMs } : {}),
  }));
}

function healthState(source: MarketSource, r: SourceReport): SourceHealth {
  return r.error
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
    : { source, state: "ok", quotes: r.quotes };
}

export interface ScanResponse {
  sources: Partial<Record<MarketSource, SourceReport>>;
  /** Present when this scan replayed a source's past into an empty or stale history. */
  backfill?: {
    samples: number;
    instruments: number;
    /** Signals computed at past points of the replay, and outcomes recorded (decision 0090). */
    signals?: number;
    outcomes?: number;
    error?: string;
  };
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
export function supabaseScanDb(client: Db): ScanDb {
  return {
    async ingest(quotes, scannedAt, group) {
      const { data, error } = await client.rpc("ingest_scan", {
        quotes: asJson(quotes),
        scanned_at: scannedAt,
        ...(group ? { scan_group: group } : {}),
      });
      if (error) throw new Error(`ingest_scan failed: ${error.message}`);
      const r = jsonObject(data);
      return {
        instruments: num(r.instruments, "instruments"),
        movers: num(r.movers, "movers"),
        stale: typeof r.stale === "number" ? r.stale : 0,
        pruned: num(r.pruned, "pruned"),
        broadcasts: num(r.broadcasts, "broadcasts"),
        skipped: typeof r.skipped === "number" ? r.skipped : 0,
        ...(r.deferred === true ? { deferred: true } : {}),
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
        reports: asJson(health),
        scanned_at: scannedAt,
      });
      if (error) throw new Error(`record_source_health failed: ${error.message}`);
    },
    async enqueueAlerts(scannedAt) {
      const { data, error } = await client.rpc("enqueue_alerts", { scanned_at: scannedAt });
      if (error) throw new Error(`enqueue_alerts failed: ${error.message}`);
      const r = jsonObject(data);
      return { alerts: num(r.alerts, "alerts"), jobs: num(r.jobs, "jobs") };
    },
    async pollingState(sources) {
      const [streams, polls] = await Promise.all([
        client.from("stream_health").select("source, state, last_message_at, reported_at")
          .in("source", sources),
        client.from("source_health").select("source, last_attempt_at").in("source", sources),
      ]);
      if (streams.error) throw new Error(`reading stream_health failed: ${streams.error.message}`);
      if (polls.error) throw new Error(`reading source_health failed: ${polls.error.message}`);
      const out: Partial<Record<MarketSource, PollingState>> = {};
      for (const source of sources) {
        const s = (streams.data ?? []).find((r) => r.source === source);
        const p = (polls.data ?? []).find((r) => r.source === source);
        out[source] = {
          stream: s
            ? { state: s.state, lastMessageAt: s.last_message_at, reportedAt: s.reported_at }
            : null,
          lastPollAt: p?.last_attempt_at ?? null,
        };
      }
      return out;
    },
    async backfill(batch, until) {
      const { data, error } = await client.rpc("ingest_backfill", { batch: asJson(batch), until });
      if (error) throw new Error(`ingest_backfill failed: ${error.message}`);
      const r = jsonObject(data);
      return {
        instruments: num(r.instruments, "instruments"),
        samples: num(r.samples, "samples"),
      };
    },
    async replaySignals(rows) {
      let signals = 0;
      if (rows.length > 0) {
        const { data, error } = await client.rpc("ingest_replayed_signals", {
          signals: asJson(rows),
        });
        if (error) throw new Error(`ingest_replayed_signals failed: ${error.message}`);
        signals = Number(data ?? 0);
      }
      const { data, error } = await client.rpc("record_signal_outcomes");
      if (error) throw new Error(`record_signal_outcomes failed: ${error.message}`);
      return { signals, outcomes: Number(data ?? 0) };
    },
  };
}

/** The bearer must be the service-role key (either name) or SCAN_SECRET; else 401. */
function authorize(env: Env, req: Request): void {
  requireBearerSecret(env, req, {
    notConfiguredCode: "scan_not_configured",
    unauthorizedMessage: "The scan needs the service-role key or SCAN_SECRET.",
  });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One source's part of a scan. */
interface SourceRun {
  source: MarketSource;
  report: SourceReport;
  quotes: Quote[];
  /** The time of this source's ingest (when the venue answered). */
  scannedAt: string;
  /** Absent when the source delivered no quote (nothing was ingested for it). */
  ingest?: IngestResult;
  backfilled?: ScanResponse["backfill"];
}

/** The counts of the scan's ingests, summed (whether a call deferred is not a count). */
function sumIngests(results: IngestResult[]): IngestResult {
  const total: Required<Omit<IngestResult, "deferred">> = {
    instruments: 0,
    movers: 0,
    stale: 0,
    pruned: 0,
    broadcasts: 0,
    skipped: 0,
  };
  for (const r of results) {
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += r[key];
  }
  return total;
}

/**
 * The sources a call asks for: `{ "sources": ["binance"] }` (each venue's own schedule), else
 * every enabled source. A source that is not enabled (MARKET_SOURCES), or a body that is not
 * such a list, is a 400.
 */
async function requestedSources(req: Request, enabled: MarketSource[]): Promise<MarketSource[]> {
  const text = await req.text();
  if (!text.trim()) return enabled;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      "invalid_body",
      'The scan takes a JSON body: {} or { "sources": ["binance"] }.',
    );
  }
  const list = typeof body === "object" && body !== null && !Array.isArray(body)
    ? (body as { sources?: unknown }).sources
    : Symbol("invalid");
  if (list === undefined) return enabled;
  if (!Array.isArray(list) || list.length === 0 || !list.every((s) => typeof s === "string")) {
    throw new HttpError(400, "invalid_body", "sources must be a non-empty list of source names.");
  }
  const wanted = [...new Set(list as string[])];
  const off = wanted.filter((s) => !(enabled as string[]).includes(s));
  if (off.length > 0) {
    throw new HttpError(
      400,
      "source_not_enabled",
      `Not scanned here: ${off.join(", ")} (MARKET_SOURCES is ${enabled.join(", ")}).`,
    );
  }
  return wanted as MarketSource[];
}

export function createScanApp(deps: ScanDeps = {}) {
  const env = deps.env ?? denoEnv;
  const now = deps.now ?? (() => new Date());
  const adapters = deps.adapters ?? createAdapters(env);
  const makeDb = deps.db ??
    ((e: Env) => supabaseScanDb(serviceClient(e, "scan_not_configured")));
  const signals = deps.signals ??
    createSignalsStep((e) => serviceClient(e, "scan_not_configured"));
  const app = functionApp("scan", { cors: false });
  // Sources whose past this instance has replayed, or found kept by the scans already.
  const covered = new Set<MarketSource>();
  // The DEX rotation's cadence is logged once per instance, at its first DEX scan (decision 0091).
  let dexRotationLogged = false;
  let signalsRunning = false;

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
    const total: NonNullable<ScanResponse["backfill"]> = { samples: 0, instruments: 0 };
    for (const source of replayable) {
      const batch = adapters[source]!.history!(range);
      const r = await db.backfill(batch, scannedAt.toISOString());
      total.samples += r.samples;
      total.instruments += r.instruments;
      covered.add(source);
      // The signals of that past, at the live step's cadence (one per 5-minute candle), and the
      // outcomes already due: the track record is not empty for the first hour (decision 0090).
      if (db.replaySignals) {
        // Up to the current candle, whose signals the live step computes after this ingest.
        const current = Math.floor(scannedAt.getTime() / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS;
        const rows = replayedSignalRows(batch, range.from.getTime(), current - 1);
        const s = await db.replaySignals(rows);
        total.signals = (total.signals ?? 0) + s.signals;
        total.outcomes = (total.outcomes ?? 0) + s.outcomes;
      }
    }
    return total;
  }

  /** One source: read it, then (its past first, if needed) ingest its quotes at once. */
  async function scanSource(
    source: MarketSource,
    db: ScanDb,
    cadence: Record<MarketSource, number>,
    rotation: DexRotation,
  ): Promise<SourceRun> {
    const adapter = adapters[source];
    let report: SourceReport;
    let quotes: Quote[] = [];
    let skewMs: number | undefined;
    try {
      if (!adapter) throw new Error(`no adapter for ${source}`);
      // Each request has its own timeout (8 s); the caller's signal is not passed on, as
      // Deno aborts it once the response is sent (legacy behaviour) and pg_net waits 30 s.
      const r = await adapter.fetchQuotes({ fetch: deps.fetch, now });
      quotes = r.quotes;
      skewMs = r.skewMs;
      report = {
        quotes: r.quotes.length,
        skipped: r.skipped,
        inactive: r.inactive,
        illiquid: r.illiquid,
        ...(r.backoffUntil ? { backoffUntil: r.backoffUntil } : {}),
      };
    } catch (reason) {
      console.warn(`[scan] ${source} failed: ${message(reason)}`);
      const counts = reason instanceof MarketSourceError ? reason.counts : undefined;
      report = {
        quotes: 0,
        ...(counts ?? NO_ROWS),
        error: message(reason),
        failure: reason instanceof MarketSourceError ? reason.kind : "other",
        ...(reason instanceof MarketSourceError && reason.status
          ? { httpStatus: reason.status }
          : {}),
      };
    }
    report.cadenceSeconds = refreshSeconds(source, cadence[source], rotation);
    if (skewMs !== undefined) report.skewMs = skewMs;
    const newest = quotes.reduce<string | null>(
      (max, q) => (max === null || Date.parse(q.ts) > Date.parse(max) ? q.ts : max),
      null,
    );
    if (newest) report.lastQuoteAt = newest;
    // The ingest's time is when this venue answered, not when the scan began: a quote stamped
    // more than 5 s after it is refused by the database (a venue clock ahead of ours).
    const scannedAt = now().toISOString();
    let backfilled: ScanResponse["backfill"];
    if (quotes.length > 0 && adapter?.history) {
      // A failed backfill is reported; the scan goes on and the next one tries again.
      try {
        backfilled = await backfill([source], db, new Date(scannedAt));
      } catch (err) {
        console.warn(`[scan] backfill failed: ${message(err)}`);
        backfilled = { samples: 0, instruments: 0, error: message(err) };
      }
    }
    const ingest = quotes.length > 0 ? await db.ingest(quotes, scannedAt, SCAN_GROUP) : undefined;
    // The source's state is shown to users; failing to store it does not fail the scan.
    try {
      await db.recordHealth?.(sourceHealth({ [source]: report }), scannedAt);
    } catch (err) {
      console.warn(`[scan] source health not recorded: ${message(err)}`);
    }
    return { source, report, quotes, scannedAt, ingest, backfilled };
  }

  app.post("/", async (c) => {
    authorize(env, c.req.raw);
    const started = performance.now();
    const enabled = enabledSources(env);
    const sources = await requestedSources(c.req.raw, enabled);
    let cadence: Record<MarketSource, number>;
    try {
      cadence = parseCadence(
        env("MARKET_CADENCE_SECONDS"),
        Number(env("SCAN_INTERVAL_SECONDS") ?? Number.NaN),
      );
    } catch (err) {
      throw new HttpError(500, "market_cadence_invalid", message(err));
    }
    // What the DEX source rotates through: GECKOTERMINAL_NETWORKS × GECKOTERMINAL_PAGES.
    let rotation: DexRotation;
    try {
      rotation = parseDexRotation(env("GECKOTERMINAL_NETWORKS"), env("GECKOTERMINAL_PAGES"));
    } catch (err) {
      throw new HttpError(500, "market_cadence_invalid", message(err));
    }
    if (sources.includes("dex") && !dexRotationLogged) {
      dexRotationLogged = true;
      console.info(`[scan] dex: ${describeDexRotation(cadence.dex, rotation)}`);
    }
    let safetySeconds: number;
    try {
      safetySeconds = parseSafetySeconds(env("STREAM_SAFETY_POLL_SECONDS"));
    } catch (err) {
      throw new HttpError(500, "stream_safety_poll_invalid", message(err));
    }
    const db = makeDb(env);

    // While a venue's stream is live its schedule polls only at the safety cadence (decision
    // 0061). Unreadable stream state is no reason to skip a poll: poll.
    const byStream = new Set<MarketSource>();
    if (db.pollingState) {
      try {
        const states = await db.pollingState(sources);
        const at = now().getTime();
        for (const source of sources) {
          const s = states[source];
          if (s && skipPoll(s.stream, s.lastPollAt, at, safetySeconds)) byStream.add(source);
        }
      } catch (err) {
        console.warn(`[scan] stream state unreadable, polling every source: ${message(err)}`);
      }
    }
    const polled = sources.filter((s) => !byStream.has(s));
    const streamed = (): ScanResponse["sources"] =>
      Object.fromEntries(
        [...byStream].map((s) => [s, { ...NO_ROWS, quotes: 0, byStream: true as const }]),
      );
    if (polled.length === 0) {
      // Every source asked for is carried by its stream: nothing to read, ingest or enqueue here
      // (the stream's own ingests do that).
      const body: ScanResponse = {
        sources: streamed(),
        ingest: { instruments: 0, movers: 0, stale: 0, pruned: 0, broadcasts: 0, skipped: 0 },
        signals: { computed: 0 },
        durationMs: Math.round(performance.now() - started),
      };
      return c.json(body);
    }

    // Each source is read and ingested on its own: a slow or failing venue never holds back the
    // others' quotes (the database serialises the ingests). The calls carry SCAN_GROUP (decision
    // 0104): the database publishes the rows of the calls in flight together (this scan's and
    // other invocations' whose ticks coincide) once, at the last of them; a venue still reading
    // its answer is not waited for.
    const settled = await Promise.allSettled(
      polled.map((s) => scanSource(s, db, cadence, rotation)),
    );
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) {
      // A call that failed may have been the one that calls in flight beside it (this scan's or
      // another invocation's) left their publication to: an empty ingest (no group) publishes
      // whatever is owed now, not at the next ingest.
      await db.ingest([], now().toISOString()).catch((err) =>
        console.warn(`[scan] owed publication left to the next ingest: ${message(err)}`)
      );
      throw failed.reason;
    }
    const runs = settled.map((r) => (r as PromiseFulfilledResult<SourceRun>).value);

    const report: ScanResponse["sources"] = streamed();
    const quotes: Quote[] = [];
    let backfilled: ScanResponse["backfill"];
    for (const run of runs) {
      report[run.source] = run.report;
      quotes.push(...run.quotes);
      if (run.backfilled) backfilled = run.backfilled;
    }
    // With nothing to ingest the scan still runs the database's upkeep (stale movers, retention).
    const scannedAt = runs.find((r) => r.ingest)?.scannedAt ?? now().toISOString();
    const ingests = runs.filter((r) => r.ingest);
    const ingest = ingests.length > 0
      ? sumIngests(ingests.map((r) => r.ingest!))
      : await db.ingest([], scannedAt);

    // Signals are a by-product: their failure is reported, the scan itself succeeded. One step at
    // a time per instance (venues are scanned by concurrent calls); it computes once per candle.
    let signalReport: ScanResponse["signals"];
    if (signalsRunning) {
      signalReport = { computed: 0 };
    } else {
      try {
        signalsRunning = true;
        signalReport = { computed: await signals({ env, scannedAt, quotes }) };
      } catch (err) {
        console.warn(`[scan] signals failed: ${message(err)}`);
        signalReport = { computed: 0, error: message(err) };
      } finally {
        signalsRunning = false;
      }
    }

    // Alerts come after the signals (confluence reads them), once per ingest (enqueue_alerts reads
    // the movers that ingest wrote), and after the answer: the scan never waits for them (decision
    // 0029). Hosted edge functions keep the work alive through EdgeRuntime.waitUntil; the local
    // host keeps running promises. enqueue_alerts is a no-op for a scan already enqueued, so the
    // one retry cannot double a job. The outbox keeps the jobs when the worker cannot be woken:
    // the schedule delivers them then.
    let alerts: ScanResponse["alerts"];
    if (db.enqueueAlerts) {
      const enqueue = db.enqueueAlerts.bind(db);
      const stamps = ingests.length > 0
        ? [...new Set(ingests.map((r) => r.scannedAt))]
        : [scannedAt];
      const enqueueOnce = async (stamp: string): Promise<AlertsResult | null> => {
        try {
          return await enqueue(stamp);
        } catch (first) {
          console.warn(`[scan] alerts failed, retrying once: ${message(first)}`);
          try {
            return await enqueue(stamp);
          } catch (err) {
            console.warn(`[scan] alerts failed: ${message(err)}`);
            return null;
          }
        }
      };
      const work = (async () => {
        const result: AlertsResult = { alerts: 0, jobs: 0 };
        let enqueued = false;
        for (const stamp of stamps) {
          const r = await enqueueOnce(stamp);
          if (!r) continue;
          enqueued = true;
          result.alerts += r.alerts;
          result.jobs += r.jobs;
        }
        if (!enqueued) return;
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
