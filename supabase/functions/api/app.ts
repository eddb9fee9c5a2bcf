// The /api compatibility layer (specification section 7), routed with Hono. It is served at
// /functions/v1/api/* and, by the gateway, at /api/*. It is a thin translation onto the
// database's rules: every call is made with the CALLER's access token (never the service role,
// except the one shared Realtime connection whose streams are authorised with the caller's
// token, and the avatar storage the avatar function uses too), so RLS and the RPCs decide.
//
// Routes: each is a createRoute (kit.ts route()) beside its handler; the document is generated
// from them by @hono/zod-openapi, served as OpenAPI 3.1 at GET /api/openapi.json and as a
// reference page at GET /api/docs; decisions 0012 (market routes), 0024 (the whole layer:
// sessions, errors, CSRF) and 0026 (streams). Authentication: `Authorization: Bearer <access
// token>` or the cookie session POST /api/auth/login sets (session.ts).
//
// Errors `{ error, code, message }`: `error` is the message the specification's screens show,
// `code` the machine-readable reason (unauthorized, forbidden, not_found, invalid_request,
// conflict, cross_site_request, subscription_required, banned, window_not_allowed, …).
import { cors } from "hono/cors";
import type { AvatarStoreFactory } from "../_shared/avatars.ts";
import { corsHeaders, HttpError } from "../_shared/http.ts";
import { denoEnv } from "../_shared/env.ts";
import {
  healthResponse,
  type SourceHealthReader,
  type StreamHealthReader,
  supabaseSourceHealth,
  supabaseStreamHealth,
  withConfirmations,
} from "./health.ts";
import { apiError, apiRouter, route } from "./kit.ts";
import { type MarketDeps, marketRoutes, SSE_JOIN_TIMEOUT_MS, SSE_KEEP_ALIVE_MS } from "./market.ts";
import { openApiDocument, referencePage } from "./openapi.ts";
import { type RealtimeHub, sharedHub } from "./realtime-hub.ts";
import { accountRoutes } from "./routes-account.ts";
import { adminRoutes } from "./routes-admin.ts";
import { communityRoutes } from "./routes-community.ts";
import { supportRoutes } from "./routes-support.ts";
import { RequestSession, type SessionConfig, sessionConfig } from "./session.ts";
import { streamRoutes } from "./streams.ts";

export interface ApiDeps extends MarketDeps {
  /** Each market source's state; default: `source_health` read with the publishable key. */
  sourceHealth?: SourceHealthReader;
  /** Each venue stream's state; default: `stream_health` read with the publishable key. */
  streamHealth?: StreamHealthReader;
  /** The fetch of the cookie session's Auth calls (refresh, sign-in, sign-out); default: fetch. */
  authFetch?: typeof fetch;
  /** The Realtime hub of chat and support streams; default: the instance's shared hub. */
  hub?: () => RealtimeHub;
  avatarStore?: AvatarStoreFactory;
  fetchFunction?: (name: string, init: RequestInit) => Promise<Response>;
}

export function envNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}

export function createApiApp(deps: ApiDeps = {}) {
  const env = deps.env ?? denoEnv;
  const now = deps.now ?? Date.now;
  const app = apiRouter().basePath("/api");
  const readHealth = deps.sourceHealth ?? supabaseSourceHealth(env);
  const readStreams = deps.streamHealth ?? supabaseStreamHealth(env, now);

  let config: SessionConfig | undefined;
  const sessionCfg = () => config ??= sessionConfig(env, deps.authFetch);
  const sessions = new WeakMap<Request, RequestSession>();
  const session = (req: Request) => {
    let s = sessions.get(req);
    if (!s) sessions.set(req, s = new RequestSession(req, sessionCfg()));
    return s;
  };

  app.onError((err) => {
    if (err instanceof HttpError) {
      const res = apiError(err.status, err.code, err.message);
      for (const [name, value] of Object.entries(err.headers)) res.headers.set(name, value);
      return res;
    }
    console.error("[api]", err);
    return apiError(500, "internal_error", "Something went wrong on our side. Please try again.");
  });
  app.notFound((c) =>
    apiError(404, "not_found", `No route ${c.req.method} ${new URL(c.req.url).pathname}`)
  );

  // CORS: credentials only for the app's own origins; other origins may call with a bearer.
  app.use(
    "*",
    cors({
      origin: (origin) => (origin && sessionCfg().allowedOrigins.has(origin) ? origin : "*"),
      credentials: true,
      allowHeaders: [...corsHeaders["Access-Control-Allow-Headers"]!.split(", "), "last-event-id"],
      allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    }),
  );
  // Cookie sessions: refuse cross-site writes; set refreshed or cleared cookies on the answer.
  app.use("*", async (c, next) => {
    session(c.req.raw).checkCrossSite();
    await next();
    const s = sessions.get(c.req.raw);
    if (s && s.setCookies.length > 0) {
      for (const cookie of s.setCookies) c.res.headers.append("set-cookie", cookie);
      c.res.headers.set("cache-control", "no-store");
    }
  });
  app.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });

  route(app, {
    method: "get",
    path: "/health",
    tag: "meta",
    summary:
      "The api is up; each market source's state and confirmation, each venue stream's state",
    access: "public",
    status: 200,
    response: healthResponse,
  }, async (c) => {
    const at = now();
    const time = new Date(at).toISOString();
    const read = <T>(what: string, reader: () => Promise<T[]>) =>
      reader().catch((err: unknown) => {
        console.warn(`[api] ${what} unreadable: ${err instanceof Error ? err.message : err}`);
        return null;
      });
    const [sources, streams] = await Promise.all([
      read("source health", readHealth),
      read("stream health", readStreams),
    ]);
    return c.json({
      status: sources && streams ? "ok" : "degraded",
      time,
      sources: withConfirmations(sources ?? [], streams, at),
      streams: streams ?? [],
    });
  });

  const kit = { env, session };
  const tokenOf = (req: Request) => session(req).token();
  const hub = deps.hub ?? (() => sharedHub(env));
  app.route(
    "/",
    marketRoutes({
      ...deps,
      env,
      token: tokenOf,
      streamMaxMs: deps.streamMaxMs ?? envNumber(env("API_STREAM_MAX_MS"), 140_000),
      reauthMs: deps.reauthMs ?? envNumber(env("API_STREAM_REAUTH_MS"), 60_000),
    }),
  );
  app.route(
    "/",
    accountRoutes({
      ...kit,
      avatarStore: deps.avatarStore,
      now,
      fetchFunction: deps.fetchFunction,
    }),
  );
  app.route("/", communityRoutes(kit));
  app.route("/", supportRoutes(kit));
  app.route("/", adminRoutes(kit));
  app.route(
    "/",
    streamRoutes({
      ...kit,
      hub,
      now,
      keepAliveMs: deps.keepAliveMs ??
        envNumber(env("API_STREAM_KEEP_ALIVE_MS"), SSE_KEEP_ALIVE_MS),
      maxMs: deps.streamMaxMs ?? envNumber(env("API_STREAM_MAX_MS"), 140_000),
      reauthMs: deps.reauthMs ?? envNumber(env("API_STREAM_REAUTH_MS"), 60_000),
      joinTimeoutMs: deps.joinTimeoutMs ?? SSE_JOIN_TIMEOUT_MS,
    }),
  );

  app.get("/openapi.json", (c) => c.json(openApiDocument(app)));
  app.get("/docs", (c) => c.html(referencePage(openApiDocument(app))));
  return app;
}

export default createApiApp();
