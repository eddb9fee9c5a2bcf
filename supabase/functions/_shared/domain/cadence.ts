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

/** Networks the DEX source rotates through (one per call): eth, base, solana, bsc, arbitrum. */
export const DEX_NETWORK_COUNT = 5;

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
 * network per call) the cadence times the number of networks.
 */
export function refreshSeconds(source: MarketSource, cadenceSeconds: number): number {
  return source === "dex" ? cadenceSeconds * DEX_NETWORK_COUNT : cadenceSeconds;
}
