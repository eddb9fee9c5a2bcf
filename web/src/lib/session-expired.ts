import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router-dom";
import { toastErrorLater } from "@/lib/lazy-toast";
import { loginPath } from "@/lib/redirect";

/** How long the "Session expired" toast shows before the login page opens. */
export const SESSION_EXPIRED_REDIRECT_MS = 2000;

/** PostgREST codes for a missing, malformed or expired JWT (all answered with HTTP 401). */
const EXPIRED_JWT_CODES = new Set(["PGRST301", "PGRST302", "PGRST303"]);

/**
 * An error from a Supabase call with the HTTP status attached. supabase-js returns the
 * PostgREST error body and the status separately; `toRequestError` puts them together so
 * `isSessionExpiredError` (and a toast) can read both.
 */
export type RequestError = Error & {
  status?: number;
  code?: string;
  details?: string;
  hint?: string;
};

export function toRequestError(
  error: { message: string; code?: string; details?: string; hint?: string },
  status?: number,
): RequestError {
  const result: RequestError = new Error(error.message);
  result.name = "RequestError";
  result.code = error.code;
  result.details = error.details;
  result.hint = error.hint;
  result.status = status;
  return result;
}

/**
 * Row-level security turns an update the caller may not make (a banned account) into "no rows
 * changed" without an error; a save that changed no row is reported as a failure.
 */
export function assertSaved(rows: readonly unknown[] | null, message: string): void {
  if (!rows || rows.length === 0) throw toRequestError({ message, code: "not_saved" }, 200);
}

function read(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * True when the error means the session is gone: HTTP 401 from PostgREST or an edge function
 * (`FunctionsHttpError.context` is the response), supabase-js' `AuthSessionMissingError`, or a
 * PostgREST JWT error (PGRST301/302/303, "JWT expired").
 */
export function isSessionExpiredError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if (read(error, "status") === 401) return true;
  if (read(read(error, "context"), "status") === 401) return true;
  if (read(error, "name") === "AuthSessionMissingError") return true;
  const code = read(error, "code");
  if (typeof code === "string" && EXPIRED_JWT_CODES.has(code)) return true;
  const message = read(error, "message");
  return typeof message === "string" && /\bJWT expired\b/i.test(message);
}

export type SessionExpiredOptions = {
  /** The router's navigate function. */
  navigate: (to: string) => void;
  /** Where to come back to after logging in (path and query). */
  currentPath: string;
  /** Translated toast texts ("Session expired" / "Please login again to save settings"). */
  title: string;
  description: string;
};

/**
 * On a save failure: if the session has expired, shows the "Session expired" toast and after
 * 2 s opens `/auth/login?redirect=<current path>`. Returns whether it handled the error; when it
 * did not, the caller shows its own failure toast.
 */
export function handleSessionExpired(error: unknown, options: SessionExpiredOptions): boolean {
  if (!isSessionExpiredError(error)) return false;
  toastErrorLater(options.title, { description: options.description });
  const target = loginPath(options.currentPath);
  setTimeout(() => options.navigate(target), SESSION_EXPIRED_REDIRECT_MS);
  return true;
}

/**
 * `handleSessionExpired` bound to the router: returns `(error) => handled` for a save's
 * `onError`, coming back to the current page after the login. The toast texts default to the
 * `common` namespace's "Session expired" / "Please login again to save settings".
 */
export function useSessionExpiredHandler(texts?: { title: string; description: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const currentPath = `${location.pathname}${location.search}`;
  const title = texts?.title ?? t("error.sessionExpiredTitle");
  const description = texts?.description ?? t("error.sessionExpiredDescription");
  return useCallback(
    (error: unknown) =>
      handleSessionExpired(error, {
        navigate: (to) => void navigate(to),
        currentPath,
        title,
        description,
      }),
    [navigate, currentPath, title, description],
  );
}
