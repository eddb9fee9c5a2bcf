// The bearer-secret check of the system's own callers (pg_cron's scan job, the scan invoking
// the delivery worker): the `Authorization: Bearer <secret>` must equal one of the named
// settings, compared in constant time. No setting present is a 500 naming them; a missing or
// wrong bearer is a 401 with the caller's own message.
import { type Env, notConfigured } from "./env.ts";
import { HttpError } from "./http.ts";
import { bearerToken } from "./supabase.ts";

/** The settings a system caller may present: the service-role key (either name) or SCAN_SECRET. */
export const SYSTEM_SECRETS = ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY", "SCAN_SECRET"];

/** Constant-time comparison of two strings (only the length may leak). */
export function sameSecret(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ y[i]!;
  return diff === 0;
}

export interface BearerSecretCheck {
  /** The 500's code when none of the settings is present. */
  notConfiguredCode: string;
  /** The 401's message. */
  unauthorizedMessage: string;
  /** The accepted settings (default SYSTEM_SECRETS). */
  names?: readonly string[];
}

/** Throws unless the request's bearer equals one of the configured secrets. */
export function requireBearerSecret(env: Env, req: Request, check: BearerSecretCheck): void {
  const names = check.names ?? SYSTEM_SECRETS;
  const accepted = names.map((name) => env(name)?.trim()).filter((v): v is string => !!v);
  if (accepted.length === 0) {
    throw notConfigured(check.notConfiguredCode, ["SUPABASE_SERVICE_ROLE_KEY", "SCAN_SECRET"]);
  }
  const token = bearerToken(req);
  // Every secret is compared, so the time taken does not tell which one matched.
  let ok = false;
  if (token) { for (const secret of accepted) ok = sameSecret(token, secret) || ok; }
  if (!ok) throw new HttpError(401, "unauthorized", check.unauthorizedMessage);
}
