/**
 * Moves you can trust (issue 26): the rules of decision 0046 as pure functions. The database
 * applies the same rules while it ingests a scan (`ingest_scan`, `private.movers_rescore`); these
 * functions are the written-down, unit-tested statement of each rule and serve the simulated
 * market and the API's documentation. Runtime-agnostic: no Deno, Node or DOM globals.
 */
import type { MoverFlag } from "./realtime.ts";

/** A DEX pool below this reserve (USD) is thin. */
export const THIN_DEX_LIQUIDITY_USD = 100_000;
/** A CEX pair below this 24 h quote volume (USD) is thin. */
export const THIN_CEX_VOLUME_USD = 250_000;
/** A move of at least this many percent needs its 24 h volume to rise (`no_volume_rise`). */
export const VOLUME_RISE_MIN_MOVE_PCT = 3;
/** A pool younger than this is `young_pool`. */
export const YOUNG_POOL_HOURS = 24;
/** Liquidity at or below this share of the window's start is a `pulled_pool`. */
export const PULLED_POOL_SHARE = 0.5;
/** A DEX price further than this (percent) from the asset's CEX price is `dex_cex_gap`. */
export const DEX_CEX_GAP_PCT = 5;
/** 24 h volume above this multiple of the pool's reserve is `wash_volume`. */
export const WASH_VOLUME_MULTIPLE = 20;
/** Both venues must have moved at least this many percent, the same way, to confirm each other. */
export const CONFIRMATION_MIN_MOVE_PCT = 2;
/** The window the flags and the confirmation look back over (the widest window). */
export const TRUST_WINDOW_MINUTES = 30;
/** Quote currencies whose prices are dollars (the CEX reference of `dex_cex_gap`). */
export const DOLLAR_QUOTES: readonly string[] = ["USD", "USDT", "USDC", "FDUSD", "DAI"];

/** Wrapped natives and the native they stand for (decision 0047). */
export const WRAPPED_NATIVES: Readonly<Record<string, string>> = {
  WBNB: "BNB",
  WETH: "ETH",
  WSOL: "SOL",
  WAVAX: "AVAX",
  WMATIC: "MATIC",
  WPOL: "POL",
};

/** The grouping key of a pair `BASE/QUOTE`: the base upper-cased, a wrapped native as its native. */
export function assetOf(symbol: string): string {
  const base = (symbol.split("/")[0] ?? "").trim().toUpperCase();
  return WRAPPED_NATIVES[base] ?? base;
}

/** The quote currency of `BASE/QUOTE`, upper-cased ("" when there is none). */
export function quoteOf(symbol: string): string {
  return (symbol.split("/")[1] ?? "").trim().toUpperCase();
}

/** (ask - bid) / mid * 100, rounded to 4 decimals; null unless 0 < bid <= ask. */
export function spreadPct(bid: number | null, ask: number | null): number | null {
  if (bid === null || ask === null || !Number.isFinite(bid) || !Number.isFinite(ask)) return null;
  if (bid <= 0 || ask < bid) return null;
  const mid = (bid + ask) / 2;
  return Math.round(((ask - bid) / mid) * 100 * 10_000) / 10_000;
}

/** Below the floor of its venue type; an unknown figure counts as thin (nothing shows depth). */
export function isThin(
  exchangeType: "cex" | "dex",
  figures: { volume24hUsd: number | null; liquidityUsd: number | null },
): boolean {
  if (exchangeType === "dex") {
    return figures.liquidityUsd === null || figures.liquidityUsd < THIN_DEX_LIQUIDITY_USD;
  }
  return figures.volume24hUsd === null || figures.volume24hUsd < THIN_CEX_VOLUME_USD;
}

/** What a move is judged on: now and at the window's start (null where unknown). */
export interface MoveFigures {
  exchangeType: "cex" | "dex";
  /** The move over the window, percent. */
  pct: number;
  price: number;
  /** 24 h volume now and at the window's start (the venue's own unit). */
  volume24h: number | null;
  volume24hAtStart: number | null;
  volume24hUsd: number | null;
  liquidityUsd: number | null;
  liquidityUsdAtStart: number | null;
  poolCreatedAt: string | null;
  /** The mean price of the asset's dollar-quoted CEX pairs (null: none). */
  cexPrice: number | null;
}

/** The manipulation flags of a move at `now`, in `MOVER_FLAGS` order. */
export function moverFlags(m: MoveFigures, now: Date): MoverFlag[] {
  const flags: MoverFlag[] = [];
  if (
    Math.abs(m.pct) >= VOLUME_RISE_MIN_MOVE_PCT && m.volume24h !== null &&
    m.volume24hAtStart !== null && m.volume24h <= m.volume24hAtStart
  ) {
    flags.push("no_volume_rise");
  }
  if (m.exchangeType === "dex") {
    const born = m.poolCreatedAt === null ? Number.NaN : Date.parse(m.poolCreatedAt);
    if (born > now.getTime() - YOUNG_POOL_HOURS * 3_600_000) flags.push("young_pool");
    if (
      m.liquidityUsd !== null && m.liquidityUsdAtStart !== null &&
      m.liquidityUsd <= PULLED_POOL_SHARE * m.liquidityUsdAtStart
    ) {
      flags.push("pulled_pool");
    }
    if (
      m.cexPrice !== null && m.cexPrice > 0 &&
      // Rounded to 6 decimals as the database's exact arithmetic sees it (1.05 vs 1 is 5 %).
      Math.round((Math.abs(m.price - m.cexPrice) / m.cexPrice) * 100 * 1e6) / 1e6 > DEX_CEX_GAP_PCT
    ) {
      flags.push("dex_cex_gap");
    }
    if (
      m.liquidityUsd !== null && m.liquidityUsd > 0 && m.volume24hUsd !== null &&
      m.volume24hUsd > WASH_VOLUME_MULTIPLE * m.liquidityUsd
    ) {
      flags.push("wash_volume");
    }
  }
  return flags;
}

/** One mover as the confirmation rule sees it. */
export interface VenueMove {
  asset: string;
  exchange: string;
  exchangeType: "cex" | "dex";
  pct: number;
}

/**
 * The other venues (exchange names, sorted) that confirm `move`: the same asset moved at least
 * `CONFIRMATION_MIN_MOVE_PCT` the same way there, `move` itself having moved as much. A CEX move
 * is confirmed by any other venue; a DEX move by CEX venues only (pools of one asset follow each
 * other through arbitrage, so DEX/DEX agreement proves nothing).
 */
export function confirmedOn(move: VenueMove, all: readonly VenueMove[]): string[] {
  if (Math.abs(move.pct) < CONFIRMATION_MIN_MOVE_PCT) return [];
  const venues = new Set<string>();
  for (const other of all) {
    if (
      other.asset === move.asset && other.exchange !== move.exchange &&
      Math.sign(other.pct) === Math.sign(move.pct) &&
      Math.abs(other.pct) >= CONFIRMATION_MIN_MOVE_PCT &&
      (move.exchangeType === "cex" || other.exchangeType === "cex")
    ) {
      venues.add(other.exchange);
    }
  }
  return [...venues].sort();
}

/** What the trust score is computed from. */
export interface TrustInputs {
  exchangeType: "cex" | "dex";
  volume24hUsd: number | null;
  liquidityUsd: number | null;
  spreadPct: number | null;
  thin: boolean;
  flags: readonly MoverFlag[];
  confirmedOn: readonly string[];
}

/**
 * The trust score, an integer 0..100 (decision 0046): 20, plus up to 50 for depth (the pool's
 * reserve for DEX, the 24 h volume for CEX: 12.5 points per tenfold above $1,000, so $10 M and more
 * earn 50), plus 15 per confirming venue (at most 2), minus 25 per flag, minus 20 when thin, minus
 * 10 for a spread above 1 %; clamped to 0..100.
 */
export function trustScore(t: TrustInputs): number {
  const depth = t.exchangeType === "dex" ? t.liquidityUsd : t.volume24hUsd;
  const depthPoints = Math.max(
    0,
    Math.min(50, Math.round(12.5 * (Math.log10(Math.max(depth ?? 1, 1)) - 3))),
  );
  const score = 20 + depthPoints + 15 * Math.min(t.confirmedOn.length, 2) -
    25 * t.flags.length - (t.thin ? 20 : 0) - (t.spreadPct !== null && t.spreadPct > 1 ? 10 : 0);
  return Math.max(0, Math.min(100, score));
}

/**
 * The rank weight of a move (decision 0046): its window's move counts half per flag and half again
 * when thin, so a flagged or thin move ranks lower but is never dropped.
 */
export function rankWeight(flags: readonly MoverFlag[], thin: boolean): number {
  return 0.5 ** (flags.length + (thin ? 1 : 0));
}
