// The /api layer's refusals, and the database's answers (PostgREST errors) as HTTP errors
// `{ error, message }` with the status a client of the original product expects.
import { allowedWindows, type PlanId } from "../_shared/domain/plans.ts";
import { HttpError } from "../_shared/http.ts";

export const API_NOT_CONFIGURED = "api_not_configured";

export const MESSAGES = {
  loginRequired: "Please log in to see market data.",
  sessionInvalid: "Your session is invalid or has expired. Please log in again.",
  subscriptionRequired: "An active subscription is required to see market data.",
  banned: "Your account is banned.",
  notEnoughData: "Not enough data for analysis",
  proRequired:
    "The Pro plan is required: historical comparisons, advanced analytics and additional indicators come with Pro and Enterprise.",
} as const;

export const loginRequired = () => new HttpError(401, "unauthorized", MESSAGES.loginRequired);
export const sessionInvalid = () => new HttpError(401, "unauthorized", MESSAGES.sessionInvalid);
export const subscriptionRequired = () =>
  new HttpError(403, "subscription_required", MESSAGES.subscriptionRequired);
export const banned = () => new HttpError(403, "banned", MESSAGES.banned);
/** 403 `pro_required`: the database's answer to a Basic caller of the Pro RPCs (decision 0035). */
export const proRequired = () => new HttpError(403, "pro_required", MESSAGES.proRequired);

/** "30" / "15, 20, 25 or 30" (0 is spelled as the 10-second window). */
function windowList(windows: readonly number[]): string {
  const names = windows.map((w) => (w === 0 ? "0 (10 seconds)" : String(w)));
  return names.length === 1
    ? names[0]!
    : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** 403 for a window the caller's plan does not offer, naming the windows it does. */
export function windowNotAllowed(plan: PlanId, windowMinutes: number | null): HttpError {
  const allowed = allowedWindows(plan);
  const which = windowMinutes === null ? "this window" : `a ${windowMinutes}-minute window`;
  return new HttpError(
    403,
    "window_not_allowed",
    `The ${plan} plan does not offer ${which}. Allowed windows (minutes): ${windowList(allowed)}.`,
  );
}

/** What supabase-js hands back for a failed PostgREST call. */
export interface DbError {
  code?: string | null;
  message?: string | null;
  details?: string | null;
  hint?: string | null;
}

/** What the mapping needs to word its answer. */
export interface DbErrorContext {
  plan?: PlanId;
  windowMinutes?: number | null;
  /** The HTTP status PostgREST answered with, when known. */
  status?: number;
}

/**
 * A database refusal as the matching HTTP error:
 * - `PT403` (movers_feed, the Pro RPCs): detail `pro_required` → 403 `pro_required`; "does not
 *   offer … window" → 403 `window_not_allowed`; otherwise (no active subscription) → 403
 *   `subscription_required`;
 * - `PT404` (no such instrument) → 404 `unknown_symbol`;
 * - `42501` (permission denied: a policy or a revoked grant) → 403 `subscription_required`;
 * - `PGRST301`/`PGRST302`/`PGRST303` (no, invalid or expired JWT) and any 401 → 401;
 * - `22P02`/`22023` (an invalid value reached the database) → 400 `invalid_request`.
 * Anything else is not the caller's doing: null (the caller throws it as a 500).
 */
export function httpErrorFromDb(error: DbError, ctx: DbErrorContext = {}): HttpError | null {
  const code = error.code ?? "";
  const message = error.message ?? "";
  if (code === "PT403") {
    if (error.details === "pro_required") return proRequired();
    if (/does not offer/i.test(message)) {
      return ctx.plan
        ? windowNotAllowed(ctx.plan, ctx.windowMinutes ?? null)
        : new HttpError(403, "window_not_allowed", message);
    }
    return subscriptionRequired();
  }
  if (code === "42501") return subscriptionRequired();
  if (code === "PT404") {
    return new HttpError(404, "unknown_symbol", message || "No market data for this symbol.");
  }
  if (/^PGRST30[0-3]$/.test(code) || ctx.status === 401) return sessionInvalid();
  if (code === "22P02" || code === "22023") {
    return new HttpError(400, "invalid_request", message || "A value in the request is invalid.");
  }
  if (ctx.status === 403) return subscriptionRequired();
  return null;
}

/** Throws `error` as its HTTP error, else as a plain Error (a 500, logged). */
export function throwDbError(what: string, error: DbError, ctx: DbErrorContext = {}): never {
  const mapped = httpErrorFromDb(error, ctx);
  if (mapped) throw mapped;
  throw new Error(`[api] ${what} failed: ${error.code ?? "?"} ${error.message ?? ""}`.trim());
}
