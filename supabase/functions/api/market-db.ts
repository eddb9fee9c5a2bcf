// The market data the /api layer reads, as a port, and its Supabase implementation: a
// supabase-js client that carries the CALLER's access token (the publishable/anon key as
// `apikey`), so the row-level security policies, movers_feed's plan checks and the Realtime
// join policy decide what the caller sees. The service role is never used here.
import { type Db, type TableRow, userClient } from "../_shared/clients.ts";
import type { Database, Json } from "../_shared/database.types.ts";
import { isPlanId, type PlanId } from "../_shared/domain/plans.ts";
import { MOVERS_EVENT, moversTopic } from "../_shared/domain/realtime.ts";
import type { Env } from "../_shared/env.ts";
import { type PriceHistoryRow, readPlanPriceHistory } from "../_shared/price-history.ts";
import {
  API_NOT_CONFIGURED,
  type DbError,
  type DbErrorContext,
  httpErrorFromDb,
  throwDbError,
} from "./errors.ts";
import { type RealtimeHub, sharedHub } from "./realtime-hub.ts";

/** The caller's own profile row (readable by its owner under RLS). */
export interface Caller {
  id: string;
  plan: PlanId;
  subscriptionActive: boolean;
  banned: boolean;
  selectedWindowMinutes: number;
}

export interface InstrumentRow {
  id: number;
  symbol: string;
  exchange: string;
}

export type HistoryRow = PriceHistoryRow;

// Rows as the generated types describe them (`npm run gen:types`). postgres-meta marks every
// column a function returns as NOT NULL and `numeric` as number; movers_feed's network,
// pool_url or pct_3hour do arrive null, so the mappers (shapes.ts) still check each value.
type Returns<F extends keyof Database["public"]["Functions"]> =
  Database["public"]["Functions"][F]["Returns"];
/** One row of `movers_feed(window)`. */
export type MoversFeedRow = Returns<"movers_feed">[number];
/** One row of `history_candles(instrument, resolution)`. */
export type CandleRow = Returns<"history_candles">[number];
/** One row of `history_compare(instruments, range)`; `points` is jsonb (`[epoch ms, %][]`). */
export type ComparedRow = Returns<"history_compare">[number];
/** The strategy_signals columns the api reads. */
export const SIGNAL_COLUMNS =
  "id, symbol, exchange, exchange_type, timeframe, strategy, signal, confidence, confidence_tier, price, volume_24h, indicator_values, computed_at";
export type SignalRow = Pick<
  TableRow<"strategy_signals">,
  | "id"
  | "symbol"
  | "exchange"
  | "exchange_type"
  | "timeframe"
  | "strategy"
  | "signal"
  | "confidence"
  | "confidence_tier"
  | "price"
  | "volume_24h"
  | "indicator_values"
  | "computed_at"
>;

export const CANDLE_RESOLUTIONS = ["5m", "1h", "4h"] as const;
export type CandleResolution = (typeof CANDLE_RESOLUTIONS)[number];
export const COMPARE_RANGES = ["24h", "7d", "30d"] as const;
export type CompareRange = (typeof COMPARE_RANGES)[number];

/** A joined `market:movers:<window>` channel. */
export interface MoversSubscription {
  /** Leaves the channel and closes the connection (idempotent). */
  leave(): Promise<void>;
}

export interface MoversHandlers {
  /** Each `movers` broadcast's payload (`{ window, scanned_at, entries }`). */
  onMovers(payload: unknown): void;
  /** The channel ended after the join (closed by the server, token expired, connection lost). */
  onEnd(reason: string): void;
}

/**
 * What `/api/sse` needs before it joins (decision 0071), read in one request: the caller (null
 * when the token is not a live session), the window (the asked one, else the caller's selected
 * window), and the window's movers or the database's refusal of them.
 */
export interface MoversOpening {
  caller: Caller | null;
  windowMinutes: number | null;
  rows: MoversFeedRow[];
  /** movers_feed's refusal (plan, window), thrown by the route after its own checks. */
  refusal: Error | null;
}

/** Everything one request of one caller reads; every call is made with the caller's token. */
export interface MarketDb {
  /** The token's user and profile; null when the token is not a valid session. */
  caller(): Promise<Caller | null>;
  /**
   * `session_caller()`: the same answer as `caller()` in one request (the session and the
   * profile), for an open stream's periodic re-check (decision 0071).
   */
  sessionCaller(): Promise<Caller | null>;
  /** `movers_feed(window)` rows, strongest first (null: the caller's selected window). */
  moversFeed(
    windowMinutes: number | null,
    ctx?: DbErrorContext,
  ): Promise<MoversFeedRow[]>;
  /**
   * `movers_stream_open(window)`: the caller and `movers_feed(window)` in one request (null:
   * the caller's selected window).
   */
  openMovers(windowMinutes: number | null): Promise<MoversOpening>;
  /** Instruments with this symbol (on this exchange when given), oldest first. */
  instruments(symbol: string, exchange?: string): Promise<InstrumentRow[]>;
  /** An instrument's samples since `sinceIso`, oldest first. */
  priceHistory(instrumentId: number, sinceIso: string): Promise<HistoryRow[]>;
  /** The newest strategy signals, newest first. */
  recentSignals(limit: number): Promise<SignalRow[]>;
  /** `history_candles(instrument, resolution)`: Pro and Enterprise (PT403 `pro_required`). */
  candles(instrumentId: number, resolution: CandleResolution): Promise<CandleRow[]>;
  /** `history_insights(instrument)`: the comparison and the analytics (Pro and Enterprise). */
  insights(instrumentId: number): Promise<Json | null>;
  /** `history_compare(instruments, range)`: 2–4 instruments normalised (Pro and Enterprise). */
  compare(instrumentIds: number[], range: CompareRange): Promise<ComparedRow[]>;
  /**
   * Joins the private channel `market:movers:<window>`. Resolves once joined; rejects with a
   * 403 when the join is refused and a 503 when Realtime does not answer in time.
   */
  joinMovers(
    windowMinutes: number,
    handlers: MoversHandlers,
    timeoutMs: number,
  ): Promise<MoversSubscription>;
}

export type MarketDbFactory = (env: Env, accessToken: string) => MarketDb;

/** The caller-scoped client: publishable/anon key as apikey, the caller's token as bearer. */
export function createCallerClient(
  env: Env,
  accessToken: string,
  fetchImpl?: typeof fetch,
): Db {
  return userClient(env, accessToken, {
    code: API_NOT_CONFIGURED,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

/** The caller as `session_caller()` (and `movers_stream_open`'s `caller`) returns it. */
interface SessionCallerRow {
  id?: unknown;
  plan?: unknown;
  subscription_active?: unknown;
  banned?: unknown;
  selected_window_minutes?: unknown;
}

/**
 * A refused caller-scoped RPC that means "no session": no, an invalid or an expired token, or an
 * anonymous key (no execute grant).
 */
function isNoSession(error: { code?: string | null }, status: number): boolean {
  return status === 401 || /^PGRST30[0-3]$/.test(error.code ?? "") || error.code === "42501";
}

function callerFromRow(row: SessionCallerRow | null | undefined): Caller | null {
  if (!row) return null;
  return {
    id: String(row.id),
    plan: isPlanId(row.plan) ? row.plan : "none",
    subscriptionActive: row.subscription_active === true,
    banned: row.banned === true,
    selectedWindowMinutes: Number(row.selected_window_minutes),
  };
}

export function supabaseMarketDb(
  client: Db,
  accessToken: string,
  hub: () => RealtimeHub,
): MarketDb {
  return {
    async caller() {
      const { data, error } = await client.auth.getUser(accessToken);
      if (error) {
        // 4xx: the token is invalid, expired, or its user or session is gone.
        if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
          return null;
        }
        if (error.name === "AuthSessionMissingError") return null;
        throw error;
      }
      const profile = await client
        .from("profiles")
        .select("id, plan, subscription_active, banned, selected_window_minutes")
        .eq("id", data.user.id)
        .maybeSingle();
      if (profile.error) {
        throwDbError("reading the profile", profile.error, { status: profile.status });
      }
      return callerFromRow(profile.data);
    },

    async sessionCaller() {
      const { data, error, status } = await client.rpc("session_caller");
      if (error) {
        if (isNoSession(error, status)) return null;
        throwDbError("session_caller", error, { status });
      }
      return callerFromRow(data as SessionCallerRow | null);
    },

    async openMovers(windowMinutes) {
      const { data, error, status } = await client.rpc(
        "movers_stream_open",
        windowMinutes === null ? {} : { window_minutes: windowMinutes },
      );
      if (error) {
        if (isNoSession(error, status)) {
          return { caller: null, windowMinutes, rows: [], refusal: null };
        }
        throwDbError("movers_stream_open", error, { status });
      }
      const opened = (data ?? {}) as {
        caller?: SessionCallerRow | null;
        window?: unknown;
        feed?: unknown;
        error?: DbError | null;
      };
      const caller = callerFromRow(opened.caller);
      if (!caller) return { caller: null, windowMinutes, rows: [], refusal: null };
      const window = typeof opened.window === "number" ? opened.window : windowMinutes;
      let refusal: Error | null = null;
      if (opened.error) {
        refusal = httpErrorFromDb(opened.error, { plan: caller.plan, windowMinutes: window }) ??
          new Error(
            `[api] movers_feed failed: ${opened.error.code ?? "?"} ${opened.error.message ?? ""}`
              .trim(),
          );
      }
      const rows = Array.isArray(opened.feed) ? opened.feed as MoversFeedRow[] : [];
      return { caller, windowMinutes: window, rows, refusal };
    },

    async moversFeed(windowMinutes, ctx = {}) {
      const { data, error, status } = await client.rpc(
        "movers_feed",
        windowMinutes === null ? {} : { window_minutes: windowMinutes },
      );
      if (error) throwDbError("movers_feed", error, { ...ctx, windowMinutes, status });
      return data ?? [];
    },

    async instruments(symbol, exchange) {
      let query = client.from("instruments").select("id, symbol, exchange").eq("symbol", symbol);
      if (exchange !== undefined) query = query.eq("exchange", exchange);
      const { data, error, status } = await query.order("id", { ascending: true }).limit(100);
      if (error) throwDbError("reading instruments", error, { status });
      return (data ?? []).map((r) => ({
        id: Number(r.id),
        symbol: String(r.symbol),
        exchange: String(r.exchange),
      }));
    },

    async priceHistory(instrumentId, sinceIso) {
      // The database serves the caller's resolution of the last 3 hours (decision 0016).
      const { rows, error, status } = await readPlanPriceHistory(client, instrumentId);
      if (error) throwDbError("reading price history", error, { status });
      const since = Date.parse(sinceIso);
      return rows.filter((row) => !(Date.parse(row.ts) < since));
    },

    async recentSignals(limit) {
      const { data, error, status } = await client
        .from("strategy_signals")
        .select(SIGNAL_COLUMNS)
        .order("computed_at", { ascending: false })
        .order("id", { ascending: false })
        .limit(limit);
      if (error) throwDbError("reading strategy signals", error, { status });
      return data ?? [];
    },

    async candles(instrumentId, resolution) {
      const { data, error, status } = await client.rpc("history_candles", {
        instrument: instrumentId,
        resolution,
      });
      if (error) throwDbError("history_candles", error, { status });
      return data ?? [];
    },

    async insights(instrumentId) {
      const { data, error, status } = await client.rpc("history_insights", {
        instrument: instrumentId,
      });
      if (error) throwDbError("history_insights", error, { status });
      return data ?? null;
    },

    async compare(instrumentIds, range) {
      const { data, error, status } = await client.rpc("history_compare", {
        instruments: instrumentIds,
        range,
      });
      if (error) throwDbError("history_compare", error, { status });
      return data ?? [];
    },

    async joinMovers(windowMinutes, handlers, timeoutMs) {
      // The caller's plan and window were checked by movers_feed with their token; the channel
      // is shared by every stream of this instance (one Realtime connection, decision 0026).
      const sub = await hub().subscribe(moversTopic(windowMinutes), {
        onMessage(message) {
          if (message.event === MOVERS_EVENT) handlers.onMovers(message.payload);
        },
        onEnd: handlers.onEnd,
      }, timeoutMs);
      return {
        leave() {
          sub.close();
          return Promise.resolve();
        },
      };
    },
  };
}

export const defaultMarketDb: MarketDbFactory = (env, accessToken) =>
  supabaseMarketDb(createCallerClient(env, accessToken), accessToken, () => sharedHub(env));
