// GET /api/health: the api is up, and each market source's state after the latest scan
// (`public.source_health`, readable by anyone), camelCased. When the table cannot be read the
// answer is still 200 with `status: "degraded"`: the api itself is up.
import { createClient } from "@supabase/supabase-js";
import { type Env, requireEnv } from "../_shared/env.ts";

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

type Row = {
  source: string;
  state: SourceHealthEntry["state"];
  quotes: number;
  failure: string | null;
  http_status: number | null;
  message: string | null;
  backoff_until: string | null;
  last_attempt_at: string;
  last_success_at: string | null;
};

export function toSourceHealth(row: Row): SourceHealthEntry {
  return {
    source: row.source,
    state: row.state,
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
    const vars = requireEnv(
      env,
      ["SUPABASE_URL", ["SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY"]],
      "api_not_configured",
    );
    const client = createClient(vars.SUPABASE_URL, vars.SUPABASE_ANON_KEY, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    });
    const { data, error } = await client
      .from("source_health")
      .select(
        "source, state, quotes, failure, http_status, message, backoff_until, last_attempt_at, last_success_at",
      )
      .order("source");
    if (error) throw new Error(error.message);
    return ((data ?? []) as Row[]).map(toSourceHealth);
  };
}
