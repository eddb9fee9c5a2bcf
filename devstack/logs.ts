// What the stack's log may hold. @supabase/lite logs every refused query and every failed Auth
// call with `console.error(error)`, and a driver error carries the SQL text and its parameters:
// e-mail addresses, bcrypt hashes, tokens (about 1.3 KB per refusal). The stack renders such
// database errors as one line (SQLSTATE and message; never the query, its parameters or the
// row detail), and keeps other errors as they are.
import { format } from "node:util";

interface DbErrorLike {
  code?: unknown;
  message?: unknown;
  query?: unknown;
  params?: unknown;
  parameters?: unknown;
}

/** A driver or PostgREST error (a SQLSTATE, or a query/params bag), not a program bug. */
function isDbError(v: unknown): v is DbErrorLike {
  if (!v || typeof v !== "object") return false;
  const e = v as DbErrorLike;
  return (
    (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) ||
    "query" in e ||
    "params" in e ||
    "parameters" in e
  );
}

/** One line for a database error: its SQLSTATE and the first line of its message. */
export function describeDbError(e: DbErrorLike): string {
  let code = typeof e.code === "string" ? e.code : "";
  let message = typeof e.message === "string" ? e.message : "";
  // Errors re-expressed for PostgREST carry their own JSON (devstack/postgrest-errors.ts).
  if (code === "PGRST" && message.startsWith("{")) {
    try {
      const inner = JSON.parse(message) as { code?: string; message?: string };
      code = inner.code ?? code;
      message = inner.message ?? "";
    } catch {
      // keep the outer message
    }
  }
  // A data error quotes the refused value at its end (`invalid input syntax for type uuid: "…"`).
  const line = (message.split("\n")[0] ?? "").replace(/: ".*"$/s, ': "…"').slice(0, 200);
  return `refused${code ? ` ${code}` : ""}: ${line}`;
}

/** Renders one console.error/warn argument list as the line the log shows. */
export function redactLogLine(args: unknown[]): string | null {
  if (!args.some((a) => isDbError(a) || isBodyLimit(a))) return null;
  return args
    .map((a) =>
      isDbError(a)
        ? describeDbError(a)
        : isBodyLimit(a)
          ? `refused: ${a.message}`
          : typeof a === "string"
            ? a
            : format(a),
    )
    .join(" ");
}

/** A body cut at the gateway's limit (devstack/body-limit.ts): answered 413, not a bug. */
function isBodyLimit(v: unknown): v is Error {
  return v instanceof Error && v.name === "BodyTooLargeError";
}

let installed = false;

/** Makes console.error and console.warn print database errors as one redacted line. */
export function installLogRedaction(): void {
  if (installed) return;
  installed = true;
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      const line = redactLogLine(args);
      if (line === null) original(...args);
      else original(line);
    };
  }
}
