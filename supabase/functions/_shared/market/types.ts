// What every market adapter offers the scanner: one call that returns the venue's current quotes.
import type { MarketSource, Quote } from "../domain/market.ts";

export interface FetchQuotesOptions {
  /** The HTTP client (tests pass a fake); default the global `fetch`. */
  fetch?: typeof fetch;
  /** The clock; default `new Date()`. */
  now?: () => Date;
  /** Cancels the whole call (e.g. the scan request went away). */
  signal?: AbortSignal;
}

/** What a venue's rows came to besides quotes (each row is counted once, in the first that fits). */
export interface RowCounts {
  /** Malformed rows: not the documented shape (no symbol, a price that is not a number, …). */
  skipped: number;
  /**
   * Well-formed rows of instruments that do not trade: delisted or halted (Binance reports them
   * with a zero price or no trades in 24 h), disabled or not online (Coinbase), pools without a
   * price yet or at a price of zero.
   */
  inactive: number;
  /** DEX pools whose reserves are below the liquidity floor (`DEX_MIN_LIQUIDITY_USD`). */
  illiquid: number;
}

export interface FetchQuotesResult extends RowCounts {
  quotes: Quote[];
  source: MarketSource;
  /**
   * Set while the venue asked us to back off (HTTP 429, or 418 at Binance): ISO time before which
   * the adapter does not call it again. `quotes` is empty then.
   */
  backoffUntil?: string;
  /** The venue's clock minus ours, measured on this answer (`venueClock`); absent when unknown. */
  skewMs?: number;
}

/**
 * A stretch of a venue's past, compact: each instrument once, then one price (and 24 h volume)
 * per instrument per stamp. `prices[i][k]` is instrument i's price at `stamps[k]`.
 */
export interface HistoryBatch {
  instruments: Omit<Quote, "price" | "volume24h" | "ts" | "selection">[];
  stamps: string[];
  prices: number[][];
  volumes: (number | null)[][];
}

export interface MarketAdapter {
  readonly source: MarketSource;
  /**
   * A source that can replay its past (the simulated market) offers it, so a database with no
   * recent history gets the last hours at once instead of filling them scan by scan.
   */
  history?(range: { from: Date; to: Date }): HistoryBatch;
  /**
   * The venue's quotes now. Malformed rows are skipped and counted, never thrown; a failure of
   * the venue (network, timeout, HTTP error, unreadable body) throws a `MarketSourceError`.
   */
  fetchQuotes(opts?: FetchQuotesOptions): Promise<FetchQuotesResult>;
}

/**
 * `empty`: the answer had the right outer shape but no usable row (an empty list, only inactive
 * or malformed rows, rows of another endpoint). `config`: the venue's base URL setting is wrong.
 */
export type MarketFailure = "network" | "timeout" | "http" | "parse" | "empty" | "config";

/** A venue could not be read; the scan reports it and carries on with the other venues. */
export class MarketSourceError extends Error {
  /** What the rows came to, when the venue answered but nothing was usable (`empty`). */
  readonly counts?: RowCounts;
  constructor(
    readonly source: MarketSource,
    readonly kind: MarketFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown; counts?: RowCounts },
  ) {
    super(message, options);
    this.counts = options?.counts;
    this.name = "MarketSourceError";
  }
}

/** The counts of an answer with nothing in it (a paused venue). */
export const NO_ROWS: RowCounts = Object.freeze({ skipped: 0, inactive: 0, illiquid: 0 });

/**
 * The rows of one answer as the scan sees them: quotes, or, when no row was usable, a failure of
 * the source (`empty`) that still carries the counts.
 */
export function quotesOrEmpty(
  source: MarketSource,
  what: string,
  rows: { quotes: Quote[] } & RowCounts,
  received: number,
): FetchQuotesResult {
  if (rows.quotes.length === 0) {
    const { skipped, inactive, illiquid } = rows;
    throw new MarketSourceError(
      source,
      "empty",
      received === 0
        ? `${what} returned no rows`
        : `${what} returned ${received} rows and none usable (${skipped} malformed, ${inactive} inactive, ${illiquid} illiquid)`,
      undefined,
      { counts: { skipped, inactive, illiquid } },
    );
  }
  return { ...rows, source };
}
