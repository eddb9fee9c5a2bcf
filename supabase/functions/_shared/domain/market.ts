/**
 * The scanner's contract: what a market source delivers and what one scan ingests.
 *
 * Runtime-agnostic: imported by the edge functions (Deno), the SPA (alias `@domain`) and the
 * local stack. No Deno, Node or DOM globals, no dependencies.
 */

/** Where quotes come from. `simulated` is the offline default. */
export const MARKET_SOURCES = ["binance", "coinbase", "dex", "simulated"] as const;
export type MarketSource = (typeof MARKET_SOURCES)[number];

/**
 * A user's `selected_exchanges` (profiles) and the venues they stand for:
 * `cex-major` = Binance spot, `coinbase` = Coinbase, `dex` = DEX pools (GeckoTerminal /
 * DexScreener). Simulated instruments carry the venue they imitate.
 */
export const EXCHANGE_SELECTIONS = ["coinbase", "dex", "cex-major"] as const;
export type ExchangeSelection = (typeof EXCHANGE_SELECTIONS)[number];

/** The venue text Coinbase's instruments carry ("Coinbase", "Coinbase Advanced", …). */
const COINBASE_EXCHANGE = /^\s*coinbase\b/i;

/**
 * Which `selected_exchanges` value a stored instrument or mover belongs to, for rows that do not
 * keep `Quote.selection` (movers, the live list): a DEX pool is `dex`; Coinbase (by source, or
 * by exchange text for simulated rows) is `coinbase`; every other CEX (Binance) is `cex-major`.
 */
export function selectionOf(entry: {
  exchange: string;
  exchange_type: "cex" | "dex";
  source?: string | null;
}): ExchangeSelection {
  if (entry.exchange_type === "dex") return "dex";
  if (entry.source === "coinbase" || COINBASE_EXCHANGE.test(entry.exchange)) return "coinbase";
  return "cex-major";
}

/**
 * The key an instrument is stored under (`instruments.venue_key`, unique). A DEX instrument is
 * a pool: `<network>:<pool address>` (EVM addresses lower-cased, Solana's base58 kept as is),
 * so two pools of one pair on one DEX (`WETH / USDC 0.05%` and `0.3%`), or same-symbol
 * copycat tokens, stay apart. A CEX instrument is a market on a venue: `<exchange>:<symbol>`.
 */
export function dexVenueKey(network: string, poolAddress: string): string {
  const address = /^0x[0-9a-f]+$/i.test(poolAddress) ? poolAddress.toLowerCase() : poolAddress;
  return `${network}:${address}`;
}

/** The key of a CEX market (and of a DEX pool whose address is unknown): `<exchange>:<symbol>`. */
export function cexVenueKey(exchange: string, symbol: string): string {
  return `${exchange}:${symbol}`;
}

/** One price observation of one instrument, as every adapter returns it. */
export interface Quote {
  /** The instrument's identity (`dexVenueKey` / `cexVenueKey`); the database keys on it. */
  venueKey: string;
  /** Pair as the venue names it, normalised to `BASE/QUOTE`, e.g. `SOL/USDT`, `PEPE/WETH`. */
  symbol: string;
  /** The spec's exchange text: venue, and for DEX pools the network in parentheses. */
  exchange: string;
  exchangeType: "cex" | "dex";
  /** Chain of a DEX pool (`ethereum`, `base`, `solana`, …); null for CEX. */
  network: string | null;
  source: MarketSource;
  /** Which `selected_exchanges` value this quote belongs to. */
  selection: ExchangeSelection;
  /** https link to the pool (DEX) or market page; null when unknown. */
  poolUrl: string | null;
  /** Last price in USD (or the quote stablecoin), > 0. */
  price: number;
  volume24h: number | null;
  /** ISO 8601 time of the observation. */
  ts: string;
  /**
   * 24 h quote volume in USD where the venue's volume is not already in dollars (the database
   * falls back to `volume24h`, which every adapter gives in a dollar stablecoin or USD).
   */
  volume24hUsd?: number | null;
  /** DEX pool reserve in USD (GeckoTerminal `reserve_in_usd`); absent for CEX. */
  liquidityUsd?: number | null;
  /** (ask - bid) / mid * 100 where the venue gives its best bid and ask (decision 0046). */
  spreadPct?: number | null;
  /** The DEX pool's own name with its fee tier (`SFP / WBNB 0.25%`). */
  poolName?: string | null;
  /** ISO 8601 time the DEX pool was created (GeckoTerminal `pool_created_at`). */
  poolCreatedAt?: string | null;
}

/** What `public.ingest_scan(quotes jsonb, scanned_at timestamptz, scan_group uuid)` returns. */
export interface ScanResult {
  instruments: number;
  movers: number;
  /** Movers removed because no scan quoted them for 15 minutes. */
  stale: number;
  pruned: number;
  broadcasts: number;
  /** Quotes refused by the database's rules (counted, never fatal). */
  skipped: number;
  /**
   * A grouped call (`scan_group`: every scan call's) that left its rows' kept lists and
   * broadcast to another call of the group in flight (decision 0104).
   */
  deferred?: boolean;
}

/**
 * The group every scan-function call passes to `ingest_scan` (decision 0104, round 2): one for all
 * scan calls, so the per-venue schedules' calls whose ticks coincide are grouped as the venue calls
 * of one scan are. The stream's batches pass none and publish per batch.
 */
export const SCAN_GROUP = "5ca9f00d-0104-4000-8000-000000000001";

/** Price history kept for window maths and analysis (3 hours plus a margin). */
export const HISTORY_RETENTION_MINUTES = 200;
