// The rows of `claim_outbox` as the worker's jobs (decision 0072). Kept apart from app.ts, and
// free of imports, so the stack tests read a claim exactly as the worker does.

/** A row of `claim_outbox`: a job, and its shared message on the first of its jobs in the claim. */
export interface ClaimedRow {
  id: number | string;
  payload: unknown;
  time_zone?: string | null;
  message_id?: number | string | null;
  message?: Record<string, unknown> | null;
}

/** A claimed job as the worker sends it: its id a number, its zone, its full payload. */
export type ClaimedJob<R extends ClaimedRow> =
  & Omit<R, "id" | "time_zone" | "message_id" | "message">
  & {
    id: number;
    timeZone: string | null;
    payload: unknown;
  };

/**
 * A claim's rows as jobs (decision 0072): a market alert built once for a group of users comes
 * once per claim, on the first of its jobs; every job of it gets `message || payload` (its own
 * keys win, as PostgreSQL's `||`), the message's objects shared between them, not copied. (A job
 * whose message is gone is cancelled by the claim; an older job that carries its message in its
 * own payload comes without one.)
 */
export function withMessages<R extends ClaimedRow>(rows: R[]): ClaimedJob<R>[] {
  const messages = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    if (row.message_id != null && row.message) messages.set(String(row.message_id), row.message);
  }
  return rows.map(({ time_zone, message_id, message: _message, ...j }) => {
    const shared = message_id == null ? undefined : messages.get(String(message_id));
    const job = {
      ...j,
      id: Number(j.id),
      timeZone: time_zone ?? null,
      payload: shared ? { ...shared, ...(j.payload as Record<string, unknown> | null) } : j.payload,
    };
    return job as unknown as ClaimedJob<R>;
  });
}
