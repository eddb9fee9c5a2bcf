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

export interface FetchQuotesResult {
  quotes: Quote[];
  /** Rows the venue sent that could not be used (malformed, zero price or volume). */
  skipped: number;
  source: MarketSource;
  /**
   * Set while the venue asked us to back off (HTTP 429, or 418 at Binance): ISO time before which
   * the adapter does not call it again. `quotes` is empty then.
   */
  backoffUntil?: string;
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

export type MarketFailure = "network" | "timeout" | "http" | "parse";

/** A venue could not be read; the scan reports it and carries on with the other venues. */
export class MarketSourceError extends Error {
  constructor(
    readonly source: MarketSource,
    readonly kind: MarketFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "MarketSourceError";
  }
}
