// Every Supabase client a function uses is built here, typed with the generated `Database`
// (`npm run gen:types`), so a query's rows, an RPC's arguments and its result are checked
// against the migrations. None of them keeps a session: a function acts per request.
//
// - `serviceClient(env, code)`: the service-role (secret) key, for what a function does on the
//   system's behalf (billing state, the scan's writes, the delivery outbox, avatar storage,
//   the realtime hub's shared channels). It bypasses RLS: use it only where the caller's rights
//   were checked first or do not apply.
// - `userClient(env, token, { code, req })`: the publishable/anon key with the caller's access
//   token as bearer, so RLS and the RPCs see `auth.uid()`; with a null token it acts as `anon`
//   (public reads, sign-in, sign-up). The caller's IP (`x-forwarded-for` / `x-real-ip` of `req`)
//   is passed on for the database's per-IP limits.
// - `cookieClient(env, { code, req, cookies, cookieOptions })`: @supabase/ssr's
//   `createServerClient` over one request's cookies: the publishable key, the session read from
//   (and written back to) the cookie, for the `/api` cookie session (api/session.ts).
// A missing URL or key is a 500 `{ error: code }` naming the variable (never its value).
import {
  type CookieMethodsServer,
  type CookieOptionsWithName,
  createServerClient,
} from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import type { Database, Json } from "./database.types.ts";
import { type Env, requireEnv } from "./env.ts";

/** A client typed with the generated schema. */
export type Db = SupabaseClient<Database>;

/** Rows of a public table or view, as the generated types read them. */
export type TableRow<T extends keyof Database["public"]["Tables"]> =
  Database["public"]["Tables"][T]["Row"];
export type ViewRow<V extends keyof Database["public"]["Views"]> =
  Database["public"]["Views"][V]["Row"];

const NO_SESSION = {
  persistSession: false,
  autoRefreshToken: false,
  detectSessionInUrl: false,
} as const;

/** The service-role client. */
export function serviceClient(env: Env, code: string): Db {
  const vars = requireEnv(
    env,
    ["SUPABASE_URL", ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY"]],
    code,
  );
  return createClient<Database>(vars.SUPABASE_URL, vars.SUPABASE_SERVICE_ROLE_KEY, {
    auth: NO_SESSION,
  });
}

export interface UserClientOptions {
  /** The error code of the 500 when the URL or publishable key is missing. */
  code: string;
  /** The incoming request, whose client IP is forwarded. */
  req?: Request;
  /** A fetch of its own (tests). */
  fetch?: typeof fetch;
}

function publishableVars(env: Env, code: string) {
  return requireEnv(env, ["SUPABASE_URL", ["SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY"]], code);
}

/** The caller's IP, passed on so Auth and the database apply their per-IP limits. */
function forwardedFor(req: Request | undefined): Record<string, string> {
  const ip = req?.headers.get("x-forwarded-for") ?? req?.headers.get("x-real-ip");
  return ip ? { "x-forwarded-for": ip } : {};
}

/** The publishable-key client acting as the caller (`token`), or as `anon` when it is null. */
export function userClient(env: Env, token: string | null, opts: UserClientOptions): Db {
  const vars = publishableVars(env, opts.code);
  const headers: Record<string, string> = forwardedFor(opts.req);
  if (token) headers.Authorization = `Bearer ${token}`;
  return createClient<Database>(vars.SUPABASE_URL, vars.SUPABASE_ANON_KEY, {
    auth: NO_SESSION,
    global: { headers, ...(opts.fetch ? { fetch: opts.fetch } : {}) },
  });
}

export interface CookieClientOptions extends UserClientOptions {
  /** The request's cookies in, the answer's Set-Cookie out. */
  cookies: CookieMethodsServer;
  /** The cookie's name (the session's storage key) and attributes. */
  cookieOptions: CookieOptionsWithName;
}

/**
 * The cookie client's type. @supabase/ssr's declarations reach supabase-js through its CommonJS
 * typings, so its `SupabaseClient` is a distinct class declaration from `Db`'s (same version).
 */
export type CookieDb = ReturnType<typeof createServerClient<Database>>;

/**
 * @supabase/ssr's server client over one request's cookies: `auth.getSession()` reads (and,
 * near expiry, refreshes) the cookie session; sign-in, refresh and sign-out write it back
 * through `cookies.setAll`.
 */
export function cookieClient(env: Env, opts: CookieClientOptions): CookieDb {
  const vars = publishableVars(env, opts.code);
  return createServerClient<Database>(vars.SUPABASE_URL, vars.SUPABASE_ANON_KEY, {
    cookies: opts.cookies,
    cookieOptions: opts.cookieOptions,
    global: { headers: forwardedFor(opts.req), ...(opts.fetch ? { fetch: opts.fetch } : {}) },
  });
}

/**
 * A value sent to a `jsonb` argument. The domain's interfaces (quotes, health reports,
 * history batches) are plain JSON data but, lacking an index signature, do not match `Json`.
 */
export function asJson<T extends object>(value: T): Json {
  return value as unknown as Json;
}

/** A `jsonb` result read as an object: its fields, or none when it is not an object. */
export function jsonObject(value: Json | null | undefined): { [key: string]: Json | undefined } {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
