// What every route of the /api layer shares: the error body the specification's clients read,
// the database's refusals as HTTP statuses, body and query parsing with zod, the caller (their
// token, a supabase-js client carrying it, their user id), and route(): a createRoute of
// @hono/zod-openapi whose zod schemas validate the request and make the OpenAPI document.
//
// Error body: `{ error, code, message }`. The specification's clients show the `error` field to
// the user ("server message"), so `error` is the human-readable message; `code` is the stable
// machine-readable reason and `message` repeats the text for clients written to the functions'
// `{ error, message }` convention (decision 0024).
import { type Db, userClient } from "../_shared/clients.ts";
import type { Context, MiddlewareHandler } from "hono";
import { createRoute, type Hook, OpenAPIHono } from "@hono/zod-openapi";
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

/** The 400 of a value `schema` refused: its first problem, naming the field of zod's own messages. */
export function invalidRequest(error: z.ZodError, opts: { field?: boolean } = {}): HttpError {
  const issue = error.issues[0];
  const message = issue?.message ?? "The request is invalid.";
  // Our own messages are meant for users as they are; zod's generic ones get the field's name.
  const generic =
    /^(Invalid input|Invalid option|Invalid string|Too big|Too small|Unrecognized key)/;
  const field = opts.field !== false && issue?.path.length && generic.test(message)
    ? `${issue.path.join(".")}: `
    : "";
  return new HttpError(400, "invalid_request", `${field}${message}`);
}

/** `value` parsed by `schema`, else a 400 with the first problem, naming its field. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidRequest(result.error);
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
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
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

/** Who may call a route (the document's `x-access`). */
export type Access = "public" | "user" | "subscriber" | "admin";

// ---------------------------------------------------------------------------------------------
// Routes with @hono/zod-openapi (decision 0062): each route is a createRoute whose zod schemas
// validate the request and make its part of the OpenAPI document (openapi.ts serves it).
// ---------------------------------------------------------------------------------------------

/** What routes share on the context: the caller a guard resolved before validation. */
export type ApiEnv = { Variables: { caller?: Caller } };

/**
 * A validation failure: the same 400 `invalid_request` parseWith answers (thrown, so app.ts's
 * onError writes the `{ error, code, message }` body).
 */
export const defaultHook: Hook<unknown, ApiEnv, string, undefined> = (result) => {
  if (!result.success) throw invalidRequest(result.error);
};

/** A router of /api routes: OpenAPIHono with the shared validation hook. */
export function apiRouter(): OpenAPIHono<ApiEnv> {
  return new OpenAPIHono<ApiEnv>({ strict: false, defaultHook });
}

/** The error answers' body in the document. */
const ERROR_REF = { $ref: "#/components/schemas/Error" };

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No content",
  400: "Invalid request",
  401: "Not logged in, or the session expired",
  403: "Refused (rights, ban, plan, or a cross-site write)",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Too large",
  415: "Unsupported file type",
  429: "Too many attempts",
  500: "Server error",
  502: "Payment provider error",
  503: "Live stream unavailable",
};

export interface ApiRouteSpec<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
> {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** OpenAPI path below /api, e.g. /groups/{id}/join. */
  path: string;
  /** The path Hono routes when it differs (e.g. `/gainers/history/:symbol{.+}`). */
  routingPath?: string;
  tag: string;
  summary: string;
  access: Access;
  description?: string;
  /** Path parameters, validated before the handler (after the guard). */
  params?: P;
  /** Query parameters, validated before the handler (after the guard). */
  query?: Q;
  /**
   * The JSON body, validated before the handler: read whatever its content type, an empty body
   * is `{}`, an unreadable one is 400 invalid_json (jsonBody).
   */
  body?: B;
  /** multipart/form-data with one file field (and, optionally, required text fields). */
  file?: { field: string; description: string; fields?: Record<string, string> };
  /** Success status and body (null: no body). */
  status: number;
  response?: z.ZodType | null;
  /** text/event-stream instead of JSON. */
  stream?: string;
  /** Error statuses besides 401/500 the route answers. */
  errors?: number[];
  /** Run before validation: the caller's check (so a request without a login is 401 first). */
  guard?: MiddlewareHandler<ApiEnv>;
  /** zod's generic messages name their field (default), or are answered as they are. */
  fieldNames?: boolean;
}

type Out<T> = T extends z.ZodType ? z.output<T> : never;
export type ApiContext<P, Q, B> = Context<ApiEnv, string, {
  out: { param: Out<P>; query: Out<Q>; json: Out<B> };
}>;

function fileBody(file: NonNullable<ApiRouteSpec["file"]>) {
  return {
    type: "object" as const,
    required: [file.field, ...Object.keys(file.fields ?? {})],
    properties: {
      [file.field]: {
        type: "string" as const,
        contentMediaType: "application/octet-stream",
        description: file.description,
      },
      ...Object.fromEntries(
        Object.entries(file.fields ?? {}).map(([name, description]) => [
          name,
          { type: "string" as const, description },
        ]),
      ),
    },
  };
}

/** The createRoute of a spec: what the document shows and the library validates. */
export function routeConfig(
  spec: ApiRouteSpec<z.ZodObject | undefined, z.ZodObject | undefined, z.ZodType | undefined>,
) {
  const responses: Record<string, unknown> = {};
  const ok = STATUS_TEXT[spec.status] ?? "OK";
  responses[spec.status] = spec.stream
    ? { description: spec.stream, content: { "text/event-stream": { schema: z.string() } } }
    : spec.response
    ? { description: ok, content: { "application/json": { schema: spec.response } } }
    : { description: ok };
  const errors = new Set([...(spec.errors ?? []), 500]);
  if (spec.access !== "public") errors.add(401);
  for (const status of [...errors].sort()) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? "Error",
      content: { "application/json": { schema: ERROR_REF } },
    };
  }
  const body = spec.body
    ? { required: true, content: { "application/json": { schema: spec.body } } }
    : spec.file
    ? { required: true, content: { "multipart/form-data": { schema: fileBody(spec.file) } } }
    : undefined;
  return createRoute({
    method: spec.method,
    path: spec.path,
    tags: [spec.tag],
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    operationId: `${spec.method}${
      spec.path.replace(/[{}]/g, "").split(/[/-]/).filter(Boolean)
        .map((p) => p[0]!.toUpperCase() + p.slice(1)).join("")
    }`,
    "x-access": spec.access,
    security: spec.access === "public" ? [] : [{ bearer: [] }, { cookieSession: [] }],
    request: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { query: spec.query } : {}),
      ...(body ? { body } : {}),
    },
    responses: responses as never,
  });
}

/**
 * Routes `spec` on `app` and puts it in the document. The library validates the path and the
 * query with the spec's schemas (defaultHook: the 400 of parseWith); the JSON body is read by
 * jsonBody and validated by the spec's schema in the same place, so that an empty body stays
 * `{}`, a malformed one `invalid_json` and a body without a JSON content type is still read
 * (the library's own body validator would answer 400 text and 415 there).
 */
export function route<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  app: OpenAPIHono<ApiEnv>,
  spec: ApiRouteSpec<P, Q, B>,
  handler: (c: ApiContext<P, Q, B>) => Response | Promise<Response>,
): void {
  const config = routeConfig(spec);
  app.openAPIRegistry.registerPath(config);
  const { body: _body, ...request } = config.request ?? {};
  const hook = spec.fieldNames === false
    ? (result: Parameters<typeof defaultHook>[0]) => {
      if (!result.success) throw invalidRequest(result.error, { field: false });
    }
    : undefined;
  app.openapi(
    {
      ...config,
      // The routing path: `{symbol}` becomes `:symbol`; a pattern such as `:symbol{.+}` is
      // written `{symbol{.+}}` (the library turns `/{x` into `/:x`).
      path: spec.routingPath ?? config.path,
      hide: true,
      request,
      ...(spec.guard ? { middleware: [spec.guard] } : {}),
    },
    (async (c: ApiContext<P, Q, B>) => {
      if (spec.body) c.req.addValidatedData("json", await jsonBody(c, spec.body) as object);
      return await handler(c);
    }) as never,
    hook as never,
  );
}

/** A guard resolving the logged-in caller (requireCaller) into `c.var.caller`. */
export function callerGuard(deps: KitDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set("caller", await requireCaller(deps, c.req.raw));
    await next();
  };
}

/** The caller the route's guard resolved. */
export function callerOf(c: Context<ApiEnv>): Caller {
  const caller = c.get("caller");
  if (!caller) throw new Error("[api] the route has no caller guard");
  return caller;
}
