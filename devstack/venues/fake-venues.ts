// Fake Binance, Coinbase and GeckoTerminal servers for the local stack, the tests and the bench
// (decision 0054). Each venue listens on a port of its own and serves the endpoints the scan's
// adapters call, in the recorded real payload shapes (tests/fixtures/market), with prices that
// move every second and the venue's own timestamps (Binance `closeTime`/`E`, Coinbase
// `timestamp`, the HTTP `Date` header). They apply the documented limits per client IP:
// Binance request weight per minute with `X-MBX-USED-WEIGHT-1M`, 429 then 418 with
// `Retry-After`; Coinbase's 10 requests a second and GeckoTerminal's 30 calls a minute with 429.
// Binance's `!miniTicker@arr` stream and Coinbase's `ticker` + `heartbeats` channels are served
// over WebSocket and dropped now and then, as real streams are.
import http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { FakeMarket, priceText, type MarketOptions } from "./market.ts";
import {
  BINANCE_ROUTE_WEIGHTS,
  COINBASE_REQUESTS_PER_SECOND,
  GECKOTERMINAL_CALLS_PER_MINUTE,
  SlidingLimiter,
  type Verdict,
  WeightLimiter,
} from "./limits.ts";

export type FakeVenue = "binance" | "coinbase" | "dex";
export const FAKE_VENUES: readonly FakeVenue[] = ["binance", "coinbase", "dex"];

export interface FakeVenuesOptions extends MarketOptions {
  host?: string;
  /** Each venue's port (default 0: a free one). */
  ports?: Partial<Record<FakeVenue, number>>;
  /** The venues' clock in ms (tests move it by hand); default `Date.now`. */
  now?: () => number;
  /** Prices move (and streams push) every this many ms; default 1000, 0: only on `tick()`. */
  tickMs?: number;
  /** Limits (default the documented ones). */
  limits?: { binanceWeight?: number; coinbasePerSecond?: number; geckoPerMinute?: number };
  /** Each stream is dropped after a random 0.5–1.5 × this many ms (default 60 s; 0: never). */
  streamDropEveryMs?: number;
  log?: (line: string) => void;
}

export interface FakeVenues {
  urls: Record<FakeVenue, string> & { binanceWs: string; coinbaseWs: string };
  /** What the scan reads: `BINANCE_API_URL`, `COINBASE_API_URL`, `GECKOTERMINAL_API_URL`, `*_WS_URL`. */
  env: Record<string, string>;
  /** Requests answered per venue (any status). */
  readonly requests: Record<FakeVenue, number>;
  market: FakeMarket;
  /** Every REST answer of `venue` waits `ms` first (0: answer at once): a venue that stalls. */
  stall(venue: FakeVenue, ms: number): void;
  /** While true, stream connections are refused (503): a venue whose streams are down. */
  refuseStreams(refuse: boolean): void;
  /** Drops every open stream of `venue` (or of both) now; returns how many sockets were cut. */
  dropStreams(venue?: "binance" | "coinbase"): number;
  /** Moves the prices once and pushes the streams. */
  tick(): void;
  stop(): Promise<void>;
}

type Json = Record<string, unknown>;

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json;charset=UTF-8",
    "content-length": String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function ipOf(req: http.IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

export async function startFakeVenues(opts: FakeVenuesOptions = {}): Promise<FakeVenues> {
  const host = opts.host ?? "127.0.0.1";
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const market = new FakeMarket(now(), opts);
  const delays: Record<FakeVenue, number> = { binance: 0, coinbase: 0, dex: 0 };
  const requests: Record<FakeVenue, number> = { binance: 0, coinbase: 0, dex: 0 };
  const weights = new WeightLimiter(opts.limits?.binanceWeight);
  const coinbaseRate = new SlidingLimiter(
    opts.limits?.coinbasePerSecond ?? COINBASE_REQUESTS_PER_SECOND,
    1000,
  );
  const geckoRate = new SlidingLimiter(
    opts.limits?.geckoPerMinute ?? GECKOTERMINAL_CALLS_PER_MINUTE,
    60_000,
  );
  const timers = new Set<NodeJS.Timeout>();
  let refusing = false;
  const pending = new Set<() => void>();

  /** The venue's clock in the HTTP `Date` header (real venues send one; the adapters read it). */
  const dateHeader = () => ({ date: new Date(now()).toUTCString() });

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const done = () => {
        clearTimeout(t);
        timers.delete(t);
        pending.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      timers.add(t);
      pending.add(done);
    });

  // ---- Binance -----------------------------------------------------------------------------
  const binanceRows = (t: number): Json[] =>
    market.binance.map(({ row, walk, decimals }) => {
      if (!walk) return { ...row, closeTime: t, openTime: t - 86_400_000 };
      const last = priceText(walk.price, decimals);
      const change = walk.price - walk.open;
      return {
        ...row,
        priceChange: priceText(change, decimals),
        priceChangePercent: ((change / walk.open) * 100).toFixed(3),
        lastPrice: last,
        bidPrice: priceText(walk.price * 0.99995, decimals),
        askPrice: last,
        openPrice: priceText(walk.open, decimals),
        highPrice: priceText(walk.high, decimals),
        lowPrice: priceText(walk.low, decimals),
        openTime: t - 86_400_000,
        closeTime: t,
      };
    });

  async function binance(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const route = url.pathname as keyof typeof BINANCE_ROUTE_WEIGHTS;
    const weight = BINANCE_ROUTE_WEIGHTS[route];
    if (!weight) {
      return send(res, 404, { code: -1000, msg: "Unknown endpoint." }, dateHeader());
    }
    const symbol = url.searchParams.get("symbol");
    const verdict = weights.charge(ipOf(req), symbol ? weight.one : weight.all, now());
    const headers = { ...dateHeader(), "x-mbx-used-weight-1m": String(verdict.used) };
    if (verdict.status !== 200) {
      const msg =
        verdict.status === 418
          ? `Way too much request weight used; IP banned until ${now() + verdict.retryAfterSeconds * 1000}. Please use WebSocket Streams for live updates to avoid bans.`
          : `Too much request weight used; current limit is ${weights.limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`;
      return send(
        res,
        verdict.status,
        { code: -1003, msg },
        {
          ...headers,
          "retry-after": String(verdict.retryAfterSeconds),
        },
      );
    }
    await wait(delays.binance);
    const t = now();
    if (route === "/api/v3/ping") return send(res, 200, {}, headers);
    if (route === "/api/v3/time") return send(res, 200, { serverTime: t }, headers);
    if (route === "/api/v3/exchangeInfo") {
      return send(
        res,
        200,
        {
          timezone: "UTC",
          serverTime: t,
          rateLimits: [
            {
              rateLimitType: "REQUEST_WEIGHT",
              interval: "MINUTE",
              intervalNum: 1,
              limit: weights.limit,
            },
            { rateLimitType: "ORDERS", interval: "SECOND", intervalNum: 10, limit: 100 },
            { rateLimitType: "RAW_REQUESTS", interval: "MINUTE", intervalNum: 5, limit: 61000 },
          ],
          exchangeFilters: [],
          symbols: market.binance.map(({ row, walk }) => {
            const s = String(row.symbol);
            const quote = ["FDUSD", "USDT", "USDC", "BTC", "TRY"].find(
              (q) => s.endsWith(q) && s !== q,
            );
            return {
              symbol: s,
              status: walk ? "TRADING" : "BREAK",
              baseAsset: quote ? s.slice(0, -quote.length) : s,
              quoteAsset: quote ?? "",
              isSpotTradingAllowed: true,
              permissions: [],
              permissionSets: [["SPOT"]],
            };
          }),
        },
        headers,
      );
    }
    const rows = binanceRows(t);
    const pick = (list: Json[]) => {
      if (!symbol) return send(res, 200, list, headers);
      const one = list.find((r) => r.symbol === symbol);
      return one
        ? send(res, 200, one, headers)
        : send(res, 400, { code: -1121, msg: "Invalid symbol." }, headers);
    };
    if (route === "/api/v3/ticker/price") {
      return pick(rows.map((r) => ({ symbol: r.symbol, price: r.lastPrice })));
    }
    return pick(rows);
  }

  // ---- Coinbase ----------------------------------------------------------------------------
  const coinbaseRows = () =>
    market.coinbase.map(({ row, walk, decimals }) => {
      if (!walk) return row;
      const open = walk.open;
      return {
        ...row,
        price: priceText(walk.price, decimals),
        price_percentage_change_24h: (((walk.price - open) / open) * 100).toFixed(14),
      };
    });

  const limited = (res: http.ServerResponse, verdict: Verdict, body: unknown) =>
    send(res, 429, body, {
      ...dateHeader(),
      "retry-after": String("retryAfterSeconds" in verdict ? verdict.retryAfterSeconds : 1),
    });

  async function coinbase(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const verdict = coinbaseRate.charge(ipOf(req), now());
    if (verdict.status !== 200) {
      return limited(res, verdict, {
        error: "RATE_LIMIT_EXCEEDED",
        error_details: "Too many requests",
        message: "Too many requests",
      });
    }
    await wait(delays.coinbase);
    const t = now();
    if (url.pathname === "/api/v3/brokerage/time") {
      return send(
        res,
        200,
        {
          iso: new Date(t).toISOString(),
          epochSeconds: String(Math.floor(t / 1000)),
          epochMillis: String(t),
        },
        dateHeader(),
      );
    }
    if (url.pathname === "/api/v3/brokerage/market/products") {
      const type = url.searchParams.get("product_type");
      const products = coinbaseRows().filter((p) => !type || p.product_type === type);
      return send(res, 200, { products, num_products: products.length }, dateHeader());
    }
    return send(
      res,
      404,
      { error: "NOT_FOUND", error_details: "Not Found", message: "Not Found" },
      dateHeader(),
    );
  }

  // ---- GeckoTerminal -----------------------------------------------------------------------
  async function gecko(req: http.IncomingMessage, res: http.ServerResponse, url: URL) {
    const verdict = geckoRate.charge(ipOf(req), now());
    if (verdict.status !== 200) {
      return limited(res, verdict, {
        status: {
          error_code: 429,
          error_message:
            "You've exceeded the Rate Limit. Please visit https://www.coingecko.com/en/api/pricing to subscribe to our API plans for higher rate limits.",
        },
      });
    }
    await wait(delays.dex);
    const m = /^\/api\/v2\/networks\/([a-z0-9_-]+)\/trending_pools$/.exec(url.pathname);
    const page = Number(url.searchParams.get("page") ?? "1");
    const net = m ? market.dex.get(m[1]!) : undefined;
    if (!net) {
      return send(res, 404, { errors: [{ status: "404", title: "Not Found" }] }, dateHeader());
    }
    if (!Number.isInteger(page) || page < 1 || page > 10) {
      return send(
        res,
        400,
        { errors: [{ status: "400", title: "page must be between 1 and 10" }] },
        dateHeader(),
      );
    }
    // The recorded page, then its copies as other pools (decision 0091); past them, nothing.
    const rows = page === 1 ? net.pools : (net.more[page - 2] ?? []);
    const data = rows.map(({ row, walk }) => {
      if (!walk) return row;
      const attrs = row.attributes as Json;
      return {
        ...row,
        attributes: { ...attrs, base_token_price_usd: priceText(walk.price, 10) },
      };
    });
    const include = url.searchParams.get("include");
    return send(
      res,
      200,
      include ? { data, included: net.body.included ?? [] } : { data },
      dateHeader(),
    );
  }

  // ---- Streams -----------------------------------------------------------------------------
  const binanceWs = new WebSocketServer({ noServer: true });
  const coinbaseWs = new WebSocketServer({ noServer: true });
  const coinbaseSubs = new WeakMap<
    WebSocket,
    { tickers: Set<string> | null; heartbeats: boolean; seq: number; beats: number }
  >();
  const binanceCombined = new WeakMap<WebSocket, boolean>();

  const miniTickers = (t: number) =>
    market.binance
      .filter((b) => b.walk && b.walk.changedAt >= t - (opts.tickMs || 1000))
      .map(({ row, walk, decimals }) => ({
        e: "24hrMiniTicker",
        E: t,
        s: row.symbol,
        c: priceText(walk!.price, decimals),
        o: priceText(walk!.open, decimals),
        h: priceText(walk!.high, decimals),
        l: priceText(walk!.low, decimals),
        v: String(row.volume ?? "0"),
        q: String(row.quoteVolume ?? "0"),
      }));

  const cbTicker = (
    row: Json,
    walk: NonNullable<FakeMarket["coinbase"][number]["walk"]>,
    decimals: number,
  ) => ({
    type: "ticker",
    product_id: row.product_id,
    price: priceText(walk.price, decimals),
    volume_24_h: String(row.volume_24h ?? "0"),
    low_24_h: priceText(walk.low, decimals),
    high_24_h: priceText(walk.high, decimals),
    low_52_w: priceText(walk.low, decimals),
    high_52_w: priceText(walk.high, decimals),
    price_percent_chg_24_h: (((walk.price - walk.open) / walk.open) * 100).toFixed(14),
    best_bid: priceText(walk.price * 0.99995, decimals),
    best_bid_quantity: "1.00000000",
    best_ask: priceText(walk.price, decimals),
    best_ask_quantity: "1.00000000",
  });

  const cbMessage = (ws: WebSocket, channel: string, events: unknown[]) => {
    const sub = coinbaseSubs.get(ws)!;
    const body = {
      channel,
      client_id: "",
      timestamp: new Date(now()).toISOString(),
      sequence_num: sub.seq++,
      events,
    };
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(body));
  };

  const cbTickers = (filter: Set<string> | null, changedSince: number) =>
    market.coinbase
      .filter((c) => c.walk && c.walk.changedAt >= changedSince)
      .filter((c) => !filter || filter.has(String(c.row.product_id)))
      .map((c) => cbTicker(c.row, c.walk!, c.decimals));

  binanceWs.on("connection", (ws) => ws.on("error", () => ws.terminate()));
  coinbaseWs.on("connection", (ws) => {
    coinbaseSubs.set(ws, { tickers: null, heartbeats: false, seq: 0, beats: 0 });
    ws.on("error", () => ws.terminate());
    ws.on("message", (raw) => {
      let msg: Json;
      try {
        msg = JSON.parse(String(raw)) as Json;
      } catch {
        return cbMessage(ws, "error", [{ message: "Failed to parse message" }]);
      }
      const sub = coinbaseSubs.get(ws)!;
      const ids = Array.isArray(msg.product_ids) ? msg.product_ids.map(String) : [];
      if (msg.type !== "subscribe" && msg.type !== "unsubscribe") {
        return ws.send(JSON.stringify({ type: "error", message: "Failed to subscribe" }));
      }
      if (msg.channel === "heartbeats") sub.heartbeats = msg.type === "subscribe";
      else if (msg.channel === "ticker") {
        if (msg.type === "subscribe") {
          sub.tickers = new Set([...(sub.tickers ?? []), ...ids]);
          cbMessage(ws, "ticker", [{ type: "snapshot", tickers: cbTickers(sub.tickers, 0) }]);
        } else for (const id of ids) sub.tickers?.delete(id);
      } else {
        return ws.send(
          JSON.stringify({ type: "error", message: `Unknown channel ${String(msg.channel)}` }),
        );
      }
      cbMessage(ws, "subscriptions", [
        {
          subscriptions: {
            ...(sub.tickers?.size ? { ticker: [...sub.tickers] } : {}),
            ...(sub.heartbeats ? { heartbeats: ["heartbeats"] } : {}),
          },
        },
      ]);
    });
  });

  const push = () => {
    const t = now();
    const since = t - (opts.tickMs || 1000);
    const arr = miniTickers(t);
    for (const ws of binanceWs.clients) {
      if (ws.readyState !== WebSocket.OPEN || arr.length === 0) continue;
      ws.send(
        JSON.stringify(binanceCombined.get(ws) ? { stream: "!miniTicker@arr", data: arr } : arr),
      );
    }
    for (const ws of coinbaseWs.clients) {
      const sub = coinbaseSubs.get(ws);
      if (!sub || ws.readyState !== WebSocket.OPEN) continue;
      if (sub.tickers?.size) {
        const tickers = cbTickers(sub.tickers, since);
        if (tickers.length > 0) cbMessage(ws, "ticker", [{ type: "update", tickers }]);
      }
      if (sub.heartbeats) {
        cbMessage(ws, "heartbeats", [
          {
            current_time: new Date(t)
              .toISOString()
              .replace("T", " ")
              .replace("Z", "000000 +0000 UTC"),
            heartbeat_counter: ++sub.beats,
          },
        ]);
      }
    }
  };

  const dropStreams = (venue?: "binance" | "coinbase") => {
    let cut = 0;
    for (const [name, wss] of [
      ["binance", binanceWs],
      ["coinbase", coinbaseWs],
    ] as const) {
      if (venue && venue !== name) continue;
      for (const ws of wss.clients) {
        ws.terminate();
        cut++;
      }
    }
    if (cut > 0) log(`[venues] dropped ${cut} stream(s)${venue ? ` of ${venue}` : ""}`);
    return cut;
  };

  // ---- Servers -----------------------------------------------------------------------------
  const handlers: Record<FakeVenue, typeof binance> = { binance, coinbase, dex: gecko };
  const servers = {} as Record<FakeVenue, http.Server>;
  const urls = {} as Record<FakeVenue, string>;
  for (const venue of FAKE_VENUES) {
    const server = http.createServer((req, res) => {
      requests[venue]++;
      const url = new URL(req.url ?? "/", "http://venue");
      if (req.method !== "GET") {
        return send(res, 405, { error: "method_not_allowed", message: "GET only" }, dateHeader());
      }
      handlers[venue](req, res, url).catch((err: unknown) => {
        log(`[venues] ${venue}: ${(err as Error).message}`);
        if (!res.headersSent) send(res, 500, { error: "internal" }, dateHeader());
      });
    });
    server.on("upgrade", (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on("error", () => socket.destroy());
      const url = new URL(req.url ?? "/", "http://venue");
      if (refusing) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\n\r\n");
        return;
      }
      if (
        venue === "binance" &&
        (url.pathname === "/ws/!miniTicker@arr" || url.pathname === "/stream")
      ) {
        const combined = url.pathname === "/stream";
        if (combined && url.searchParams.get("streams") !== "!miniTicker@arr") {
          socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
          return;
        }
        binanceWs.handleUpgrade(req, socket, head, (ws) => {
          binanceCombined.set(ws, combined);
          binanceWs.emit("connection", ws, req);
        });
      } else if (venue === "coinbase" && url.pathname === "/") {
        coinbaseWs.handleUpgrade(req, socket, head, (ws) => coinbaseWs.emit("connection", ws, req));
      } else {
        socket.end("HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n");
      }
    });
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.ports?.[venue] ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const addr = server.address();
    urls[venue] = `http://${host}:${typeof addr === "object" && addr ? addr.port : 0}`;
    servers[venue] = server;
  }

  const tick = () => {
    market.move(now());
    push();
  };
  const tickMs = opts.tickMs ?? 1000;
  if (tickMs > 0) {
    const t = setInterval(tick, tickMs);
    t.unref();
    timers.add(t);
  }
  const dropEvery = opts.streamDropEveryMs ?? 60_000;
  const scheduleDrop = (venue: "binance" | "coinbase") => {
    if (dropEvery <= 0) return;
    const t = setTimeout(
      () => {
        timers.delete(t);
        dropStreams(venue);
        scheduleDrop(venue);
      },
      dropEvery * (0.5 + Math.random()),
    );
    t.unref();
    timers.add(t);
  };
  scheduleDrop("binance");
  scheduleDrop("coinbase");

  const ws = (u: string) => u.replace(/^http/, "ws");
  const all = {
    ...urls,
    binanceWs: ws(urls.binance),
    coinbaseWs: ws(urls.coinbase),
  };
  return {
    urls: all,
    env: {
      BINANCE_API_URL: urls.binance,
      COINBASE_API_URL: urls.coinbase,
      GECKOTERMINAL_API_URL: `${urls.dex}/api/v2`,
      BINANCE_WS_URL: all.binanceWs,
      COINBASE_WS_URL: all.coinbaseWs,
    },
    requests,
    market,
    stall: (venue, ms) => {
      delays[venue] = Math.max(0, ms);
    },
    refuseStreams: (refuse) => {
      refusing = refuse;
    },
    dropStreams,
    tick,
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const release of [...pending]) release();
      dropStreams();
      binanceWs.close();
      coinbaseWs.close();
      await Promise.all(
        Object.values(servers).map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}

/** `FAKE_VENUES=1` (or true/yes/on): the stack starts the fake venues and points the scan at them. */
export function fakeVenuesWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes|on)$/i.test(env.FAKE_VENUES?.trim() ?? "");
}

/**
 * The scan's settings with the fake venues on: each `*_API_URL` / `*_WS_URL` the environment does
 * not set points at the fake, and MARKET_SOURCES, when unset, names the three real venues.
 */
export function fakeVenueSettings(
  venues: Pick<FakeVenues, "env">,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(venues.env)) if (!env[name]) out[name] = value;
  if (!env.MARKET_SOURCES) out.MARKET_SOURCES = "binance,coinbase,dex";
  return out;
}
