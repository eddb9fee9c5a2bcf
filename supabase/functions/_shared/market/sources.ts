// Which market sources a deployment scans (env MARKET_SOURCES) and the adapter for each.
import { MARKET_SOURCES, type MarketSource } from "../domain/market.ts";
import { DEFAULT_DEX_ROTATION, type DexRotation, parseDexRotation } from "../domain/cadence.ts";
import { denoEnv, type Env } from "../env.ts";
import { HttpError } from "../http.ts";
import { createBinanceAdapter } from "./binance.ts";
import { createCoinbaseAdapter } from "./coinbase.ts";
import { createDexAdapter } from "./geckoterminal.ts";
import { createSimulatedAdapter } from "./simulated.ts";
import type { MarketAdapter } from "./types.ts";

export const DEFAULT_MARKET_SOURCES: readonly MarketSource[] = ["simulated"];

/**
 * The sources named in MARKET_SOURCES (comma list of binance, coinbase, dex, simulated; default
 * simulated). An unknown name is a 500 `market_sources_invalid`: a typo must not silently turn
 * a venue off.
 */
export function enabledSources(env: Env): MarketSource[] {
  const raw = env("MARKET_SOURCES")?.trim();
  if (!raw) return [...DEFAULT_MARKET_SOURCES];
  const names = [...new Set(raw.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((n) => !(MARKET_SOURCES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    throw new HttpError(
      500,
      "market_sources_invalid",
      `MARKET_SOURCES names unknown sources (${unknown.join(", ")}); use ${
        MARKET_SOURCES.join(", ")
      }.`,
    );
  }
  return names.length > 0 ? (names as MarketSource[]) : [...DEFAULT_MARKET_SOURCES];
}

/** An optional setting: undefined when unset or blank. */
function setting(env: Env, name: string): string | undefined {
  const value = env(name)?.trim();
  return value ? value : undefined;
}

/**
 * One adapter per source. Keep the instances: they hold the backoff and the DEX rotation.
 * `BINANCE_API_URL`, `COINBASE_API_URL` and `GECKOTERMINAL_API_URL` point a venue at a regional
 * mirror, a testnet or a local test server; `DEX_MIN_LIQUIDITY_USD` sets the DEX pools'
 * liquidity floor (decision 0017). A wrong value fails that venue's scans with a `config` error.
 * `GECKOTERMINAL_NETWORKS` and `GECKOTERMINAL_PAGES` set the DEX rotation (decision 0091); a
 * wrong value is refused by each scan (500 `market_cadence_invalid`), so the defaults here are
 * never read with it.
 */
export function createAdapters(env: Env = denoEnv): Record<MarketSource, MarketAdapter> {
  const floor = setting(env, "DEX_MIN_LIQUIDITY_USD");
  let rotation: DexRotation = DEFAULT_DEX_ROTATION;
  try {
    rotation = parseDexRotation(env("GECKOTERMINAL_NETWORKS"), env("GECKOTERMINAL_PAGES"));
  } catch {
    // Refused by the scan itself (above).
  }
  return {
    binance: createBinanceAdapter({ baseUrl: setting(env, "BINANCE_API_URL") }),
    coinbase: createCoinbaseAdapter({ baseUrl: setting(env, "COINBASE_API_URL") }),
    dex: createDexAdapter({
      baseUrl: setting(env, "GECKOTERMINAL_API_URL"),
      networks: rotation.networks,
      pages: rotation.pages,
      minLiquidityUsd: floor === undefined ? undefined : Number(floor),
    }),
    simulated: createSimulatedAdapter(),
  };
}
