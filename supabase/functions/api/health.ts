// GET /api/health: the api is up, each market source's state after the latest scan
// (`public.source_health`, readable by anyone), and each venue stream's state as its reader last
// reported it (`public.stream_health`, decision 0061; issue 25), camelCased. When a table cannot
// be read the answer is still 200 with `status: "degraded"`: the api itself is up.
// Each source also says through when its data is confirmed (decision 0086): its stream's
// confirmed-through time (decision 0079) or its newest polled quote, that time's age and whether
// the venue is stale by it — the rule and the age of the dashboard's Sources line.
import { z } from "zod";
import { type TableRow, userClient } from "../_shared/clients.ts";
import {
  isVenueStale,
  SOURCE_STALE_MS,
  venueConfirmedThrough,
} from "../_shared/domain/quote-age.ts";
import type { Env } from "../_shared/env.ts";

export interface SourceHealthEntry {
  source: string;
  state: "ok" | "backoff" | "failing";
  quotes: number;
  failure: string | null;
  httpStatus: number | null;
  message: string | null;
  backoffUntil: string | null;
  lastAttemptAt: string;
  lastSuccessAt: string | null;
  /** The venue time of the newest quote the venue's polling stored. */
  lastQuoteAt: string | null;
}

/** A source with its confirmation (decision 0086), as `/api/health` lists it. */
export interface SourceHealthAnswer extends SourceHealthEntry {
  /** Venue time through which the venue's data is confirmed (null: no quote, no confirmation). */
  confirmedThrough: string | null;
  /** stream: its stream confirmed the unchanged symbols later than the newest quote. */
  confirmedBy: "stream" | "poll" | null;
  /** Whole seconds from `confirmedThrough` to the answer. */
  confirmedAgeSeconds: number | null;
  /** No confirmation, or one older than 5 minutes (SOURCE_STALE_MS). */
  stale: boolean;
}

export type SourceHealthReader = () => Promise<SourceHealthEntry[]>;

type Row = Pick<
  TableRow<"source_health">,
  | "source"
  | "state"
  | "quotes"
  | "failure"
  | "http_status"
  | "message"
  | "backoff_until"
  | "last_attempt_at"
  | "last_success_at"
  | "last_quote_at"
>;

const STATES: readonly string[] = [
  "ok",
  "backoff",
  "failing",
] satisfies SourceHealthEntry["state"][];
const isState = (s: string): s is SourceHealthEntry["state"] => STATES.includes(s);

export function toSourceHealth(row: Row): SourceHealthEntry {
  return {
    source: row.source,
    // The table's check constraint allows these three; anything else would be a new state
    // this reader does not know, shown as failing rather than passed on unchecked.
    state: isState(row.state) ? row.state : "failing",
    quotes: Number(row.quotes),
    failure: row.failure,
    httpStatus: row.http_status,
    message: row.message,
    backoffUntil: row.backoff_until,
    lastAttemptAt: row.last_attempt_at,
    lastSuccessAt: row.last_success_at,
    lastQuoteAt: row.last_quote_at,
  };
}

/** Reads `source_health` with the publishable key (no caller needed). */
export function supabaseSourceHealth(env: Env): SourceHealthReader {
  return async () => {
    const client = userClient(env, null, { code: "api_not_configured" });
    const { data, error } = await client
      .from("source_health")
      .select(
        "source, state, quotes, failure, http_status, message, backoff_until, last_attempt_at, last_success_at, last_quote_at",
      )
      .order("source");
    if (error) throw new Error(error.message);
    return (data ?? []).map(toSourceHealth);
  };
}

/**
 * A stream's reader that has not reported for this long is not running (the dashboard's Sources
 * line uses the same 30 s: `STREAM_REPORT_STALE_MS`).
 */
export const STREAM_REPORT_STALE_MS = 30_000;

export interface StreamHealthEntry {
  source: string;
  /** connected / dropped as reported; not_reporting when the reader went quiet for 30 s. */
  state: "connected" | "dropped" | "not_reporting";
  /** When the stream entered its reported state (connected since, or dropped at). */
  since: string | null;
  reconnects: number;
  lastMessageAt: string | null;
  /** Whole seconds between the venue's last message and this answer (null: never spoke). */
  lastMessageAgeSeconds: number | null;
  reportedAt: string;
  /** When the reader's unbroken run of stored events began (decision 0079). */
  confirmedSince: string | null;
  /** Venue time of the run's newest stored event: the venue's other symbols unchanged through it. */
  confirmedThrough: string | null;
}

export type StreamHealthReader = () => Promise<StreamHealthEntry[]>;

type StreamRow = Pick<
  TableRow<"stream_health">,
  | "source"
  | "state"
  | "connected_since"
  | "dropped_at"
  | "reconnects"
  | "last_message_at"
  | "reported_at"
  | "confirmed_since"
  | "confirmed_through"
>;

export function toStreamHealth(row: StreamRow, now: number): StreamHealthEntry {
  const reported = Date.parse(row.reported_at);
  const spoke = row.last_message_at === null ? Number.NaN : Date.parse(row.last_message_at);
  const state = !(now - reported <= STREAM_REPORT_STALE_MS)
    ? "not_reporting"
    : row.state === "connected"
    ? "connected"
    : "dropped";
  return {
    source: row.source,
    state,
    since: row.state === "connected" ? row.connected_since : row.dropped_at,
    reconnects: Number(row.reconnects),
    lastMessageAt: row.last_message_at,
    lastMessageAgeSeconds: Number.isFinite(spoke)
      ? Math.max(0, Math.floor((now - spoke) / 1000))
      : null,
    reportedAt: row.reported_at,
    confirmedSince: row.confirmed_since,
    confirmedThrough: row.confirmed_through,
  };
}

/** Reads `stream_health` with the publishable key (no caller needed). */
export function supabaseStreamHealth(env: Env, now: () => number = Date.now): StreamHealthReader {
  return async () => {
    const client = userClient(env, null, { code: "api_not_configured" });
    const { data, error } = await client
      .from("stream_health")
      .select(
        "source, state, connected_since, dropped_at, reconnects, last_message_at, reported_at, confirmed_since, confirmed_through",
      )
      .order("source");
    if (error) throw new Error(error.message);
    const at = now();
    return (data ?? []).map((row) => toStreamHealth(row, at));
  };
}

/**
 * Each source with through when its data is confirmed: its stream's confirmation (when a full
 * poll ran after the stream's run began, and it is later than the newest polled quote) or the
 * newest polled quote; streams that cannot be read (`null`) confirm nothing. The same rule as the
 * Sources line's "last quote: N s old" (`venueConfirmedThrough`).
 */
export function withConfirmations(
  sources: readonly SourceHealthEntry[],
  streams: readonly StreamHealthEntry[] | null,
  now: number,
): SourceHealthAnswer[] {
  const streamOf = new Map((streams ?? []).map((s) => [s.source, s]));
  return sources.map((source) => {
    const stream = streamOf.get(source.source);
    const confirmed = venueConfirmedThrough(
      stream
        ? { confirmed_since: stream.confirmedSince, confirmed_through: stream.confirmedThrough }
        : null,
      { last_success_at: source.lastSuccessAt, last_quote_at: source.lastQuoteAt },
    );
    return {
      ...source,
      confirmedThrough: confirmed ? new Date(confirmed.at).toISOString() : null,
      confirmedBy: confirmed?.by ?? null,
      confirmedAgeSeconds: confirmed ? Math.max(0, Math.floor((now - confirmed.at) / 1000)) : null,
      stale: isVenueStale(confirmed?.at ?? null, now),
    };
  });
}

const ts = z.string().describe("ISO 8601 timestamp");

/** The answer of GET /api/health, as the OpenAPI contract documents it. */
export const healthResponse = z.object({
  status: z.enum(["ok", "degraded"]).describe(
    "ok: every table below was read; degraded: one could not be (its list is then empty)",
  ),
  time: ts,
  sources: z.array(z.object({
    source: z.string(),
    state: z.enum(["ok", "backoff", "failing"]),
    quotes: z.number().int(),
    failure: z.string().nullable(),
    httpStatus: z.number().int().nullable(),
    message: z.string().nullable(),
    backoffUntil: ts.nullable(),
    lastAttemptAt: ts,
    lastSuccessAt: ts.nullable(),
    lastQuoteAt: ts.nullable().describe(
      "The venue time of the newest quote the venue's polling stored",
    ),
    confirmedThrough: ts.nullable().describe(
      "The venue time through which the venue's data is confirmed: its stream's confirmed-through time (the newest stream event whose quotes, and every earlier one's, are stored: the venue's symbols it did not name are unchanged through then), when a full poll ran after the stream's unbroken run began and it is later than lastQuoteAt; else lastQuoteAt. null: neither. It stops when the venue or its stream stalls",
    ),
    confirmedBy: z.enum(["stream", "poll"]).nullable().describe(
      "stream: confirmedThrough is the stream's confirmation; poll: the newest polled quote",
    ),
    confirmedAgeSeconds: z.number().int().nullable().describe(
      "Whole seconds from confirmedThrough to this answer: the venue's data age, as the dashboard's Sources line shows it",
    ),
    stale: z.boolean().describe(
      `true when nothing is confirmed or confirmedAgeSeconds exceeds ${
        SOURCE_STALE_MS / 1000
      } (the dashboard's Sources line's stale limit)`,
    ),
  })).describe("Each market source's state after its latest polling scan, and its confirmation"),
  streams: z.array(z.object({
    source: z.string().describe("The venue whose stream this is (binance, coinbase)"),
    state: z.enum(["connected", "dropped", "not_reporting"]).describe(
      "connected: the stream delivers; dropped: the reader is reconnecting and polling carries the venue; not_reporting: the reader has not reported for 30 s",
    ),
    since: ts.nullable().describe("When the stream connected, or dropped"),
    reconnects: z.number().int().describe("Connections after the first since the reader started"),
    lastMessageAt: ts.nullable().describe(
      "The venue's last quote or heartbeat (the reader's clock)",
    ),
    lastMessageAgeSeconds: z.number().int().nullable().describe(
      "Whole seconds from the last message to this answer",
    ),
    reportedAt: ts.describe("The reader's last report (the database's clock)"),
    confirmedSince: ts.nullable().describe(
      "When the reader's unbroken run of stored events began (its connection, or a failed ingest)",
    ),
    confirmedThrough: ts.nullable().describe(
      "The venue time of the run's newest event whose quotes (and every earlier event's) are stored; see sources[].confirmedThrough for when it covers the venue's rows",
    ),
  })).describe("Each venue stream's state as its reader last reported it (empty: no reader)"),
});
