// Coinbase: every spot product with its last price and 24 h volume in one call, from the
// Advanced Trade API's public market endpoint (no key needed; 10 requests per second per IP).
import type { Quote } from "../domain/market.ts";
import { Backoff, getJson, isRecord, requestContext, toNumber, type VenueOptions } from "./http.ts";
import {
  type FetchQuotesOptions,
  type FetchQuotesResult,
  type MarketAdapter,
  MarketSourceError,
} from "./types.ts";

export const COINBASE_PRODUCTS_URL =
  "https://api.coinbase.com/api/v3/brokerage/market/products?product_type=SPOT";
export const COINBASE_QUOTES: ReadonlySet<string> = new Set(["USD", "USDC", "USDT"]);

export function coinbaseTradeUrl(productId: string): string {
  return `https://www.coinbase.com/advanced-trade/spot/${productId}`;
}

/**
 * Maps the product list. Products that are not tradable spot markets in a dollar quote are left
 * out, as are aliases (`BTC-USDC` trades on the `BTC-USD` book since Coinbase unified USD and
 * USDC); rows with a missing or zero price or volume are skipped and counted.
 */
export function parseCoinbaseProducts(
  body: unknown,
  now: Date,
): { quotes: Quote[]; skipped: number } {
  if (!isRecord(body) || !Array.isArray(body.products)) {
    throw new MarketSourceError("coinbase", "parse", "market/products did not return products");
  }
  const ts = now.toISOString();
  const quotes: Quote[] = [];
  let skipped = 0;
  for (const row of body.products) {
    if (!isRecord(row) || typeof row.product_id !== "string") {
      skipped++;
      continue;
    }
    if (row.product_type !== undefined && row.product_type !== "SPOT") continue;
    if (String(row.status ?? "").toLowerCase() !== "online") continue;
    if (row.trading_disabled === true || row.is_disabled === true || row.view_only === true) {
      continue;
    }
    if (typeof row.alias === "string" && row.alias !== "") continue;
    const match = /^([A-Z0-9]{1,20})-([A-Z0-9]{2,10})$/.exec(row.product_id);
    if (!match) {
      skipped++;
      continue;
    }
    const base = typeof row.base_currency_id === "string" && row.base_currency_id
      ? row.base_currency_id
      : match[1]!;
    const quote = typeof row.quote_currency_id === "string" && row.quote_currency_id
      ? row.quote_currency_id
      : match[2]!;
    if (!COINBASE_QUOTES.has(quote)) continue;
    const price = toNumber(row.price);
    // volume_24h is in the base asset; the quote-currency figure is the comparable one.
    const baseVolume = toNumber(row.volume_24h);
    const quoteVolume = toNumber(row.approximate_quote_24h_volume) ??
      (price !== null && baseVolume !== null ? price * baseVolume : null);
    if (price === null || price <= 0 || quoteVolume === null || quoteVolume <= 0) {
      skipped++;
      continue;
    }
    quotes.push({
      symbol: `${base}/${quote}`,
      exchange: "Coinbase",
      exchangeType: "cex",
      network: null,
      source: "coinbase",
      selection: "coinbase",
      poolUrl: coinbaseTradeUrl(row.product_id),
      price,
      volume24h: quoteVolume,
      ts,
    });
  }
  return { quotes, skipped };
}

export function createCoinbaseAdapter(venue: VenueOptions = {}): MarketAdapter {
  const backoff = new Backoff();
  return {
    source: "coinbase",
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const ctx = requestContext("coinbase", backoff, venue, opts);
      const paused = backoff.activeAt(ctx.now());
      if (paused) return { quotes: [], skipped: 0, source: "coinbase", backoffUntil: paused };
      const answer = await getJson(ctx, COINBASE_PRODUCTS_URL);
      if (!answer.ok) {
        return { quotes: [], skipped: 0, source: "coinbase", backoffUntil: answer.backoffUntil };
      }
      return { ...parseCoinbaseProducts(answer.body, ctx.now()), source: "coinbase" };
    },
  };
}
