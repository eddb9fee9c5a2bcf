/**
 * How often each market source is read (decision 0033): per venue, in whole seconds, from
 * `MARKET_CADENCE_SECONDS` ("binance=2,coinbase=2,dex=3"), the same numbers the hosted schedule
 * (one pg_cron job per venue) and the local cron runner use.
 *
 * Runtime-agnostic: imported by the scan function (Deno) and the local stack (Node).
 */
import { MARKET_SOURCES, type MarketSource } from "./market.ts";

/** Binance and Coinbase every 2 s; the DEX source every 3 s (20 of GeckoTerminal's 30 calls a minute). */
export const DEFAULT_CADENCE_SECONDS: Readonly<Record<Exclude<MarketSource, "simulated">, number>> =
  Object.freeze({ binance: 2, coinbase: 2, dex: 3 });
/** The simulated market's prices move in 10-second steps. */
export const DEFAULT_SIMULATED_CADENCE_SECONDS = 10;

/**
 * The fastest cadence each venue's limits allow. GeckoTerminal's free tier takes about 30 calls a
 * minute: one every 2 s. Binance at 1 s spends 316 of its 6000 weight a minute, Coinbase's
 * public endpoints take 10 requests a second.
 */
export const MIN_CADENCE_SECONDS: Readonly<Record<MarketSource, number>> = Object.freeze({
  binance: 1,
  coinbase: 1,
  dex: 2,
  simulated: 1,
});

/** GeckoTerminal's network ids the DEX source knows (its adapter's `DEX_NETWORKS`). */
export const KNOWN_DEX_NETWORKS = ["eth", "base", "solana", "bsc", "arbitrum"] as const;
/** Networks the DEX source rotates through by default (one page of one network per call). */
export const DEX_NETWORK_COUNT = KNOWN_DEX_NETWORKS.length;
/** The trending list's pages the free tier serves (20 pools a page; page 11+ needs a paid plan). */
export const MAX_DEX_PAGES = 10;

/**
 * What the DEX source rotates through (decision 0091): `GECKOTERMINAL_NETWORKS` (comma list of
 * `KNOWN_DEX_NETWORKS`, default all five) × `GECKOTERMINAL_PAGES` (pages 1..N of each network's
 * trending pools, 1–10, default 1). One call reads one (network, page).
 */
export interface DexRotation {
  networks: (typeof KNOWN_DEX_NETWORKS)[number][];
  pages: number;
}

export const DEFAULT_DEX_ROTATION: Readonly<DexRotation> = Object.freeze({
  networks: [...KNOWN_DEX_NETWORKS],
  pages: 1,
});

/** Reads `GECKOTERMINAL_NETWORKS` and `GECKOTERMINAL_PAGES`; a wrong value throws `CadenceError`. */
export function parseDexRotation(
  networksRaw: string | undefined,
  pagesRaw: string | undefined,
): DexRotation {
  const names = [
    ...new Set(
      (networksRaw ?? "").split(/[\s,]+/).map((n) => n.trim().toLowerCase()).filter(Boolean),
    ),
  ];
  const unknown = names.filter((n) => !(KNOWN_DEX_NETWORKS as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new CadenceError(
      `GECKOTERMINAL_NETWORKS names unknown networks (${unknown.join(", ")}); use ${
        KNOWN_DEX_NETWORKS.join(", ")
      }`,
    );
  }
  const pagesText = pagesRaw?.trim();
  const pages = pagesText ? Number(pagesText) : DEFAULT_DEX_ROTATION.pages;
  if (!/^\d+$/.test(pagesText ?? "1") || pages < 1 || pages > MAX_DEX_PAGES) {
    throw new CadenceError(
      `GECKOTERMINAL_PAGES: "${pagesRaw}" is not a whole number of pages from 1 to ${MAX_DEX_PAGES} (the free tier's pages)`,
    );
  }
  return {
    networks: names.length > 0
      ? (names as DexRotation["networks"])
      : [...DEFAULT_DEX_ROTATION.networks],
    pages,
  };
}

/** Calls in one full rotation of the DEX source: networks × pages. */
export function dexRotationCalls(rotation: DexRotation = DEFAULT_DEX_ROTATION): number {
  return rotation.networks.length * rotation.pages;
}

/**
 * The printed cadence of the DEX source: "5 networks × 2 pages at 20 calls/min: every pool
 * every 30 s" (the Sources cadence, the start logs, the README).
 */
export function describeDexRotation(
  cadenceSeconds: number,
  rotation: DexRotation = DEFAULT_DEX_ROTATION,
): string {
  const n = rotation.networks.length;
  const calls = Math.round((60 / cadenceSeconds) * 100) / 100;
  return `${n} network${n === 1 ? "" : "s"} × ${rotation.pages} page${
    rotation.pages === 1 ? "" : "s"
  } at ${calls} calls/min: every pool every ${refreshSeconds("dex", cadenceSeconds, rotation)} s`;
}

export class CadenceError extends Error {
  override name = "CadenceError";
}

/**
 * Each source's cadence in seconds. `raw` lists `source=seconds` pairs (commas or spaces); a
 * source it does not name keeps its default (the simulated market: `simulatedSeconds`, i.e.
 * SCAN_INTERVAL_SECONDS, else 10). An unknown source, or a number that is not a whole number of
 * seconds from the venue's minimum to 59 (pg_cron's seconds schedules), throws `CadenceError`.
 */
export function parseCadence(
  raw: string | undefined,
  simulatedSeconds?: number,
): Record<MarketSource, number> {
  const simulated = simulatedSeconds !== undefined && Number.isInteger(simulatedSeconds) &&
      simulatedSeconds >= 1 && simulatedSeconds <= 59
    ? simulatedSeconds
    : DEFAULT_SIMULATED_CADENCE_SECONDS;
  const out: Record<MarketSource, number> = { ...DEFAULT_CADENCE_SECONDS, simulated };
  for (const part of (raw ?? "").split(/[\s,]+/).filter(Boolean)) {
    const match = /^([a-z]+)=(\d+)$/.exec(part.trim().toLowerCase());
    if (!match) {
      throw new CadenceError(
        `MARKET_CADENCE_SECONDS: "${part}" is not source=seconds (e.g. binance=2,coinbase=2,dex=3)`,
      );
    }
    const source = match[1] as MarketSource;
    if (!(MARKET_SOURCES as readonly string[]).includes(source)) {
      throw new CadenceError(
        `MARKET_CADENCE_SECONDS names an unknown source "${match[1]}"; use ${
          MARKET_SOURCES.join(", ")
        }`,
      );
    }
    const seconds = Number(match[2]);
    const min = MIN_CADENCE_SECONDS[source];
    if (seconds < min || seconds > 59) {
      throw new CadenceError(
        `MARKET_CADENCE_SECONDS: ${source} every ${seconds} s is outside ${min}–59 s (the venue's limits and pg_cron's seconds schedules)`,
      );
    }
    out[source] = seconds;
  }
  return out;
}

/**
 * How often each instrument of a source is refreshed: the cadence, and for the DEX source (one
 * page of one network per call) the cadence times the calls of a full rotation (networks × pages).
 */
export function refreshSeconds(
  source: MarketSource,
  cadenceSeconds: number,
  rotation: DexRotation = DEFAULT_DEX_ROTATION,
): number {
  return source === "dex" ? cadenceSeconds * dexRotationCalls(rotation) : cadenceSeconds;
}
