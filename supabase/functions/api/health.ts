// GET /api/health: the api is up, and each market source's state after the latest scan
// (`public.source_health`, readable by anyone), camelCased. When the table cannot be read the
// answer is still 200 with `status: "degraded"`: the api itself is up.
import { type TableRow, userClient } from "../_shared/clients.ts";
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
  };
}

/** Reads `source_health` with the publishable key (no caller needed). */
export function supabaseSourceHealth(env: Env): SourceHealthReader {
  return async () => {
    const client = userClient(env, null, { code: "api_not_configured" });
    const { data, error } = await client
      .from("source_health")
      .select(
        "source, state, quotes, failure, http_status, message, backoff_until, last_attempt_at, last_success_at",
      )
      .order("source");
    if (error) throw new Error(error.message);
    return (data ?? []).map(toSourceHealth);
  };
}
