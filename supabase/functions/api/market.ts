// The market routes of the /api layer (specification section 7): gainers, their history and
// analysis, strategy signals and the live stream. Each request resolves the caller from the
// bearer token or the cookie session (session.ts) and reads with that token (market-db.ts), so
// the database's rules decide: movers_feed's plan and window checks, price_history_for's
// subscriber check and 5-minute resolution (decision 0016), the subscriber-only policies on
// instruments and strategy_signals, and the join policy of market:movers:<window>.
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { ANALYSIS_WINDOW_MS, computeAnalysis, riskText } from "../_shared/domain/analysis.ts";
import { hasActivePaidPlan, isWindowAllowed, WINDOW_MINUTES } from "../_shared/domain/plans.ts";
import { confirmedTime, type VenueConfirmation } from "../_shared/domain/quote-age.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { bearerToken } from "../_shared/supabase.ts";
import {
  banned,
  loginRequired,
  MESSAGES,
  sessionInvalid,
  subscriptionRequired,
  windowNotAllowed,
} from "./errors.ts";
import {
  type Caller,
  CANDLE_RESOLUTIONS,
  COMPARE_RANGES,
  defaultMarketDb,
  type InstrumentRow,
  type MarketDb,
  type MarketDbFactory,
  type MoversFeedRow,
  type MoversOpening,
  type MoversSubscription,
} from "./market-db.ts";
import {
  type Gainer,
  toCandles,
  toComparison,
  toGainer,
  toGainers,
  toHistoryPoints,
  toInsights,
  toNumber,
  toSignals,
} from "./shapes.ts";
import { type ApiEnv, apiMethodNotAllowed, apiRouter, route } from "./kit.ts";
import * as s from "./schemas.ts";
import { lastEventId, SSE_HEADERS, SseStream } from "./sse.ts";
import {
  supabaseVenueReadings,
  VenueConfirmations,
  type VenueReadingsReader,
} from "./venue-confirmations.ts";

export interface MarketDeps {
  env?: Env;
  /** The caller-scoped data access; default: supabase-js with the caller's token. */
  db?: MarketDbFactory;
  now?: () => number;
  /** Keep-alive comment interval of /sse (ms). */
  keepAliveMs?: number;
  /** How long /sse waits for the Realtime join (ms). */
  joinTimeoutMs?: number;
  /** The caller's access token (bearer or cookie session); default: the bearer token. */
  token?: (req: Request) => Promise<string | null>;
  /** /sse closes itself after this long (ms), before the platform's wall-clock limit. */
  streamMaxMs?: number;
  /** /sse checks the caller's plan again this often (ms). */
  reauthMs?: number;
  /**
   * The venues' stream reports and polls /sse applies to broadcast entries (decision 0086);
   * default: `stream_health` and `source_health` read with the publishable key.
   */
  venueReadings?: VenueReadingsReader;
}

export const SIGNALS_DEFAULT_LIMIT = 200;
export const SIGNALS_MAX_LIMIT = 500;
export const SSE_KEEP_ALIVE_MS = 25_000;
export const SSE_JOIN_TIMEOUT_MS = 10_000;
/** The reconnection delay /sse suggests to EventSource clients. */
export const SSE_RETRY_MS = 5_000;
/** Hosted functions end after 150 s (free plan) of wall-clock time: close before. */
export const SSE_MAX_MS = 140_000;
export const SSE_REAUTH_MS = 60_000;

const WINDOW_LIST = WINDOW_MINUTES.join(", ");
const WINDOW_HINT = `window must be one of ${WINDOW_LIST} (minutes; 0 is the 10-second window).`;

const windowParam = z
  .string()
  .regex(/^\d{1,4}$/, WINDOW_HINT)
  .transform(Number)
  .refine((w) => (WINDOW_MINUTES as readonly number[]).includes(w), WINDOW_HINT);

const windowQuery = z.object({
  window: windowParam.optional().describe(
    "0, 5, 10, 15, 20, 25 or 30 (minutes; 0 is the 10-second window); default: your selected window",
  ),
});
/** `true` or `false`, as a query string says it. */
const flagParam = (name: string) =>
  z.enum(["true", "false"], { message: `${name} must be true or false.` }).transform((v) =>
    v === "true"
  );
/** /gainers/recent: the window, and optionally only moves that are not thin or are confirmed. */
const recentQuery = windowQuery.extend({
  hideThin: flagParam("hideThin").optional().describe(
    "true: leave out thin moves (below the floor of their venue type)",
  ),
  confirmedOnly: flagParam("confirmedOnly").optional().describe(
    "true: only moves confirmed on another venue",
  ),
});
const symbolQuery = z.object({
  exchange: z.string().min(1, "exchange must not be empty.").max(120, "exchange is too long.")
    .optional(),
});
const symbolParams = z.object({
  symbol: z
    .string()
    .trim()
    .min(1, "Name a symbol, e.g. /api/gainers/history/BTC%2FUSDT.")
    .max(64, "symbol is at most 64 characters.")
    .describe("e.g. BTC%2FUSDT"),
});
const signalsQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `limit must be a whole number from 1 to ${SIGNALS_MAX_LIMIT}.`)
    .transform(Number)
    .refine(
      (n) => n >= 1 && n <= SIGNALS_MAX_LIMIT,
      `limit must be a whole number from 1 to ${SIGNALS_MAX_LIMIT}.`,
    )
    .optional()
    .describe(`1 to ${SIGNALS_MAX_LIMIT}, default ${SIGNALS_DEFAULT_LIMIT}`),
});

const candlesQuery = symbolQuery.extend({
  resolution: z.enum(CANDLE_RESOLUTIONS, { message: "resolution must be 5m, 1h or 4h." })
    .optional().describe("5m (default), 1h or 4h"),
});
const compareQuery = z.object({
  symbols: z
    .string({ message: "Name two to four symbols: symbols=BTC%2FUSDT,ETH%2FUSDT." })
    .transform((v) => v.split(",").map((x) => x.trim()).filter((x) => x !== ""))
    .refine(
      (list) => list.length >= 2 && list.length <= 4 && new Set(list).size === list.length,
      "Name two to four different symbols: symbols=BTC%2FUSDT,ETH%2FUSDT.",
    )
    .refine((list) => list.every((x) => x.length <= 64), "A symbol is at most 64 characters.")
    .describe("Two to four symbols, comma-separated (BTC%2FUSDT,ETH%2FUSDT)"),
  range: z.enum(COMPARE_RANGES, { message: "range must be 24h, 7d or 30d." }).optional()
    .describe("24h (default), 7d or 30d"),
});

/** The instrument a symbol names, and its entry in the caller's list when that decided it. */
interface Resolved {
  instrument: InstrumentRow;
  mover: Gainer | null;
}

export function marketRoutes(deps: MarketDeps = {}): OpenAPIHono<ApiEnv> {
  const env = deps.env ?? denoEnv;
  const makeDb = deps.db ?? defaultMarketDb;
  const now = deps.now ?? Date.now;
  const keepAliveMs = deps.keepAliveMs ?? SSE_KEEP_ALIVE_MS;
  const joinTimeoutMs = deps.joinTimeoutMs ?? SSE_JOIN_TIMEOUT_MS;
  const tokenOf = deps.token ?? ((req: Request) => Promise.resolve(bearerToken(req)));
  const streamMaxMs = deps.streamMaxMs ?? SSE_MAX_MS;
  const reauthMs = deps.reauthMs ?? SSE_REAUTH_MS;
  // Shared by every /sse stream of this instance (one read per scan at most).
  const venues = new VenueConfirmations(deps.venueReadings ?? supabaseVenueReadings(env), { now });
  const app = apiRouter();

  /** The caller, an active subscriber: 401 without a valid session, 403 otherwise. */
  async function subscriber(req: Request): Promise<{ db: MarketDb; caller: Caller }> {
    const token = await tokenOf(req);
    if (!token) throw loginRequired();
    const db = makeDb(env, token);
    const caller = await db.caller();
    if (!caller) throw sessionInvalid();
    if (caller.banned) throw banned();
    if (!hasActivePaidPlan(caller)) throw subscriptionRequired();
    return { db, caller };
  }

  /** The subscriber check runs before the request's parts are validated (401/403 first). */
  const subscribers = new WeakMap<Request, { db: MarketDb; caller: Caller }>();
  const guard: MiddlewareHandler<ApiEnv> = async (c, next) => {
    subscribers.set(c.req.raw, await subscriber(c.req.raw));
    await next();
  };
  const subscriberOf = (req: Request) => subscribers.get(req)!;

  /**
   * /sse's guard (decision 0071): the same checks in the same order (401, then 403 banned, then
   * 403 subscription_required), read together with the window's movers in one request,
   * `movers_stream_open`, instead of three (Auth's /user, the profile, movers_feed). Every
   * connect's own requests queue ahead of the shared channel's join check on a busy database.
   * A window the schema refuses gets the plain subscriber check, then its 400.
   */
  const openings = new WeakMap<Request, MoversOpening>();
  const sseGuard: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const raw = c.req.queries("window");
    const asked = raw === undefined || raw.length !== 1 ? null : windowParam.safeParse(raw[0]);
    if (raw !== undefined && !asked?.success) {
      subscribers.set(c.req.raw, await subscriber(c.req.raw));
      return await next();
    }
    const token = await tokenOf(c.req.raw);
    if (!token) throw loginRequired();
    const db = makeDb(env, token);
    const opening = await db.openMovers(asked?.success ? asked.data : null);
    const caller = opening.caller;
    if (!caller) throw sessionInvalid();
    if (caller.banned) throw banned();
    if (!hasActivePaidPlan(caller)) throw subscriptionRequired();
    subscribers.set(c.req.raw, { db, caller });
    openings.set(c.req.raw, opening);
    await next();
  };
  /** What every market route shares: subscribers only, the schemas' messages as they are. */
  const market = {
    method: "get",
    tag: "market",
    access: "subscriber",
    status: 200,
    guard,
    fieldNames: false,
  } as const;

  /**
   * The instrument of `symbol`: on `exchange` when given; otherwise the only one, or, when the
   * symbol trades on several venues, the strongest entry of the caller's current list (their
   * selected window), else the oldest instrument. None: 404.
   */
  async function resolve(
    db: MarketDb,
    caller: Caller,
    symbol: string,
    exchange: string | undefined,
  ): Promise<Resolved> {
    const found = await db.instruments(symbol, exchange);
    if (found.length === 0) {
      throw new HttpError(
        404,
        "unknown_symbol",
        exchange === undefined
          ? `No market data for ${symbol}.`
          : `No market data for ${symbol} on ${exchange}.`,
      );
    }
    if (found.length === 1) return { instrument: found[0]!, mover: null };
    const ids = new Set(found.map((i) => i.id));
    const rows = await db.moversFeed(null, { plan: caller.plan });
    for (const row of rows) {
      const mover = toGainer(row);
      if (mover && ids.has(mover.instrumentId)) {
        return { instrument: found.find((i) => i.id === mover.instrumentId)!, mover };
      }
    }
    return { instrument: found[0]!, mover: null };
  }

  const since = () => new Date(now() - ANALYSIS_WINDOW_MS).toISOString();

  app.use("*", async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });

  route(app, {
    ...market,
    path: "/gainers/recent",
    summary: "The window's 100 strongest movers (default: your selected window)",
    query: recentQuery,
    response: s.gainers,
    errors: [400, 403],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const query = c.req.valid("query");
    const rows = await db.moversFeed(query.window ?? null, { plan: caller.plan });
    // Decision 0046: thin and unconfirmed moves stay in the list (ranked lower) unless asked.
    return c.json(
      toGainers(rows).filter((g) =>
        (!query.hideThin || !g.thin) && (!query.confirmedOnly || g.confirmedOn.length > 0)
      ),
    );
  });

  route(app, {
    ...market,
    path: "/gainers/history/{symbol}",
    routingPath: "/gainers/history/{symbol{.+}}",
    summary: "A symbol's prices over the last 3 hours, oldest first",
    params: symbolParams,
    query: symbolQuery,
    response: s.historyPoints,
    errors: [400, 403, 404],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const { symbol } = c.req.valid("param");
    const { exchange } = c.req.valid("query");
    const { instrument } = await resolve(db, caller, symbol, exchange);
    const rows = await db.priceHistory(instrument.id, since());
    return c.json(toHistoryPoints(rows));
  });

  route(app, {
    ...market,
    path: "/gainers/analysis/{symbol}",
    routingPath: "/gainers/analysis/{symbol{.+}}",
    summary: "Trend, forecast, confidence, risk and more from the last 3 hours",
    params: symbolParams,
    query: symbolQuery,
    response: s.analysis,
    errors: [400, 403, 404],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const { symbol } = c.req.valid("param");
    const { exchange } = c.req.valid("query");
    const { instrument, mover } = await resolve(db, caller, symbol, exchange);
    const rows = await db.priceHistory(instrument.id, since());
    const points = toHistoryPoints(rows);
    // As the dashboard's analysis modal: the newest known 24-hour volume of the history, else
    // the mover's.
    let volume24h: number | null = null;
    for (let i = rows.length - 1; i >= 0 && volume24h === null; i--) {
      volume24h = toNumber(rows[i]!.volume_24h);
    }
    const analysis = computeAnalysis(points, { volume24h: volume24h ?? mover?.volume24h });
    const about = { symbol: instrument.symbol, exchange: instrument.exchange };
    if (!analysis) {
      return c.json({
        ...about,
        enoughData: false,
        dataPoints: points.length,
        message: MESSAGES.notEnoughData,
      });
    }
    return c.json({
      ...about,
      enoughData: true,
      ...analysis,
      riskText: riskText(analysis.riskScore),
    });
  });

  // The Pro data (decision 0035): the database decides (PT403 `pro_required` for Basic, as the
  // RPCs answer the SPA), so /api and the screens follow one rule.
  route(app, {
    ...market,
    path: "/gainers/candles/{symbol}",
    routingPath: "/gainers/candles/{symbol{.+}}",
    summary:
      "Pro and Enterprise: candles of 5 minutes (24 h), 1 hour (7 days) or 4 hours (30 days); Basic gets 403 pro_required",
    params: symbolParams,
    query: candlesQuery,
    response: s.candles,
    errors: [400, 403, 404],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const { symbol } = c.req.valid("param");
    const { exchange, resolution } = c.req.valid("query");
    const { instrument } = await resolve(db, caller, symbol, exchange);
    return c.json(toCandles(await db.candles(instrument.id, resolution ?? "5m")));
  });

  route(app, {
    ...market,
    path: "/gainers/insights/{symbol}",
    routingPath: "/gainers/insights/{symbol{.+}}",
    summary:
      "Pro and Enterprise: the last hour's move against 30 days of history, percentile, BTC correlation, volatility regime, drawdown; Basic gets 403 pro_required",
    params: symbolParams,
    query: symbolQuery,
    response: s.insights,
    errors: [400, 403, 404],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const { symbol } = c.req.valid("param");
    const { exchange } = c.req.valid("query");
    const { instrument } = await resolve(db, caller, symbol, exchange);
    const insights = await db.insights(instrument.id);
    // A jsonb object, or null when the instrument has no history.
    if (!insights || typeof insights !== "object" || Array.isArray(insights)) {
      throw new HttpError(404, "unknown_symbol", `No market data for ${symbol}.`);
    }
    return c.json(toInsights(insights, instrument.exchange));
  });

  route(app, {
    ...market,
    path: "/charts/compare",
    summary:
      "Pro and Enterprise: two to four symbols as % change from the same start over 24 h, 7 days or 30 days; Basic gets 403 pro_required",
    query: compareQuery,
    response: s.comparison,
    errors: [400, 403, 404],
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const { symbols, range } = c.req.valid("query");
    const ids: number[] = [];
    for (const symbol of symbols) {
      ids.push((await resolve(db, caller, symbol, undefined)).instrument.id);
    }
    if (new Set(ids).size !== ids.length) {
      throw new HttpError(400, "invalid_request", "Name two to four different symbols.");
    }
    return c.json(toComparison(await db.compare(ids, range ?? "24h")));
  });

  route(app, {
    ...market,
    path: "/signals/recent",
    summary: "The newest strategy signals",
    query: signalsQuery,
    response: s.signals,
    errors: [400, 403],
  }, async (c) => {
    const { db } = subscriberOf(c.req.raw);
    const { limit } = c.req.valid("query");
    return c.json(toSignals(await db.recentSignals(limit ?? SIGNALS_DEFAULT_LIMIT)));
  });

  route(app, {
    ...market,
    path: "/sse",
    summary: "Live movers of a window (server-sent events)",
    query: windowQuery,
    stream:
      "`event: connected` first; then one unnamed event per gainer of each scan (JSON, the fields of /gainers/recent, confirmedAt included: the venue's confirmation as its stream reader had reported it before the scan). Every event has an id; reconnect with Last-Event-ID to get what changed since.",
    errors: [400, 403, 503],
    guard: sseGuard,
  }, async (c) => {
    const { db, caller } = subscriberOf(c.req.raw);
    const query = c.req.valid("query");
    const windowMinutes = query.window ?? caller.selectedWindowMinutes;
    // The same check as /gainers/recent, by the database: a window the plan does not offer is
    // a 403 before anything is streamed. The guard's one request already asked movers_feed.
    const opening = openings.get(c.req.raw);
    let current: MoversFeedRow[];
    if (opening && opening.windowMinutes === windowMinutes) {
      if (opening.refusal) throw opening.refusal;
      current = opening.rows;
    } else {
      current = await db.moversFeed(windowMinutes, { plan: caller.plan });
    }

    const stream = new SseStream({
      keepAliveMs,
      signal: c.req.raw.signal,
      maxMs: streamMaxMs,
      closeRetryMs: 1_000,
    });
    stream.send({ comment: "connected", retry: SSE_RETRY_MS });
    let subscription: MoversSubscription;
    // Broadcasts are sent in the order they came, each after its venues' confirmations are read.
    let delivered = Promise.resolve();
    try {
      subscription = await db.joinMovers(windowMinutes, {
        onMovers(payload) {
          const broadcast = payload as
            | { window?: unknown; entries?: unknown; scanned_at?: unknown }
            | null;
          if (!broadcast || broadcast.window !== windowMinutes) return;
          if (!Array.isArray(broadcast.entries)) return;
          const entries: unknown[] = broadcast.entries;
          const scanned = typeof broadcast.scanned_at === "string"
            ? Date.parse(broadcast.scanned_at)
            : NaN;
          const id = String(Number.isFinite(scanned) ? scanned : now());
          delivered = delivered.then(async () => {
            // Entries carry confirmedAt as /gainers/recent does (decision 0086); a broadcast
            // without its time gets no venue confirmation (confirmedAt = quotedAt).
            const confirmations = Number.isFinite(scanned)
              ? await venues.before(scanned)
              : new Map<string, VenueConfirmation>();
            for (const entry of entries) {
              const gainer = typeof entry === "object" && entry !== null
                ? toGainer(withVenueConfirmation(entry as Record<string, unknown>, confirmations))
                : null;
              if (gainer) stream.send({ id, data: gainer });
            }
          });
        },
        onEnd(reason) {
          stream.send({ event: "error", data: { error: "stream_closed", message: reason } });
          stream.end();
        },
      }, joinTimeoutMs);
    } catch (err) {
      stream.discard();
      throw err;
    }
    stream.onEnd(() => subscription.leave());
    stream.send({ id: String(now()), event: "connected", data: { window: windowMinutes } });
    // Resume: the entries of the window that changed since the client's last event.
    const since = lastEventId(c.req.raw);
    if (since !== null) {
      for (const row of [...current].reverse()) {
        const gainer = toGainer(row);
        const at = gainer ? Date.parse(gainer.ts) : NaN;
        if (gainer && at > since) stream.send({ id: String(at), data: gainer });
      }
    }
    // The plan may lapse or the account be banned while the stream lasts: one request a check.
    const recheck = setInterval(() => {
      db.sessionCaller().then((again) => {
        if (!again || again.banned || !hasActivePaidPlan(again)) {
          throw again?.banned ? banned() : subscriptionRequired();
        }
        if (!isWindowAllowed(again.plan, windowMinutes)) {
          throw windowNotAllowed(again.plan, windowMinutes);
        }
      }).catch((err) => {
        stream.send({
          event: "error",
          data: { error: err instanceof Error ? err.message : String(err) },
        });
        stream.end();
      });
    }, reauthMs);
    stream.onEnd(() => clearInterval(recheck));
    return new Response(stream.body, { headers: SSE_HEADERS });
  });

  for (
    const path of [
      "/gainers/recent",
      "/gainers/history/:symbol{.+}",
      "/gainers/analysis/:symbol{.+}",
      "/signals/recent",
      "/sse",
    ]
  ) {
    app.on(["POST", "PUT", "PATCH", "DELETE"], path, () => apiMethodNotAllowed("GET"));
  }

  return app;
}

/**
 * A broadcast entry with `confirmed_at` by its venue's confirmation (`confirmedTime`, the rule of
 * movers_feed's confirmed_at); entries of venues that confirm nothing keep their quote's time.
 */
export function withVenueConfirmation(
  entry: Record<string, unknown>,
  venues: ReadonlyMap<string, VenueConfirmation>,
): Record<string, unknown> {
  const venue = typeof entry.source === "string" ? venues.get(entry.source) : undefined;
  if (!venue || typeof entry.ts !== "string") return entry;
  return {
    ...entry,
    confirmed_at: confirmedTime({
      ts: entry.ts,
      quoted_at: typeof entry.quoted_at === "string" ? entry.quoted_at : undefined,
      confirmed_at: typeof entry.confirmed_at === "string" ? entry.confirmed_at : null,
    }, venue),
  };
}
