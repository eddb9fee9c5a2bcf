// The /api compatibility layer (specification section 7), routed with Hono. It is served at
// /functions/v1/api/* and, by the gateway, at /api/*. It is a thin translation onto the
// database's rules: every market call is made with the CALLER's access token (never the
// service role), so RLS, movers_feed's plan checks and the Realtime join policy decide.
//
// Routes (all market routes: GET, `Authorization: Bearer <user access token>`):
//   GET /api/health                      200 { status: "ok", time, sources: [source health] }
//                                        (no token needed; "degraded" when sources are unreadable)
//   GET /api/gainers/recent[?window=m]   200 [gainer]: movers_feed(window), the window's 100
//                                        strongest (default: the caller's selected window)
//   GET /api/gainers/history/{symbol}    200 [{ ts, price }], the last 3 hours, oldest first
//       [?exchange=<venue>]
//   GET /api/gainers/analysis/{symbol}   200 { symbol, exchange, enoughData: true, trend, ... }
//       [?exchange=<venue>]              or 200 { symbol, exchange, enoughData: false,
//                                        dataPoints, message: "Not enough data for analysis" }
//   GET /api/signals/recent[?limit=n]    200 [signal], newest first (default 200, at most 500)
//   GET /api/sse[?window=m]              text/event-stream: `: connected`, `event: connected`,
//                                        then one `data: <gainer>` per entry of each scan of the
//                                        window (Realtime market:movers:<window>), `: keep-alive`
//                                        every 25 s; `event: error` then close if the channel ends.
//                                        Plan and window are checked (movers_feed) and the channel
//                                        joined before the 200, so refusals are JSON. The stream
//                                        lasts at most as long as the platform lets a function run;
//                                        clients reconnect (`retry: 5000`).
// A symbol may be sent encoded (BTC%2FUSDT) or as is (BTC/USDT). A symbol on several venues
// without ?exchange= means the venue of its strongest entry in the caller's current list, else
// the oldest instrument.
//
// Errors `{ error, message }`: 400 invalid_request (bad query or symbol); 401 unauthorized
// (no or invalid token; the publishable key alone is not a login); 403 subscription_required
// (no active paid plan), banned, window_not_allowed (names the plan's windows), stream_refused;
// 404 unknown_symbol / not_found; 405 method_not_allowed; 503 realtime_unavailable (/sse join
// timed out); 500 otherwise. Cookie sessions (/api/auth/*) are not served yet.
import { functionApp } from "../_shared/app.ts";
import { denoEnv } from "../_shared/env.ts";
import { type SourceHealthReader, supabaseSourceHealth } from "./health.ts";
import { type MarketDeps, marketRoutes } from "./market.ts";

export interface ApiDeps extends MarketDeps {
  /** Each market source's state; default: `source_health` read with the publishable key. */
  sourceHealth?: SourceHealthReader;
}

export function createApiApp(deps: ApiDeps = {}) {
  const app = functionApp("api");
  const readHealth = deps.sourceHealth ?? supabaseSourceHealth(deps.env ?? denoEnv);
  app.get("/health", async (c) => {
    const time = new Date().toISOString();
    try {
      return c.json({ status: "ok", time, sources: await readHealth() });
    } catch (err) {
      console.warn(`[api] source health unreadable: ${err instanceof Error ? err.message : err}`);
      return c.json({ status: "degraded", time, sources: [] });
    }
  });
  app.route("/", marketRoutes(deps));
  return app;
}

export default createApiApp();
