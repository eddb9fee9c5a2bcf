// What every route of the /api layer shares: the error body the specification's clients read,
// the database's refusals as HTTP statuses, body and query parsing with zod, the caller (their
// token, a supabase-js client carrying it, their user id), and the route register the OpenAPI
// document is generated from.
//
// Error body: `{ error, code, message }`. The specification's clients show the `error` field to
// the user ("server message"), so `error` is the human-readable message; `code` is the stable
// machine-readable reason and `message` repeats the text for clients written to the functions'
// `{ error, message }` convention (decision 0024).
import { type Db, userClient } from "../_shared/clients.ts";
import type { Context } from "hono";
import { z } from "zod";
import { corsHeaders, HttpError } from "../_shared/http.ts";
import type { Env } from "../_shared/env.ts";
import { API_NOT_CONFIGURED, type DbError } from "./errors.ts";
import type { RequestSession } from "./session.ts";

export function apiError(status: number, code: string, message: string): Response {
  return Response.json({ error: message, code, message }, { status, headers: corsHeaders });
}

/** Any method but the allowed ones: 405 with `Allow`. */
export function apiMethodNotAllowed(allowed: string): Response {
  const res = apiError(405, "method_not_allowed", `Use ${allowed}.`);
  res.headers.set("Allow", allowed);
  return res;
}

export const unauthorized = () => new HttpError(401, "unauthorized", "Please log in to continue.");

/** Maps a database refusal to its HTTP error; anything unexpected is thrown as a 500. */
export function dbFail(
  what: string,
  error: DbError,
  opts: { status?: number; fallback?: string; notFound?: string } = {},
): never {
  const code = error.code ?? "";
  const message = error.message?.trim() || opts.fallback || "The request was refused.";
  switch (code) {
    case "PT400":
      throw new HttpError(400, "invalid_request", message);
    case "PT401":
      throw new HttpError(401, "unauthorized", message);
    case "PT403":
      throw new HttpError(403, "forbidden", message);
    case "PT404":
      throw new HttpError(404, "not_found", message);
    case "PT409":
      throw new HttpError(409, "conflict", message);
    case "PT429": {
      // The database's write limits say how long to wait (`details`: retry-after=N).
      const wait = /^retry-after=(\d+)$/.exec(error.details ?? "")?.[1];
      throw new HttpError(429, "too_many_requests", message, wait ? { "Retry-After": wait } : {});
    }
    case "42501":
      throw new HttpError(403, "forbidden", opts.fallback ?? "You are not allowed to do this.");
    case "23505":
      throw new HttpError(409, "conflict", opts.fallback ?? "This already exists.");
    case "23503":
      throw new HttpError(404, "not_found", opts.notFound ?? "What this refers to does not exist.");
    case "23514":
    case "23502":
    case "22001":
    case "22P02":
    case "22023":
    case "22007":
      // Raised rule messages are meant for users; a bare constraint name is not.
      throw new HttpError(
        400,
        "invalid_request",
        /violates (check|not-null) constraint|invalid input syntax/i.test(message)
          ? (opts.fallback ?? "A value in the request is invalid.")
          : message,
      );
  }
  if (/^PGRST30[0-3]$/.test(code) || opts.status === 401) throw unauthorized();
  if (code === "PGRST116") throw new HttpError(404, "not_found", opts.notFound ?? "Not found.");
  throw new Error(`[api] ${what} failed: ${code || "?"} ${error.message ?? ""}`.trim());
}

/** `value` parsed by `schema`, else a 400 with the first problem, naming its field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const message = issue?.message ?? "The request is invalid.";
  // Our own messages are meant for users as they are; zod's generic ones get the field's name.
  const generic =
    /^(Invalid input|Invalid option|Invalid string|Too big|Too small|Unrecognized key)/;
  const field = issue?.path.length && generic.test(message) ? `${issue.path.join(".")}: ` : "";
  throw new HttpError(400, "invalid_request", `${field}${message}`);
}

/** The JSON body parsed by `schema`; an absent or unreadable body is a 400. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  const text = await c.req.text();
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch {
      throw new HttpError(400, "invalid_json", "The request body is not valid JSON.");
    }
  }
  return parseWith(schema, value);
}

export const uuid = (what: string) =>
  z.string().regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    `${what} must be a UUID.`,
  );

// ---------------------------------------------------------------------------------------------
// The caller
// ---------------------------------------------------------------------------------------------

export interface Caller {
  /** A supabase-js client carrying the caller's access token (RLS applies). */
  db: Db;
  token: string;
  id: string;
  email: string | null;
}

export interface KitDeps {
  env: Env;
  session(req: Request): RequestSession;
}

/** The publishable-key client with the caller's token; the client's IP is passed on. */
export function callerClient(env: Env, token: string | null, req?: Request): Db {
  return userClient(env, token, { code: API_NOT_CONFIGURED, ...(req ? { req } : {}) });
}

/** The logged-in caller (bearer token or cookie session), else 401. */
export async function requireCaller(deps: KitDeps, req: Request): Promise<Caller> {
  const session = deps.session(req);
  const token = await session.token();
  if (!token) throw unauthorized();
  const db = callerClient(deps.env, token, req);
  const { data, error } = await db.auth.getUser(token);
  if (error || !data.user) {
    if (
      error && !(typeof error.status === "number" && error.status < 500) &&
      error.name !== "AuthSessionMissingError"
    ) {
      throw error;
    }
    if (session.via === "cookie") session.clear();
    throw new HttpError(
      401,
      "unauthorized",
      "Your session is invalid or has expired. Please log in again.",
    );
  }
  return { db, token, id: data.user.id, email: data.user.email ?? null };
}

// ---------------------------------------------------------------------------------------------
// The route register (OpenAPI)
// ---------------------------------------------------------------------------------------------

export type Access = "public" | "user" | "subscriber" | "admin";

export interface RouteDoc {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** OpenAPI path, e.g. /api/groups/{id}/join. */
  path: string;
  tag: string;
  summary: string;
  access: Access;
  params?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** multipart/form-data with one file field (and, optionally, required text fields). */
  file?: { field: string; description: string; fields?: Record<string, string> };
  /** Success status and body (null: no body). */
  status: number;
  response?: z.ZodType | null;
  /** text/event-stream instead of JSON. */
  stream?: string;
  /** Error statuses besides 401/500 the route answers. */
  errors?: number[];
  description?: string;
}

export const ROUTES: RouteDoc[] = [];

export function doc(route: RouteDoc): void {
  ROUTES.push(route);
}
