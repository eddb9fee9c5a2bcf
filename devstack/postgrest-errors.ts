// @supabase/lite 0.10.0 answers several SQLSTATEs (check violations, RAISE EXCEPTION, ...)
// with a 500 "SUP" error, where PostgREST answers 400 with the SQLSTATE as `code`. Database
// rules live in constraints and triggers (ARCHITECTURE rule 1), so clients must see those
// errors as PostgREST shapes them. This re-expresses them through lite's own
// RAISE SQLSTATE 'PGRST' path, which renders `{ code, message, details, hint }` with a status.
import type { Connection } from "@supabase/lite";

/** Codes lite already renders as PostgREST does. */
function liteHandles(code: string): boolean {
  return (
    code === "PGRST" ||
    code.startsWith("PT") ||
    ["42501", "42P01", "23505", "23503", "23502", "25006", "42883", "42P17"].includes(code) ||
    ["42", "22", "21", "55", "53"].includes(code.slice(0, 2))
  );
}

/** PostgREST's HTTP status for a SQLSTATE (postgrest docs, "Errors"). */
export function postgrestStatus(code: string): number {
  const cls = code.slice(0, 2);
  if (code === "P0001") return 400;
  if (cls === "08") return 503;
  if (["28", "0L", "0P"].includes(cls)) return 403;
  if (
    ["09", "25", "2D", "38", "39", "3B", "40", "54", "57", "58", "F0", "HV", "P0", "XX"].includes(
      cls,
    )
  )
    return 500;
  return 400;
}

/** Postgres (08P01 "bind message has N parameter formats…") or postgres.js refusing the bind. */
function tooManyParameters(err: { code?: unknown; message?: string }): boolean {
  const message = err?.message ?? "";
  return (
    (err?.code === "08P01" && /bind message has \d+ parameter formats/.test(message)) ||
    err?.code === "MAX_PARAMETERS_EXCEEDED" ||
    /max number of parameters/i.test(message)
  );
}

export function installPostgrestErrors(connection: Connection): void {
  const target = connection as unknown as { normalizeDbError(e: unknown): unknown };
  const original = target.normalizeDbError.bind(connection);
  target.normalizeDbError = (e: unknown) => {
    const err = original(e) as { code?: unknown; message?: string; detail?: string; hint?: string };
    if (tooManyParameters(err)) {
      // lite binds every value of a bulk insert as its own parameter; Postgres takes 65535.
      return Object.assign(new Error("too many values"), {
        code: "PGRST",
        message: JSON.stringify({
          code: "54000",
          message: "Too many values in one request: a statement takes at most 65535.",
          details: null,
          hint: "Send the rows in smaller batches (for example 1000 rows per request).",
        }),
        detail: JSON.stringify({ status: 413, headers: {} }),
      });
    }
    if (typeof err?.code !== "string" || !/^[0-9A-Z]{5}$/.test(err.code) || liteHandles(err.code))
      return err;
    return Object.assign(new Error(err.message), {
      code: "PGRST",
      message: JSON.stringify({
        code: err.code,
        message: err.message ?? "",
        details: err.detail ?? null,
        hint: err.hint ?? null,
      }),
      detail: JSON.stringify({ status: postgrestStatus(err.code), headers: {} }),
    });
  };
}
