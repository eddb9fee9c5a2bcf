// Binance spot: every symbol's 24 h ticker in one call (`GET /api/v3/ticker/24hr`, request
// weight 80 of the 6000 per minute an IP may use). Only pairs quoted in USDT, USDC or FDUSD are
// kept, so every price is in (a dollar stablecoin).
import { cexVenueKey, type Quote } from "../domain/market.ts";
import {
  Backoff,
  getJson,
  isRecord,
  requestContext,
  toNumber,
  venueBaseUrl,
  type VenueOptions,
} from "./http.ts";
import {
  type FetchQuotesOptions,
  type FetchQuotesResult,
  type MarketAdapter,
  MarketSourceError,
  NO_ROWS,
  quotesOrEmpty,
  type RowCounts,
} from "./types.ts";

/** The API's own base URL (`BINANCE_API_URL` overrides it). */
export const BINANCE_API = "https://api.binance.com";
export const BINANCE_TICKER_PATH = "/api/v3/ticker/24hr";
export const BINANCE_TICKER_URL = `${BINANCE_API}${BINANCE_TICKER_PATH}`;
/** Quote assets kept, longest first so `FDUSD` wins over a shorter suffix. */
export const BINANCE_QUOTES = ["FDUSD", "USDT", "USDC"] as const;

/** `BTCUSDT` → `["BTC", "USDT"]`; null when the pair is not quoted in a kept stablecoin. */
export function splitBinanceSymbol(symbol: string): [string, string] | null {
  for (const quote of BINANCE_QUOTES) {
    if (symbol.length > quote.length && symbol.endsWith(quote)) {
      return [symbol.slice(0, -quote.length), quote];
    }
  }
  return null;
}

/** The market page; non-ASCII symbols (`币安人生`) are percent-encoded, so the link is a valid URL. */
export function binanceTradeUrl(base: string, quote: string): string {
  return `https://www.binance.com/en/trade/${encodeURIComponent(base)}_${
    encodeURIComponent(quote)
  }?type=spot`;
}

/**
 * Maps the ticker list; rows of other quote assets are left out. Malformed rows are counted as
 * `skipped`; delisted or halted symbols (Binance keeps listing them, at a price of 0 or with no
 * trade in 24 h) as `inactive`.
 */
export function parseBinanceTickers(
  body: unknown,
  now: Date,
): { quotes: Quote[] } & RowCounts {
  if (!Array.isArray(body)) {
    throw new MarketSourceError("binance", "parse", "ticker/24hr did not return a list");
  }
  const quotes: Quote[] = [];
  let skipped = 0;
  let inactive = 0;
  for (const row of body) {
    if (!isRecord(row) || typeof row.symbol !== "string" || !/^[^\s/]{2,40}$/u.test(row.symbol)) {
      skipped++;
      continue;
    }
    const pair = splitBinanceSymbol(row.symbol);
    if (!pair) continue; // ETHBTC and the like: another quote asset, not an error
    const price = toNumber(row.lastPrice);
    const volume = toNumber(row.quoteVolume);
    if (price === null || price < 0 || volume === null || volume < 0) {
      skipped++;
      continue;
    }
    // Delisted or halted symbols report a zero price or no trades in 24 h.
    if (price === 0 || volume === 0) {
      inactive++;
      continue;
    }
    const closeTime = toNumber(row.closeTime);
    const [base, quote] = pair;
    quotes.push({
      venueKey: cexVenueKey("Binance", `${base}/${quote}`),
      symbol: `${base}/${quote}`,
      exchange: "Binance",
      exchangeType: "cex",
      network: null,
      source: "binance",
      selection: "cex-major",
      poolUrl: binanceTradeUrl(base, quote),
      price,
      volume24h: volume,
      ts: (closeTime !== null && closeTime > 0 ? new Date(closeTime) : now).toISOString(),
    });
  }
  return { quotes, skipped, inactive, illiquid: 0 };
}

export function createBinanceAdapter(venue: VenueOptions = {}): MarketAdapter {
  const backoff = new Backoff();
  return {
    source: "binance",
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const base = venueBaseUrl("binance", "BINANCE_API_URL", venue.baseUrl, BINANCE_API);
      const ctx = requestContext("binance", backoff, venue, opts);
      const paused = backoff.activeAt(ctx.now());
      if (paused) return { quotes: [], ...NO_ROWS, source: "binance", backoffUntil: paused };
      const answer = await getJson(ctx, `${base}${BINANCE_TICKER_PATH}`);
      if (!answer.ok) {
        return { quotes: [], ...NO_ROWS, source: "binance", backoffUntil: answer.backoffUntil };
      }
      const rows = parseBinanceTickers(answer.body, ctx.now());
      return quotesOrEmpty("binance", "ticker/24hr", rows, (answer.body as unknown[]).length);
    },
  };
}
