// Binance spot: every symbol's 24 h ticker in one call (`GET /api/v3/ticker/24hr`, request
// weight 80 of the 6000 per minute an IP may use). Only pairs quoted in USDT, USDC or FDUSD are
// kept, so every price is in (a dollar stablecoin).
import type { Quote } from "../domain/market.ts";
import { Backoff, getJson, isRecord, requestContext, toNumber, type VenueOptions } from "./http.ts";
import {
  type FetchQuotesOptions,
  type FetchQuotesResult,
  type MarketAdapter,
  MarketSourceError,
} from "./types.ts";

export const BINANCE_TICKER_URL = "https://api.binance.com/api/v3/ticker/24hr";
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

export function binanceTradeUrl(base: string, quote: string): string {
  return `https://www.binance.com/en/trade/${base}_${quote}?type=spot`;
}

/** Maps the ticker list; rows of other quote assets are left out, unusable rows counted. */
export function parseBinanceTickers(
  body: unknown,
  now: Date,
): { quotes: Quote[]; skipped: number } {
  if (!Array.isArray(body)) {
    throw new MarketSourceError("binance", "parse", "ticker/24hr did not return a list");
  }
  const quotes: Quote[] = [];
  let skipped = 0;
  for (const row of body) {
    if (!isRecord(row) || typeof row.symbol !== "string" || !/^[^\s/]{2,40}$/u.test(row.symbol)) {
      skipped++;
      continue;
    }
    const pair = splitBinanceSymbol(row.symbol);
    if (!pair) continue; // ETHBTC and the like: another quote asset, not an error
    const price = toNumber(row.lastPrice);
    const volume = toNumber(row.quoteVolume);
    // Delisted or halted symbols report a zero price or no trades in 24 h.
    if (price === null || price <= 0 || volume === null || volume <= 0) {
      skipped++;
      continue;
    }
    const closeTime = toNumber(row.closeTime);
    const [base, quote] = pair;
    quotes.push({
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
  return { quotes, skipped };
}

export function createBinanceAdapter(venue: VenueOptions = {}): MarketAdapter {
  const backoff = new Backoff();
  return {
    source: "binance",
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const ctx = requestContext("binance", backoff, venue, opts);
      const paused = backoff.activeAt(ctx.now());
      if (paused) return { quotes: [], skipped: 0, source: "binance", backoffUntil: paused };
      const answer = await getJson(ctx, BINANCE_TICKER_URL);
      if (!answer.ok) {
        return { quotes: [], skipped: 0, source: "binance", backoffUntil: answer.backoffUntil };
      }
      return { ...parseBinanceTickers(answer.body, ctx.now()), source: "binance" };
    },
  };
}
