// DEX pools from GeckoTerminal's public API (JSON:API): a page of a network's trending pools
// (20 pools) with their DEX names in one call. The free tier allows 30 calls per minute, so each
// scan reads ONE page of ONE network and the adapter instance rotates through the networks ×
// pages from scan to scan (decision 0091): every pool is read once per rotation.
import type { KNOWN_DEX_NETWORKS } from "../domain/cadence.ts";
import { dexVenueKey, type Quote } from "../domain/market.ts";
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

/** The API's own base URL (`GECKOTERMINAL_API_URL` overrides it). */
export const GECKOTERMINAL_API = "https://api.geckoterminal.com/api/v2";

/**
 * The liquidity floor (`DEX_MIN_LIQUIDITY_USD`, decision 0017): a pool holding less than this
 * in reserves is not quoted. At 10,000 USD a 100 USD trade already moves a constant-product
 * pool's price by about 4 %; below it a "move" says little, and dust pools (0.0005 USD of
 * reserves reporting 153 M USD of 24 h volume) are wash trading or a broken pool.
 */
export const DEFAULT_DEX_MIN_LIQUIDITY_USD = 10_000;

/** GeckoTerminal's network id → our `Quote.network` value and the name shown to users. */
export const DEX_NETWORKS = {
  eth: { network: "ethereum", name: "Ethereum" },
  base: { network: "base", name: "Base" },
  solana: { network: "solana", name: "Solana" },
  bsc: { network: "bsc", name: "BSC" },
  arbitrum: { network: "arbitrum", name: "Arbitrum" },
  // The domain's list of known networks (GECKOTERMINAL_NETWORKS) and this map name the same ids.
} as const satisfies Record<(typeof KNOWN_DEX_NETWORKS)[number], { network: string; name: string }>;
export type DexNetworkId = keyof typeof DEX_NETWORKS;
export const DEX_NETWORK_IDS = Object.keys(DEX_NETWORKS) as DexNetworkId[];

export function trendingPoolsUrl(
  network: DexNetworkId,
  base = GECKOTERMINAL_API,
  page = 1,
): string {
  return `${base}/networks/${network}/trending_pools?include=dex&page=${page}`;
}

/**
 * The rotation's order (decision 0091): page 1 of every network, then page 2 of every network,
 * and so on, so a fresh worker has the most trending pools of each network first. Each
 * (network, page) is read once every `networks × pages` calls.
 */
export function dexRotationOrder(
  networks: readonly DexNetworkId[],
  pages: number,
): { network: DexNetworkId; page: number }[] {
  const order: { network: DexNetworkId; page: number }[] = [];
  for (let page = 1; page <= pages; page++) {
    for (const network of networks) order.push({ network, page });
  }
  return order;
}

export function geckoTerminalPoolUrl(network: DexNetworkId, address: string): string {
  return `https://www.geckoterminal.com/${network}/pools/${address}`;
}

const BRANDS: Record<string, string> = {
  uniswap: "Uniswap",
  pancakeswap: "PancakeSwap",
  sushiswap: "SushiSwap",
  traderjoe: "Trader Joe",
  thena: "THENA",
  clmm: "CLMM",
  cpmm: "CPMM",
  dlmm: "DLMM",
  amm: "AMM",
  fun: "Fun",
};
const NETWORK_WORDS = new Set(["eth", "ethereum", "base", "solana", "bsc", "arbitrum", "one"]);

/** `uniswap_v3` → `Uniswap V3`, `pancakeswap-v3-bsc` → `PancakeSwap V3` (used when the
 * response does not include the DEX's own name). */
export function prettifyDexId(id: string): string {
  const words = id.split(/[-_\s]+/).filter((w) => w !== "");
  const kept = words.filter((w, i) => i === 0 || !NETWORK_WORDS.has(w.toLowerCase()));
  return kept
    .map((w) => {
      const lower = w.toLowerCase();
      if (BRANDS[lower]) return BRANDS[lower];
      if (/^v\d+$/.test(lower)) return lower.toUpperCase();
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(" ");
}

/** `PEPE / WETH` or `WETH / USDC 0.05%` → `PEPE/WETH`, `WETH/USDC`; null when not a pair. */
export function pairSymbol(name: string): string | null {
  const parts = name.split(" / ");
  if (parts.length !== 2) return null;
  const base = parts[0]!.trim();
  const quote = parts[1]!.replace(/\s+\d+(\.\d+)?%$/, "").trim();
  if (!base || !quote || base.includes("/") || quote.includes("/")) return null;
  const symbol = `${base}/${quote}`;
  return symbol.length <= 64 ? symbol : null;
}

/** A DEX name's note that only names the network: `(Base)`, `(BSC)`, `(BNB Chain)`. */
const NETWORK_NOTE_WORDS = new Set([...NETWORK_WORDS, "bnb", "chain", "mainnet"]);

function isNetworkNote(note: string): boolean {
  const words = note.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return words.length > 0 && words.every((w) => NETWORK_NOTE_WORDS.has(w));
}

function dexNames(included: unknown): Map<string, string> {
  const names = new Map<string, string>();
  if (!Array.isArray(included)) return names;
  for (const item of included) {
    if (
      isRecord(item) && item.type === "dex" && typeof item.id === "string" &&
      isRecord(item.attributes) && typeof item.attributes.name === "string" &&
      item.attributes.name.trim() !== ""
    ) {
      // GeckoTerminal names many DEXes with their network, `Uniswap V3 (Base)`: that note goes
      // (the exchange text adds the network itself). Other notes stay, `Raydium (CLMM)` →
      // `Raydium CLMM`: parentheses in the exchange text hold the network.
      const name = item.attributes.name.replace(
        /\s*\(([^)]*)\)/g,
        (_: string, note: string) => (isNetworkNote(note) ? "" : ` ${note}`),
      );
      names.set(item.id, name.trim());
    }
  }
  return names;
}

/**
 * Maps one network's pool list. Each pool is its own instrument (`venueKey` = network and pool
 * address), so two pools of one pair on one DEX, or same-symbol copycats, never merge. Malformed
 * pools are counted as `skipped`; pools without a price yet or at 0 as `inactive`; pools whose
 * reserves are unknown or below `minLiquidityUsd` as `illiquid`.
 */
export function parseGeckoTerminalPools(
  body: unknown,
  networkId: DexNetworkId,
  now: Date,
  minLiquidityUsd = DEFAULT_DEX_MIN_LIQUIDITY_USD,
): { quotes: Quote[] } & RowCounts {
  if (!isRecord(body) || !Array.isArray(body.data)) {
    throw new MarketSourceError("dex", "parse", `${networkId} pools: no data list`);
  }
  const net = DEX_NETWORKS[networkId];
  const names = dexNames(body.included);
  const ts = now.toISOString();
  const quotes: Quote[] = [];
  let skipped = 0;
  let inactive = 0;
  let illiquid = 0;
  for (const row of body.data) {
    const attrs = isRecord(row) ? row.attributes : undefined;
    if (!isRecord(row) || row.type !== "pool" || !isRecord(attrs)) {
      skipped++;
      continue;
    }
    const symbol = typeof attrs.name === "string" ? pairSymbol(attrs.name) : null;
    const address = typeof attrs.address === "string" && /^[A-Za-z0-9]{20,80}$/.test(attrs.address)
      ? attrs.address
      : null;
    const rawPrice = attrs.base_token_price_usd;
    const price = toNumber(rawPrice);
    const reserve = attrs.reserve_in_usd === null || attrs.reserve_in_usd === undefined
      ? null
      : toNumber(attrs.reserve_in_usd);
    const volume = isRecord(attrs.volume_usd) ? toNumber(attrs.volume_usd.h24) : null;
    const relationships = isRecord(row.relationships) ? row.relationships : {};
    const dexData = isRecord(relationships.dex) && isRecord(relationships.dex.data)
      ? relationships.dex.data
      : null;
    const dexId = dexData && typeof dexData.id === "string" ? dexData.id : null;
    const noPrice = rawPrice === null || rawPrice === undefined || rawPrice === "";
    if (
      !symbol || !address || !dexId || (!noPrice && (price === null || price < 0)) ||
      (attrs.reserve_in_usd != null && (reserve === null || reserve < 0))
    ) {
      skipped++;
      continue;
    }
    // A pool minutes old has no price yet; a drained one trades at 0.
    if (noPrice || price === null || price === 0) {
      inactive++;
      continue;
    }
    if (reserve === null || reserve < minLiquidityUsd) {
      illiquid++;
      continue;
    }
    const dexName = names.get(dexId) ?? prettifyDexId(dexId);
    quotes.push({
      venueKey: dexVenueKey(net.network, address),
      symbol,
      exchange: `${dexName} (${net.name})`,
      exchangeType: "dex",
      network: net.network,
      source: "dex",
      selection: "dex",
      poolUrl: geckoTerminalPoolUrl(networkId, address),
      price,
      volume24h: volume !== null && volume >= 0 ? volume : null,
      ts,
      volume24hUsd: volume !== null && volume >= 0 ? volume : null,
      liquidityUsd: reserve,
      // The pool's own name carries its fee tier: `SFP / WBNB 0.25%`.
      poolName: typeof attrs.name === "string" && attrs.name.trim() !== ""
        ? attrs.name.trim().slice(0, 200)
        : null,
      poolCreatedAt: isoTime(attrs.pool_created_at),
    });
  }
  return { quotes, skipped, inactive, illiquid };
}

/** An ISO 8601 time as the venue sends it, normalised; null when absent or unreadable. */
function isoTime(value: unknown): string | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

export interface DexAdapterOptions extends VenueOptions {
  /** Networks to rotate through (default eth, base, solana, bsc, arbitrum). */
  networks?: readonly DexNetworkId[];
  /** Pages 1..`pages` of each network's trending pools are read in turn (default 1, at most 10). */
  pages?: number;
  /** Pools with less in reserves (USD) are not quoted; default `DEFAULT_DEX_MIN_LIQUIDITY_USD`. */
  minLiquidityUsd?: number;
}

/** The DEX adapter; each `fetchQuotes` reads the next (network, page) of the rotation. */
export function createDexAdapter(venue: DexAdapterOptions = {}): MarketAdapter & {
  /** The network the next call reads (null before the first call picks a start). */
  nextNetwork(): DexNetworkId | null;
  /** The page the next call reads (null before the first call picks a start). */
  nextPage(): number | null;
  /** Calls in one full rotation: every (network, page) is read once in this many calls. */
  readonly rotationCalls: number;
} {
  const networks = venue.networks?.length ? [...venue.networks] : DEX_NETWORK_IDS;
  const pages = venue.pages ?? 1;
  const order = dexRotationOrder(
    networks,
    Number.isInteger(pages) && pages >= 1 && pages <= 10 ? pages : 1,
  );
  const backoff = new Backoff();
  let next: number | null = null;
  return {
    source: "dex",
    rotationCalls: order.length,
    nextNetwork: () => (next === null ? null : order[next]!.network),
    nextPage: () => (next === null ? null : order[next]!.page),
    async fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const base = venueBaseUrl("dex", "GECKOTERMINAL_API_URL", venue.baseUrl, GECKOTERMINAL_API);
      const floor = venue.minLiquidityUsd ?? DEFAULT_DEX_MIN_LIQUIDITY_USD;
      if (!Number.isFinite(floor) || floor < 0) {
        throw new MarketSourceError(
          "dex",
          "config",
          "DEX_MIN_LIQUIDITY_USD must be a number of US dollars, 0 or more",
        );
      }
      if (!Number.isInteger(pages) || pages < 1 || pages > 10) {
        throw new MarketSourceError(
          "dex",
          "config",
          "GECKOTERMINAL_PAGES must be a whole number of pages from 1 to 10 (the free tier's pages)",
        );
      }
      const ctx = requestContext("dex", backoff, venue, opts);
      const now = ctx.now();
      const paused = backoff.activeAt(now);
      if (paused) return { quotes: [], ...NO_ROWS, source: "dex", backoffUntil: paused };
      // A fresh worker starts where the clock says, so cold starts do not always read `eth`
      // (within page 1: the most trending pools of every network come first).
      if (next === null) next = Math.floor(now.getTime() / 10_000) % networks.length;
      const { network: networkId, page } = order[next]!;
      next = (next + 1) % order.length;
      const answer = await getJson(ctx, trendingPoolsUrl(networkId, base, page));
      if (!answer.ok) {
        return { quotes: [], ...NO_ROWS, source: "dex", backoffUntil: answer.backoffUntil };
      }
      // Pools carry no update time (the trending pools' attributes have none, decision 0091):
      // their prices are the venue's at the answer (its `Date` header).
      const { skewMs, venueNow } = venueClock(answer);
      const rows = parseGeckoTerminalPools(answer.body, networkId, venueNow, floor);
      const received = (answer.body as { data: unknown[] }).data.length;
      // Page 1 without a usable pool means a broken answer; a later page may hold only the long
      // tail's illiquid pools, or nothing once the trending list ends: not a failure.
      const what = page === 1
        ? `${networkId} trending pools`
        : `${networkId} trending pools page ${page}`;
      return {
        ...(page === 1 ? quotesOrEmpty("dex", what, rows, received) : { ...rows, source: "dex" }),
        ...(skewMs === null ? {} : { skewMs }),
      };
    },
  };
}
