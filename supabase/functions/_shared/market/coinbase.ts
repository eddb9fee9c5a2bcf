// Coinbase: every spot product with its last price and 24 h volume in one call, from the
// Advanced Trade API's public market endpoint (no key needed; 10 requests per second per IP).
import { cexVenueKey, type Quote } from "../domain/market.ts";
import { spreadPct } from "../domain/trust.ts";
import {
  Backoff,
  getJson,
  isRecord,
  requestContext,
  toNumber,
  venueBaseUrl,
  venueClock,
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

/** The API's own base URL (`COINBASE_API_URL` overrides it). */
export const COINBASE_API = "https://api.coinbase.com";
export const COINBASE_PRODUCTS_PATH = "/api/v3/brokerage/market/products?product_type=SPOT";
export const COINBASE_PRODUCTS_URL = `${COINBASE_API}${COINBASE_PRODUCTS_PATH}`;
export const COINBASE_QUOTES: ReadonlySet<string> = new Set(["USD", "USDC", "USDT"]);

export function coinbaseTradeUrl(productId: string): string {
  return `https://www.coinbase.com/advanced-trade/spot/${encodeURIComponent(productId)}`;
}

/**
 * Maps the product list. Products that are not spot markets in a dollar quote are left out, as
 * are aliases (`BTC-USDC` trades on the `BTC-USD` book since Coinbase unified USD and USDC).
 * Dollar-quoted products that do not trade (delisted, disabled, view-only, not online, in an
 * auction without a price yet, no volume in 24 h) are counted as `inactive`; malformed rows
 * (no product id, a price that is not a number) as `skipped`.
 */
export function parseCoinbaseProducts(
  body: unknown,
  now: Date,
): { quotes: Quote[] } & RowCounts {
  if (!isRecord(body) || !Array.isArray(body.products)) {
    throw new MarketSourceError("coinbase", "parse", "market/products did not return products");
  }
  const ts = now.toISOString();
  const quotes: Quote[] = [];
  let skipped = 0;
  let inactive = 0;
  for (const row of body.products) {
    if (!isRecord(row) || typeof row.product_id !== "string") {
      skipped++;
      continue;
    }
    if (row.product_type !== undefined && row.product_type !== "SPOT") continue;
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
    if (
      String(row.status ?? "").toLowerCase() !== "online" || row.trading_disabled === true ||
      row.is_disabled === true || row.view_only === true
    ) {
      inactive++;
      continue;
    }
    // An auction (a new listing) has no price yet: an empty text, not a malformed one.
    if (row.price === "" || row.price === null || row.price === undefined) {
      inactive++;
      continue;
    }
    const price = toNumber(row.price);
    // volume_24h is in the base asset; the quote-currency figure is the comparable one.
    const baseVolume = toNumber(row.volume_24h);
    const quoteVolume = toNumber(row.approximate_quote_24h_volume) ??
      (price !== null && baseVolume !== null ? price * baseVolume : null);
    if (price === null || price < 0 || quoteVolume === null || quoteVolume < 0) {
      skipped++;
      continue;
    }
    if (price === 0 || quoteVolume === 0) {
      inactive++;
      continue;
    }
    quotes.push({
      venueKey: cexVenueKey("Coinbase", `${base}/${quote}`),
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
      // Quote volume of a USD/USDC pair (or volume × price): dollars. The product list gives no
      // best bid and ask, so no spread; a row that carries them (the ticker's shape) gets one.
      volume24hUsd: quoteVolume,
      spreadPct: spreadPct(toNumber(row.best_bid), toNumber(row.best_ask)),
    });
  }
  return { quotes, skipped, inactive, illiquid: 0 };
}

export function createCoinbaseAdapter(venue: VenueOptions = {}): MarketAdapter {
  const backoff = new Backoff();
  return {
    source: "coinbase",
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const base = venueBaseUrl("coinbase", "COINBASE_API_URL", venue.baseUrl, COINBASE_API);
      const ctx = requestContext("coinbase", backoff, venue, opts);
      const paused = backoff.activeAt(ctx.now());
      if (paused) return { quotes: [], ...NO_ROWS, source: "coinbase", backoffUntil: paused };
      const answer = await getJson(ctx, `${base}${COINBASE_PRODUCTS_PATH}`);
      if (!answer.ok) {
        return { quotes: [], ...NO_ROWS, source: "coinbase", backoffUntil: answer.backoffUntil };
      }
      // The product list has no time of its own: its prices are the venue's at the answer.
      const { skewMs, venueNow } = venueClock(answer);
      const rows = parseCoinbaseProducts(answer.body, venueNow);
      const received = (answer.body as { products: unknown[] }).products.length;
      return {
        ...quotesOrEmpty("coinbase", "market/products", rows, received),
        ...(skewMs === null ? {} : { skewMs }),
      };
    },
  };
}
