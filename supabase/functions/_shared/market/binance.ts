// Binance spot. Prices come from the all-symbol price call (`GET /api/v3/ticker/price`, request
// weight 4); the all-symbol 24 h ticker (`GET /api/v3/ticker/24hr`, weight 80), which brings the
// 24 h volume and tells delisted and halted symbols apart, is read once a minute (default) and
// whenever nothing is known yet. At a call every 2 s that is 29 × 4 + 1 × 80 = 196 of the 6000
// weight a minute an IP may use, well inside the fifth (1200) we allow ourselves (decision 0033).
// Only pairs quoted in USDT, USDC or FDUSD are kept, so every price is in a dollar stablecoin.
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

/** The API's own base URL (`BINANCE_API_URL` overrides it). */
export const BINANCE_API = "https://api.binance.com";
export const BINANCE_TICKER_PATH = "/api/v3/ticker/24hr";
export const BINANCE_TICKER_URL = `${BINANCE_API}${BINANCE_TICKER_PATH}`;
export const BINANCE_PRICE_PATH = "/api/v3/ticker/price";
export const BINANCE_PRICE_URL = `${BINANCE_API}${BINANCE_PRICE_PATH}`;
/** Request weights of the two calls without a symbol (Binance spot REST market data). */
export const BINANCE_WEIGHTS = { price: 4, ticker24h: 80 } as const;
/** The request weight an IP may use per minute, and the share of it the scanner may spend. */
export const BINANCE_WEIGHT_PER_MINUTE = 6000;
export const BINANCE_WEIGHT_SHARE = 0.2;
/**
 * Every answer says in `X-MBX-USED-WEIGHT-1M` how much weight the IP has used this minute (ours
 * and anything else calling from that IP). Past this share of the limit the adapter stops calling
 * until the venue's next minute, so the IP never reaches the 429 (and the 418 ban after it).
 */
export const BINANCE_WEIGHT_HEADROOM = 0.9;
export const BINANCE_USED_WEIGHT_HEADER = "x-mbx-used-weight-1m";

/**
 * When the answer's used weight leaves no room for the heaviest call (the 24 h ticker) under
 * `BINANCE_WEIGHT_HEADROOM` of the limit: the start of the venue's next minute (epoch ms), when
 * Binance's one-minute window resets; else null (also when the header is absent or unreadable).
 */
export function binanceWeightPauseUntil(headers: Headers, venueNow: Date): number | null {
  const raw = headers.get(BINANCE_USED_WEIGHT_HEADER)?.trim();
  if (!raw || !/^\d+$/.test(raw)) return null;
  const used = Number(raw);
  const ceiling = BINANCE_WEIGHT_PER_MINUTE * BINANCE_WEIGHT_HEADROOM;
  if (used + BINANCE_WEIGHTS.ticker24h <= ceiling) return null;
  return (Math.floor(venueNow.getTime() / 60_000) + 1) * 60_000;
}

/** How often the 24 h ticker is read by default. */
export const BINANCE_FULL_TICKER_EVERY_MS = 60_000;

/** Request weight a minute at a price call every `cadenceSeconds` and a 24 h ticker every `fullEveryMs`. */
export function binanceWeightPerMinute(
  cadenceSeconds: number,
  fullEveryMs = BINANCE_FULL_TICKER_EVERY_MS,
): number {
  const calls = 60 / cadenceSeconds;
  const full = Math.min(calls, 60_000 / fullEveryMs);
  return Math.ceil((calls - full) * BINANCE_WEIGHTS.price + full * BINANCE_WEIGHTS.ticker24h);
}
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
    // The 24 h ticker carries the book's best bid and ask (as bookTicker does): the spread.
    const spread = spreadPct(toNumber(row.bidPrice), toNumber(row.askPrice));
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
      // Quote volume of a USDT/USDC/FDUSD pair: dollars.
      volume24hUsd: volume,
      spreadPct: spread,
    });
  }
  return { quotes, skipped, inactive, illiquid: 0 };
}

/**
 * Maps the price list (`[{ symbol, price }]`, no time and no volume) onto what the last 24 h
 * ticker said: a symbol it quoted gets its price now, stamped `venueNow` (the venue's clock at
 * the answer), with the 24 h volume of that ticker. A pair the ticker did not quote (delisted,
 * halted, listed since) is `inactive` until the next ticker; malformed rows are `skipped`.
 */
export function parseBinancePrices(
  body: unknown,
  known: ReadonlyMap<string, Quote>,
  venueNow: Date,
): { quotes: Quote[] } & RowCounts {
  if (!Array.isArray(body)) {
    throw new MarketSourceError("binance", "parse", "ticker/price did not return a list");
  }
  const ts = venueNow.toISOString();
  const quotes: Quote[] = [];
  let skipped = 0;
  let inactive = 0;
  for (const row of body) {
    if (!isRecord(row) || typeof row.symbol !== "string" || !/^[^\s/]{2,40}$/u.test(row.symbol)) {
      skipped++;
      continue;
    }
    if (!splitBinanceSymbol(row.symbol)) continue;
    const price = toNumber(row.price);
    if (price === null || price < 0) {
      skipped++;
      continue;
    }
    const last = known.get(row.symbol);
    if (!last || price === 0) {
      inactive++;
      continue;
    }
    quotes.push({ ...last, price, ts });
  }
  return { quotes, skipped, inactive, illiquid: 0 };
}

export interface BinanceAdapterOptions extends VenueOptions {
  /** How often the 24 h ticker (weight 80) is read; default once a minute. */
  fullTickerEveryMs?: number;
}

export function createBinanceAdapter(venue: BinanceAdapterOptions = {}): MarketAdapter {
  const backoff = new Backoff();
  const fullEvery = venue.fullTickerEveryMs ?? BINANCE_FULL_TICKER_EVERY_MS;
  // The last 24 h ticker's quotes by Binance symbol (volume, links), and when it was read.
  let known = new Map<string, Quote>();
  let fullAt = Number.NEGATIVE_INFINITY;
  return {
    source: "binance",
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const base = venueBaseUrl("binance", "BINANCE_API_URL", venue.baseUrl, BINANCE_API);
      const ctx = requestContext("binance", backoff, venue, opts);
      const now = ctx.now();
      const paused = backoff.activeAt(now);
      if (paused) return { quotes: [], ...NO_ROWS, source: "binance", backoffUntil: paused };
      const full = known.size === 0 || now.getTime() - fullAt >= fullEvery;
      const answer = await getJson(
        ctx,
        `${base}${full ? BINANCE_TICKER_PATH : BINANCE_PRICE_PATH}`,
      );
      if (!answer.ok) {
        return { quotes: [], ...NO_ROWS, source: "binance", backoffUntil: answer.backoffUntil };
      }
      const { skewMs, venueNow } = venueClock(answer);
      const skew = skewMs === null ? {} : { skewMs };
      // This answer is used; the next call waits if the IP is close to its weight limit.
      const pauseAt = binanceWeightPauseUntil(answer.headers, venueNow);
      if (pauseAt !== null) {
        // The venue's minute on our clock (the skew moved venueNow).
        const until = backoff.pauseUntil(
          pauseAt - (venueNow.getTime() - answer.receivedAt.getTime()),
        );
        console.warn(
          `[market] binance: ${
            answer.headers.get(BINANCE_USED_WEIGHT_HEADER)
          } of ${BINANCE_WEIGHT_PER_MINUTE} request weight used this minute; paused until ${until}`,
        );
      }
      const received = Array.isArray(answer.body) ? answer.body.length : 0;
      if (full) {
        const rows = parseBinanceTickers(answer.body, venueNow);
        const result = quotesOrEmpty("binance", "ticker/24hr", rows, received);
        known = new Map(result.quotes.map((q) => [binanceSymbolOf(q), q]));
        fullAt = now.getTime();
        return { ...result, ...skew };
      }
      const rows = parseBinancePrices(answer.body, known, venueNow);
      return { ...quotesOrEmpty("binance", "ticker/price", rows, received), ...skew };
    },
  };
}

/** `BTC/USDT` → `BTCUSDT`, the symbol as Binance spells it. */
function binanceSymbolOf(quote: Quote): string {
  return quote.symbol.replace("/", "");
}
