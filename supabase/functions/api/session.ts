// Cookie sessions of the /api layer, in @supabase/ssr's format so a server using @supabase/ssr
// reads the session this function sets, and this function reads the one @supabase/ssr sets:
//   name      `sb-<ref>-auth-token`, <ref> the first label of the project URL's hostname, as
//             supabase-js names its storage key (`sb-127-auth-token` for http://127.0.0.1:54321);
//   value     `base64-` + base64url(UTF-8 JSON of the session), no padding;
//   chunking  values longer than 3180 URL-encoded characters are split into `<name>.0`,
//             `<name>.1`, … (and the unchunked name is then absent).
// Cookies are httpOnly, SameSite=Lax, Path=/, Max-Age 400 days (the browser limit @supabase/ssr
// uses), and Secure unless the site is served from localhost/127.0.0.1. A request is
// authenticated by `Authorization: Bearer <access token>` or by this cookie; a cookie whose
// access token expires within a minute is refreshed with its refresh token and set again.
// Writes authenticated by cookie (anything but GET/HEAD/OPTIONS without a bearer token) must
// come from an allowed origin (decision 0024): the `Origin` header, else `Sec-Fetch-Site`.
import { userClient } from "../_shared/clients.ts";
import type { Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { bearerToken } from "../_shared/supabase.ts";
import { API_NOT_CONFIGURED } from "./errors.ts";

/** @supabase/ssr's chunk size (utils/chunker.ts MAX_CHUNK_SIZE). */
export const MAX_CHUNK_SIZE = 3180;
export const BASE64_PREFIX = "base64-";
/** @supabase/ssr's default cookie lifetime: 400 days, the longest browsers keep a cookie. */
export const COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;
/** A cookie session is refreshed when its access token expires within this many seconds. */
export const REFRESH_MARGIN_S = 60;

/** The session as supabase-js stores it (what @supabase/ssr writes into the cookie). */
export interface StoredSession {
  access_token: string;
  refresh_token: string;
  token_type?: string;
  expires_in?: number;
  expires_at?: number;
  user?: unknown;
  [key: string]: unknown;
}

/** `sb-<ref>-auth-token` for a project URL, as supabase-js derives its storage key. */
export function storageKey(projectUrl: string): string {
  return `sb-${new URL(projectUrl).hostname.split(".")[0]}-auth-token`;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): string {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return new TextDecoder("utf-8", { fatal: true }).decode(
    Uint8Array.from(binary, (ch) => ch.charCodeAt(0)),
  );
}

export function encodeSession(session: StoredSession): string {
  return BASE64_PREFIX + toBase64Url(JSON.stringify(session));
}

/** A cookie value as a session; null when it is not one (garbled, not JSON, no tokens). */
export function decodeSession(value: string): StoredSession | null {
  try {
    const json = value.startsWith(BASE64_PREFIX)
      ? fromBase64Url(value.slice(BASE64_PREFIX.length))
      : value;
    const parsed = JSON.parse(json) as unknown;
    if (typeof parsed !== "object" || parsed === null) return null;
    const s = parsed as Record<string, unknown>;
    if (typeof s.access_token !== "string" || typeof s.refresh_token !== "string") return null;
    return s as StoredSession;
  } catch {
    return null;
  }
}

/** `name=value` pairs of a Cookie header (values URL-decoded when they can be). */
export function parseCookies(header: string | null): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // Keep the raw value.
    }
    if (name && !out.has(name)) out.set(name, value);
  }
  return out;
}

/** The value split as @supabase/ssr splits it: one cookie, or `<key>.0`, `<key>.1`, …. */
export function chunkCookie(key: string, value: string): { name: string; value: string }[] {
  const encoded = encodeURIComponent(value);
  if (encoded.length <= MAX_CHUNK_SIZE) return [{ name: key, value }];
  const chunks: string[] = [];
  let rest = encoded;
  while (rest.length > 0) {
    let head = rest.slice(0, MAX_CHUNK_SIZE);
    const lastEscape = head.lastIndexOf("%");
    if (lastEscape > MAX_CHUNK_SIZE - 3) head = head.slice(0, lastEscape);
    chunks.push(decodeURIComponent(head));
    rest = rest.slice(head.length);
  }
  return chunks.map((v, i) => ({ name: `${key}.${i}`, value: v }));
}

/** The session cookie's value, joined from its chunks when chunked. */
export function readSessionCookie(cookies: Map<string, string>, key: string): string | null {
  const whole = cookies.get(key);
  if (whole) return whole;
  const parts: string[] = [];
  for (let i = 0;; i++) {
    const chunk = cookies.get(`${key}.${i}`);
    if (!chunk) break;
    parts.push(chunk);
  }
  return parts.length > 0 ? parts.join("") : null;
}

/** The names of the session cookie (whole and chunks) the request carries. */
export function sessionCookieNames(cookies: Map<string, string>, key: string): string[] {
  const re = new RegExp(`^${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\.(0|[1-9][0-9]*))?$`);
  return [...cookies.keys()].filter((name) => re.test(name));
}

export interface CookieOptions {
  secure: boolean;
  maxAge: number;
}

export function serializeCookie(name: string, value: string, opts: CookieOptions): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    "Path=/",
    `Max-Age=${opts.maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
  ];
  if (opts.maxAge === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (opts.secure) parts.push("Secure");
  return parts.join("; ");
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}

/** Set-Cookie headers storing `session`, and clearing chunks of an older, longer value. */
export function sessionSetCookies(
  key: string,
  session: StoredSession,
  existing: string[],
  secure: boolean,
): string[] {
  const chunks = chunkCookie(key, encodeSession(session));
  const names = new Set(chunks.map((c) => c.name));
  return [
    ...chunks.map((c) => serializeCookie(c.name, c.value, { secure, maxAge: COOKIE_MAX_AGE_S })),
    ...existing.filter((n) => !names.has(n)).map((n) =>
      serializeCookie(n, "", { secure, maxAge: 0 })
    ),
  ];
}

export function clearSessionCookies(names: string[], key: string, secure: boolean): string[] {
  const all = new Set([key, ...names]);
  return [...all].map((n) => serializeCookie(n, "", { secure, maxAge: 0 }));
}

/** Refreshes a session with its refresh token; null when Auth refuses it. */
export type SessionRefresher = (refreshToken: string) => Promise<StoredSession | null>;

export function supabaseRefresher(env: Env): SessionRefresher {
  return async (refreshToken) => {
    const client = userClient(env, null, { code: API_NOT_CONFIGURED });
    const { data, error } = await client.auth.refreshSession({ refresh_token: refreshToken });
    if (error) {
      if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
        return null;
      }
      throw error;
    }
    return data.session ? (data.session as unknown as StoredSession) : null;
  };
}

export interface SessionConfig {
  /** The project URL the cookie name is derived from. */
  projectUrl: string;
  /** Origins allowed to make cookie-authenticated writes. */
  allowedOrigins: Set<string>;
  refresh: SessionRefresher;
  now: () => number;
}

export function sessionConfig(
  env: Env,
  refresh?: SessionRefresher,
  now: () => number = Date.now,
): SessionConfig {
  // Without SUPABASE_URL every route that reaches Supabase answers 500 api_not_configured.
  const supabaseUrl = env("SUPABASE_URL")?.trim() || "http://localhost";
  const projectUrl = env("API_COOKIE_PROJECT_URL")?.trim() || supabaseUrl;
  const origins = new Set<string>();
  for (
    const raw of [supabaseUrl, env("SITE_URL"), ...(env("API_ALLOWED_ORIGINS") ?? "").split(",")]
  ) {
    const value = raw?.trim();
    if (!value) continue;
    try {
      origins.add(new URL(value).origin);
    } catch {
      console.warn(`[api] ignoring an allowed origin that is not a URL: ${value}`);
    }
  }
  return { projectUrl, allowedOrigins: origins, refresh: refresh ?? supabaseRefresher(env), now };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * One request's credentials: the bearer token, else the cookie session (refreshed when it is
 * about to expire). Cookies to set on the answer collect in `setCookies`.
 */
export class RequestSession {
  readonly key: string;
  readonly cookies: Map<string, string>;
  readonly setCookies: string[] = [];
  #token: Promise<string | null> | undefined;
  #via: "bearer" | "cookie" | null = null;

  constructor(readonly req: Request, readonly config: SessionConfig) {
    this.key = storageKey(config.projectUrl);
    this.cookies = parseCookies(req.headers.get("cookie"));
  }

  /** Secure cookies unless the browser talks to a local host over http. */
  get secure(): boolean {
    const origin = this.req.headers.get("origin");
    const forwarded = this.req.headers.get("x-forwarded-proto");
    if (forwarded) return forwarded.split(",")[0]!.trim() === "https";
    for (const candidate of [origin, this.config.projectUrl]) {
      if (!candidate) continue;
      try {
        const url = new URL(candidate);
        return !(url.protocol === "http:" && isLocalHost(url.hostname));
      } catch {
        // Try the next.
      }
    }
    return true;
  }

  get via(): "bearer" | "cookie" | null {
    return this.#via;
  }

  get cookieNames(): string[] {
    return sessionCookieNames(this.cookies, this.key);
  }

  hasSessionCookie(): boolean {
    return this.cookieNames.length > 0;
  }

  /** The access token to call Supabase with, or null (not logged in). */
  token(): Promise<string | null> {
    this.#token ??= this.#resolve();
    return this.#token;
  }

  async #resolve(): Promise<string | null> {
    const bearer = bearerToken(this.req);
    if (bearer) {
      this.#via = "bearer";
      return bearer;
    }
    const raw = readSessionCookie(this.cookies, this.key);
    if (!raw) return null;
    const session = decodeSession(raw);
    if (!session) {
      this.clear();
      return null;
    }
    this.#via = "cookie";
    const expiresAt = Number(session.expires_at ?? 0);
    if (expiresAt && expiresAt - REFRESH_MARGIN_S > this.config.now() / 1000) {
      return session.access_token;
    }
    const fresh = await this.config.refresh(session.refresh_token);
    if (!fresh) {
      this.clear();
      return null;
    }
    this.store(fresh);
    return fresh.access_token;
  }

  /** Sets the session cookie(s) on the answer. */
  store(session: StoredSession): void {
    this.setCookies.push(...sessionSetCookies(this.key, session, this.cookieNames, this.secure));
  }

  /** Clears the session cookie(s) on the answer. */
  clear(): void {
    this.setCookies.push(...clearSessionCookies(this.cookieNames, this.key, this.secure));
  }

  /**
   * Refuses a write that a browser sent from another site: unsafe methods without a bearer
   * token must carry an allowed `Origin` (else a `Sec-Fetch-Site` of same-origin or none).
   * Requests with neither header come from non-browser clients, which cannot be made to send
   * the user's cookies by a third party.
   */
  checkCrossSite(): void {
    if (SAFE_METHODS.has(this.req.method.toUpperCase())) return;
    if (bearerToken(this.req)) return;
    const origin = this.req.headers.get("origin");
    if (origin && origin !== "null") {
      if (this.config.allowedOrigins.has(origin) || origin === new URL(this.req.url).origin) {
        return;
      }
      throw crossSite();
    }
    const site = this.req.headers.get("sec-fetch-site");
    if (origin === "null" || (site && site !== "same-origin" && site !== "none")) {
      throw crossSite();
    }
  }
}

function crossSite(): HttpError {
  return new HttpError(
    403,
    "cross_site_request",
    "This request came from another site and was refused. Use the app itself.",
  );
}
