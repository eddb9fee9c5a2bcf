// An in-memory MarketDb for the /api unit tests (test support only). It keeps the database's
// rules that the routes rely on: movers_feed refuses non-subscribers and windows the plan does
// not offer with PT403 (as migration 20261121001300 does), the market tables show nothing to a
// non-subscriber (RLS), and a Realtime join is refused unless the plan offers the window.
import type { Json } from "../_shared/database.types.ts";
import { isWindowAllowed } from "../_shared/domain/plans.ts";
import type { Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { type DbError, throwDbError } from "./errors.ts";
import type {
  Caller,
  CandleRow,
  HistoryRow,
  InstrumentRow,
  MarketDb,
  MarketDbFactory,
  MoversFeedRow,
  MoversHandlers,
  SignalRow,
} from "./market-db.ts";
import type { Fields } from "./shapes.ts";

/**
 * A test seeds rows with only the fields it needs, numerics sometimes as strings (PostgREST's
 * `numeric`), which the mappers accept; the fake hands them to the routes as the port's row
 * types. This is the file's one cast.
 */
const asRows = <T>(rows: readonly Fields<T>[]): T[] => rows as T[];

export interface FakeJoin {
  token: string;
  window: number;
  handlers: MoversHandlers;
  left: boolean;
}

export class FakeMarket {
  readonly callers = new Map<string, Caller>();
  /** movers_feed rows per window, strongest first. */
  readonly feeds = new Map<number, Fields<MoversFeedRow>[]>();
  readonly instrumentRows: InstrumentRow[] = [];
  readonly history = new Map<number, HistoryRow[]>();
  signals: Fields<SignalRow>[] = [];
  /** history_candles rows per `<instrument id>:<resolution>`. */
  readonly candleRows = new Map<string, Fields<CandleRow>[]>();
  /** history_insights' jsonb per instrument id. */
  readonly insightRows = new Map<number, Json>();
  /** history_compare's points per instrument id (`[epoch ms, %]`). */
  readonly comparePoints = new Map<number, [number, number][]>();
  /** Every call the routes made, with the token it carried. */
  readonly calls: { token: string; call: string; args: unknown[] }[] = [];
  readonly joins: FakeJoin[] = [];
  /** Makes the next database read fail with this PostgREST error. */
  failNext: DbError | null = null;
  /** How the next Realtime join answers (default: by the plan's windows). */
  nextJoin: "timeout" | "refuse" | null = null;

  addCaller(caller: Partial<Caller> & { id: string }, token = `token-${caller.id}`): string {
    this.callers.set(token, {
      plan: "none",
      subscriptionActive: false,
      banned: false,
      selectedWindowMinutes: 30,
      ...caller,
    });
    return token;
  }

  get factory(): MarketDbFactory {
    return (_env: Env, token: string) => this.db(token);
  }

  joinsOf(window: number): FakeJoin[] {
    return this.joins.filter((j) => j.window === window);
  }

  /** Delivers a `movers` broadcast to every joined channel of `window`. */
  broadcast(window: number, payload: unknown): void {
    for (const j of this.joinsOf(window)) if (!j.left) j.handlers.onMovers(payload);
  }

  #check(token: string, call: string, args: unknown[]) {
    this.calls.push({ token, call, args });
    const fail = this.failNext;
    if (fail) {
      this.failNext = null;
      throwDbError(call, fail);
    }
  }

  #subscriber(token: string): Caller | null {
    const c = this.callers.get(token);
    return c && c.plan !== "none" && c.subscriptionActive && !c.banned ? c : null;
  }

  /** As private.require_pro_plan(): PT403, with detail `pro_required` for an active Basic plan. */
  #requirePro(token: string, call: string) {
    const caller = this.#subscriber(token);
    if (!caller) {
      throwDbError(call, { code: "PT403", message: "Active subscription required" });
    }
    if (caller.plan !== "pro" && caller.plan !== "enterprise") {
      throwDbError(call, {
        code: "PT403",
        message: "The Pro plan is required",
        details: "pro_required",
      });
    }
  }

  #requireInstrument(call: string, id: number) {
    if (!this.instrumentRows.some((i) => i.id === id)) {
      throwDbError(call, { code: "PT404", message: "No such instrument" });
    }
  }

  db(token: string): MarketDb {
    const db: MarketDb = {
      caller: () => Promise.resolve(this.callers.get(token) ?? null),
      sessionCaller: () => {
        this.calls.push({ token, call: "sessionCaller", args: [] });
        return Promise.resolve(this.callers.get(token) ?? null);
      },
      openMovers: async (windowMinutes) => {
        // As movers_stream_open: the caller, then movers_feed's rows or its refusal.
        this.calls.push({ token, call: "openMovers", args: [windowMinutes] });
        const caller = this.callers.get(token) ?? null;
        if (!caller) return { caller: null, windowMinutes, rows: [], refusal: null };
        const w = windowMinutes ?? caller.selectedWindowMinutes;
        try {
          const rows = await db.moversFeed(w, { plan: caller.plan });
          return { caller, windowMinutes: w, rows, refusal: null };
        } catch (err) {
          if (!(err instanceof Error)) throw err;
          // A failure that is not a refusal (failNext with a 500) fails the request itself.
          if (!(err instanceof HttpError)) throw err;
          return { caller, windowMinutes: w, rows: [], refusal: err };
        }
      },
      moversFeed: (windowMinutes, ctx = {}) => {
        this.#check(token, "moversFeed", [windowMinutes]);
        const caller = this.#subscriber(token);
        if (!caller) {
          throwDbError("movers_feed", { code: "PT403", message: "Active subscription required" });
        }
        const w = windowMinutes ?? caller.selectedWindowMinutes;
        if (!isWindowAllowed(caller.plan, w)) {
          throwDbError("movers_feed", {
            code: "PT403",
            message: `The ${caller.plan} plan does not offer a ${w} minute window`,
          }, { ...ctx, windowMinutes: w });
        }
        return Promise.resolve(
          asRows<MoversFeedRow>((this.feeds.get(w) ?? []).map((r) => ({ ...r, window_used: w }))),
        );
      },
      instruments: (symbol, exchange) => {
        this.#check(token, "instruments", [symbol, exchange]);
        if (!this.#subscriber(token)) return Promise.resolve([]);
        return Promise.resolve(
          this.instrumentRows
            .filter((i) =>
              i.symbol === symbol && (exchange === undefined || i.exchange === exchange)
            )
            .sort((a, b) => a.id - b.id),
        );
      },
      priceHistory: (instrumentId, sinceIso) => {
        this.#check(token, "priceHistory", [instrumentId, sinceIso]);
        if (!this.#subscriber(token)) return Promise.resolve([]);
        const since = Date.parse(sinceIso);
        return Promise.resolve(
          (this.history.get(instrumentId) ?? [])
            .filter((r) => Date.parse(r.ts) >= since)
            .sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts)),
        );
      },
      recentSignals: (limit) => {
        this.#check(token, "recentSignals", [limit]);
        if (!this.#subscriber(token)) return Promise.resolve([]);
        return Promise.resolve(asRows<SignalRow>(this.signals.slice(0, limit)));
      },
      candles: (instrumentId, resolution) => {
        this.#check(token, "candles", [instrumentId, resolution]);
        this.#requirePro(token, "history_candles");
        this.#requireInstrument("history_candles", instrumentId);
        return Promise.resolve(
          asRows<CandleRow>(this.candleRows.get(`${instrumentId}:${resolution}`) ?? []),
        );
      },
      insights: (instrumentId) => {
        this.#check(token, "insights", [instrumentId]);
        this.#requirePro(token, "history_insights");
        this.#requireInstrument("history_insights", instrumentId);
        return Promise.resolve(this.insightRows.get(instrumentId) ?? null);
      },
      compare: (instrumentIds, range) => {
        this.#check(token, "compare", [instrumentIds, range]);
        this.#requirePro(token, "history_compare");
        return Promise.resolve(
          instrumentIds.map((id) => {
            const i = this.instrumentRows.find((r) => r.id === id)!;
            return {
              instrument_id: id,
              symbol: i.symbol,
              exchange: i.exchange,
              points: this.comparePoints.get(id) ?? [],
            };
          }),
        );
      },
      joinMovers: (windowMinutes, handlers, timeoutMs) => {
        this.calls.push({ token, call: "joinMovers", args: [windowMinutes, timeoutMs] });
        const how = this.nextJoin;
        this.nextJoin = null;
        const caller = this.#subscriber(token);
        if (how === "timeout") {
          return Promise.reject(
            // As the hub answers once its bounded retries are spent (realtime-hub.ts).
            new HttpError(503, "realtime_unavailable", "The live stream is unavailable.", {
              "Retry-After": "5",
            }),
          );
        }
        if (how === "refuse" || !caller || !isWindowAllowed(caller.plan, windowMinutes)) {
          return Promise.reject(
            new HttpError(403, "stream_refused", `market:movers:${windowMinutes} was refused`),
          );
        }
        const join: FakeJoin = { token, window: windowMinutes, handlers, left: false };
        this.joins.push(join);
        return Promise.resolve({
          leave: () => {
            join.left = true;
            return Promise.resolve();
          },
        });
      },
    };
    return db;
  }
}

/** A movers_feed row (snake_case, numerics as PostgREST may send them). */
export function feedRow(over: Fields<MoversFeedRow> = {}): Fields<MoversFeedRow> {
  return {
    id: 11,
    instrument_id: 7,
    symbol: "PEPE/USDT",
    exchange: "Binance",
    exchange_type: "cex",
    network: null,
    source: "binance",
    pool_url: null,
    price: "0.0000123",
    price_3hour_ago: 0.00001,
    pct: 23.5,
    window_used: 30,
    pct_3hour: "23",
    volume_24h: 2500000,
    ts: "2026-11-21T10:00:00+00:00",
    quoted_at: "2026-11-21T09:59:58.5+00:00",
    volume_24h_usd: 2500000,
    liquidity_usd: null,
    spread_pct: "0.012",
    thin: false,
    confirmed_on: ["Coinbase"],
    flags: [],
    trust_score: 74,
    asset: "PEPE",
    pool_name: null,
    confirmed_at: "2026-11-21T09:59:59.5+00:00",
    ...over,
  };
}
