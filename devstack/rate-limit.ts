// Per-IP rate limits on Auth, as hosted Supabase Auth (GoTrue) applies them: the
// `[auth.rate_limit]` settings of supabase/config.toml, each a number of requests per 5 minutes
// per IP, answered 429 `over_request_rate_limit` when spent. Env variables override the file
// (the test harness and the e2e run raise them; the defaults stay those of the file).
import { existsSync, readFileSync } from "node:fs";
import { parse as parseToml } from "smol-toml";

export const RATE_LIMIT_WINDOW_MS = 5 * 60 * 1000;

export interface AuthRateLimits {
  /** Sign-ups and sign-ins (password, OTP, magic link) per 5 minutes per IP. */
  sign_in_sign_ups: number;
  /** Token refreshes per 5 minutes per IP. */
  token_refresh: number;
  /** OTP / magic-link verifications per 5 minutes per IP. */
  token_verifications: number;
}

/** The Supabase CLI's defaults, used where config.toml says nothing. */
export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  sign_in_sign_ups: 30,
  token_refresh: 150,
  token_verifications: 30,
};

export const RATE_LIMIT_ENV: Record<keyof AuthRateLimits, string> = {
  sign_in_sign_ups: "AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS",
  token_refresh: "AUTH_RATE_LIMIT_TOKEN_REFRESH",
  token_verifications: "AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS",
};

/** `[auth.rate_limit]` of config.toml, overridden by AUTH_RATE_LIMIT_* variables. */
export function readAuthRateLimits(
  configToml: string,
  env: NodeJS.ProcessEnv = process.env,
): AuthRateLimits {
  const conf = existsSync(configToml)
    ? (parseToml(readFileSync(configToml, "utf8")) as {
        auth?: { rate_limit?: Partial<Record<keyof AuthRateLimits, unknown>> };
      })
    : {};
  const fromFile = conf.auth?.rate_limit ?? {};
  const out = { ...DEFAULT_AUTH_RATE_LIMITS };
  for (const key of Object.keys(out) as (keyof AuthRateLimits)[]) {
    const value = env[RATE_LIMIT_ENV[key]] ?? fromFile[key];
    const n = Number(value);
    if (value !== undefined && Number.isInteger(n) && n > 0) out[key] = n;
  }
  return out;
}

/** Which limit an Auth request counts against, or null. */
export function authRateBucket(
  method: string,
  pathname: string,
  search: URLSearchParams,
): keyof AuthRateLimits | null {
  const path = pathname.replace(/\/+$/, "");
  if (path === "/auth/v1/verify") return "token_verifications";
  if (method !== "POST") return null;
  if (path === "/auth/v1/signup" || path === "/auth/v1/otp" || path === "/auth/v1/magiclink")
    return "sign_in_sign_ups";
  if (path === "/auth/v1/token") {
    return search.get("grant_type") === "refresh_token" ? "token_refresh" : "sign_in_sign_ups";
  }
  return null;
}

/**
 * A token bucket per key: `limit` requests at once, refilled at `limit` per window. Keys whose
 * bucket is full again are forgotten, so memory follows the callers of the last window.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number = RATE_LIMIT_WINDOW_MS,
    private now: () => number = Date.now,
  ) {}

  /** Spends one request for `key`; false when none is left. */
  take(key: string): boolean {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.limit, at: t };
    b.tokens = Math.min(this.limit, b.tokens + ((t - b.at) * this.limit) / this.windowMs);
    b.at = t;
    if (this.buckets.size > 10_000) this.sweep(t);
    if (b.tokens < 1) {
      this.buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    this.buckets.set(key, b);
    return true;
  }

  /** Seconds until `key` has a request again. */
  retryAfter(key: string): number {
    const b = this.buckets.get(key);
    if (!b || b.tokens >= 1) return 0;
    return Math.ceil(((1 - b.tokens) * this.windowMs) / this.limit / 1000);
  }

  private sweep(t: number) {
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((t - b.at) * this.limit) / this.windowMs >= this.limit)
        this.buckets.delete(k);
    }
  }
}
