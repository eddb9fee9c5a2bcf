// Cookie sessions of the /api layer, kept by @supabase/ssr's `createServerClient`
// (`cookieClient` in _shared/clients.ts) over the request's Cookie header and the answer's
// Set-Cookie, so a server using @supabase/ssr reads the session this function sets and this
// function reads the one @supabase/ssr sets (decision 0060). The library owns the format:
//   name      `sb-<ref>-auth-token`, <ref> the first label of the project URL's hostname, as
//             supabase-js names its storage key (`sb-127-auth-token` for http://127.0.0.1:54321);
//   value     `base64-` + base64url(UTF-8 JSON of the session);
//   chunking  values longer than 3180 URL-encoded characters are split into `<name>.0`,
//             `<name>.1`, … (older chunks are cleared when the value shrinks).
// This module sets the attributes: httpOnly, SameSite=Lax, Path=/, Max-Age 400 days
// (@supabase/ssr's default), and Secure unless the site is served from localhost/127.0.0.1.
// A request is authenticated by `Authorization: Bearer <access token>` or by this cookie; a
// cookie whose access token expires within 90 s (auth-js's margin) is refreshed with its refresh
// token and set again; one Auth refuses to refresh is cleared.
// Writes authenticated by cookie (anything but GET/HEAD/OPTIONS without a bearer token) must
// come from an allowed origin (decision 0024): the `Origin` header, else `Sec-Fetch-Site`.
import {
  type CookieOptions,
  DEFAULT_COOKIE_OPTIONS,
  isChunkLike,
  parseCookieHeader,
  serializeCookieHeader,
} from "@supabase/ssr";
import type { SignInWithPasswordCredentials } from "@supabase/supabase-js";
import { cookieClient, type CookieDb, userClient } from "../_shared/clients.ts";
import type { Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { bearerToken } from "../_shared/supabase.ts";
import { API_NOT_CONFIGURED } from "./errors.ts";

/** @supabase/ssr's default cookie lifetime: 400 days, the longest browsers keep a cookie. */
export const COOKIE_MAX_AGE_S: number = DEFAULT_COOKIE_OPTIONS.maxAge ?? 400 * 24 * 60 * 60;

/** `sb-<ref>-auth-token` for a project URL, as supabase-js derives its storage key. */
export function storageKey(projectUrl: string): string {
  return `sb-${new URL(projectUrl).hostname.split(".")[0]}-auth-token`;
}

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function isLocalHost(hostname: string): boolean {
  return LOCAL_HOSTS.has(hostname) || hostname.endsWith(".localhost");
}

/** One Set-Cookie header; a removal (empty value or Max-Age 0) also carries an epoch Expires. */
export function setCookieHeader(name: string, value: string, options: CookieOptions): string {
  const removal = value === "" || options.maxAge === 0;
  return serializeCookieHeader(
    name,
    value,
    removal ? { ...options, maxAge: 0, expires: new Date(0) } : options,
  );
}

export interface SessionConfig {
  env: Env;
  /** The project URL the cookie name is derived from. */
  projectUrl: string;
  /** Origins allowed to make cookie-authenticated writes. */
  allowedOrigins: Set<string>;
  /** The fetch the session's Auth calls (refresh, sign-in, sign-out) use; default: fetch. */
  authFetch?: typeof fetch;
}

export function sessionConfig(env: Env, authFetch?: typeof fetch): SessionConfig {
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
  return { env, projectUrl, allowedOrigins: origins, ...(authFetch ? { authFetch } : {}) };
}

/** An Auth error that is the caller's (4xx), not Auth being down. */
function isClientError(error: { status?: number }): boolean {
  return typeof error.status === "number" && error.status >= 400 && error.status < 500;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * One request's credentials: the bearer token, else the cookie session (refreshed when it is
 * about to expire). Cookies to set on the answer collect in `setCookies`.
 */
export class RequestSession {
  readonly key: string;
  readonly cookies: { name: string; value: string }[];
  readonly setCookies: string[] = [];
  #client: CookieDb | undefined;
  #token: Promise<string | null> | undefined;
  #via: "bearer" | "cookie" | null = null;

  constructor(readonly req: Request, readonly config: SessionConfig) {
    this.key = storageKey(config.projectUrl);
    this.cookies = parseCookieHeader(req.headers.get("cookie") ?? "").map((c) => ({
      name: c.name,
      value: c.value ?? "",
    }));
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

  /** The session cookie's attributes (@supabase/ssr adds Max-Age). */
  get cookieOptions(): CookieOptions {
    return { path: "/", sameSite: "lax", httpOnly: true, secure: this.secure };
  }

  get #clientOptions() {
    return {
      code: API_NOT_CONFIGURED,
      req: this.req,
      ...(this.config.authFetch ? { fetch: this.config.authFetch } : {}),
    };
  }

  /** @supabase/ssr's server client over this request's cookies and this answer's Set-Cookie. */
  get client(): CookieDb {
    this.#client ??= cookieClient(this.config.env, {
      ...this.#clientOptions,
      cookieOptions: { name: this.key, ...this.cookieOptions },
      cookies: {
        getAll: () => this.cookies,
        setAll: (cookies) => {
          for (const { name, value, options } of cookies) {
            this.setCookies.push(setCookieHeader(name, value, options));
          }
        },
      },
    });
    return this.#client;
  }

  get via(): "bearer" | "cookie" | null {
    return this.#via;
  }

  /** The names of the session cookie (whole and chunks) the request carries. */
  get cookieNames(): string[] {
    return this.cookies.map((c) => c.name).filter((name) => isChunkLike(name, this.key));
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
    if (!this.hasSessionCookie()) return null;
    const { data, error } = await this.client.auth.getSession();
    if (data.session) {
      this.#via = "cookie";
      return data.session.access_token;
    }
    // Auth unreachable or failing: the cookie stays (auth-js drops a session whose refresh
    // failed this way; that is taken back), and the request fails (500).
    if (error && !isClientError(error)) {
      this.discard();
      throw error;
    }
    // A garbled cookie, or a refresh Auth refused (the library has then cleared it already).
    if (this.setCookies.length === 0) this.clear();
    return null;
  }

  /**
   * Signs in with e-mail and password through the cookie client: on success the session is
   * set as the cookie (older chunks cleared). `discard()` takes it back (a banned account).
   */
  async signIn(
    credentials: SignInWithPasswordCredentials,
  ): ReturnType<CookieDb["auth"]["signInWithPassword"]> {
    return await this.client.auth.signInWithPassword(credentials);
  }

  /** Drops every cookie this answer was going to set. */
  discard(): void {
    this.setCookies.length = 0;
  }

  /**
   * Ends the session at Auth (this device only) and clears the cookie: the bearer token's
   * session when there is one, else the cookie's. Auth failing is logged; the cookie is
   * cleared anyway.
   */
  async signOut(): Promise<void> {
    const bearer = bearerToken(this.req);
    let error: { message: string; status?: number } | null;
    try {
      ({ error } = bearer
        ? await userClient(this.config.env, null, this.#clientOptions).auth.admin.signOut(
          bearer,
          "local",
        )
        : await this.client.auth.signOut({ scope: "local" }));
    } catch (err) {
      error = { message: err instanceof Error ? err.message : String(err) };
    }
    if (error && !isClientError(error)) console.warn(`[api] logout: ${error.message}`);
    // The library clears the cookie it signed out; otherwise (a bearer call, Auth failing, no
    // cookie) the answer clears it here.
    if (bearer || error || this.setCookies.length === 0) this.clear();
  }

  /** Clears the session cookie(s) on the answer. */
  clear(): void {
    const names = new Set([this.key, ...this.cookieNames]);
    for (const name of names) this.setCookies.push(setCookieHeader(name, "", this.cookieOptions));
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
