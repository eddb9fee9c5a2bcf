// The offline market: ~300 instruments on Binance, Coinbase and DEX pools of five networks,
// priced by a seeded function of time alone. Every scan in the same 10-second bucket sees the
// same prices, whichever worker computes them, and no state is kept between scans.
//
// price(t) = base × exp(walk(t) + events(t) + venue noise(t)), where
// - walk: a sum of value-noise octaves (periods 10 s … ~11 h, amplitudes growing with the square
//   root of the period), so it moves like a random walk of `vol` per 10 s over minutes and hours
//   but stays around the base price over days; instruments of one asset share it;
// - events: every 20 minutes a few assets pump or dump 5–40 % over 1–5 minutes, then decay back
//   within the hour.
// Moves you can trust (issue 26, decision 0046): DEX pools have a reserve (some of them thin),
// Binance pairs a spread, pools a name with their fee tier. A showcase on BNB Chain moves on a
// sawtooth (a steady climb, or fall, that resets every few hours), so at any time it shows: SFP
// rising on Binance and on three PancakeSwap pools (confirmed across venues; two pools of one DEX
// with different fee tiers, one of them thin), a wash-traded pool (volume 50 times its reserve), a
// pool younger than 24 h, a pool whose reserve drains by more than half every 30 minutes (pulled)
// and a thin Binance pair.
import { cexVenueKey, dexVenueKey, type ExchangeSelection, type Quote } from "../domain/market.ts";
import { binanceTradeUrl } from "./binance.ts";
import { coinbaseTradeUrl } from "./coinbase.ts";
import { DEX_NETWORKS, type DexNetworkId, geckoTerminalPoolUrl } from "./geckoterminal.ts";
import {
  type FetchQuotesOptions,
  type FetchQuotesResult,
  type HistoryBatch,
  type MarketAdapter,
  NO_ROWS,
} from "./types.ts";

export const SIM_BUCKET_MS = 10_000;
export const SIM_EVENT_PERIOD_MS = 20 * 60_000;
const OCTAVES = 12;
const EVENT_TAIL_MS = 60 * 60_000;
/** DEX-only tokens' trend layer (decision 0014): scale, tail weight, periods in 10-s buckets. */
const DEX_TREND = 0.05;
const TREND_BURST = 3;
const TREND_BURST_SHARE = 0.15;
const TREND_PERIODS = [30, 90, 270] as const;
const TREND_WEIGHTS = [0.5, 1, 1] as const;
const DEFAULT_SEED = 0x5eed_2026;

// ---------------------------------------------------------------------------------------------
// Seeded hashing: 32-bit integer mixing, so a value depends only on its inputs.

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    // Integers beyond 32 bits (time buckets are not) fold their high part in too.
    const lo = p | 0;
    const hi = Math.floor(p / 4294967296) | 0;
    h = fmix(h ^ Math.imul(lo, 0xcc9e2d51));
    if (hi !== 0) h = fmix(h ^ Math.imul(hi, 0x1b873593));
  }
  return h;
}

/** Uniform in [0, 1). */
function unit(...parts: number[]): number {
  return hash(...parts) / 4294967296;
}

/** Standard normal (Box–Muller over two hashed uniforms). */
function gauss(...parts: number[]): number {
  const u = 1 - unit(...parts, 1);
  const v = unit(...parts, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix(h);
}

// ---------------------------------------------------------------------------------------------
// The instruments.

/** Volatility tiers: log-price standard deviation per 10 s. */
const TIER_VOL = [0.001, 0.0015, 0.0025, 0.0035] as const;
const TIER_VOLUME = [9e8, 9e7, 2.5e7, 1.5e7] as const;
/** Largest event move per tier: majors barely, small caps up to 40 %. */
const TIER_EVENT_MAX = [0, 0.12, 0.25, 0.4] as const;
type Tier = 0 | 1 | 2 | 3;

/** CEX assets: symbol, base price in USD, tier, listed on Coinbase. */
const CEX_ASSETS: readonly (readonly [string, number, Tier, boolean])[] = [
  ["BTC", 67000, 0, true],
  ["ETH", 3400, 0, true],
  ["BNB", 590, 0, false],
  ["SOL", 150, 0, true],
  ["XRP", 0.55, 0, true],
  ["DOGE", 0.15, 1, true],
  ["ADA", 0.45, 1, true],
  ["TRX", 0.12, 1, false],
  ["AVAX", 28, 1, true],
  ["TON", 6.5, 1, false],
  ["LINK", 14, 1, true],
  ["DOT", 6.2, 1, true],
  ["POL", 0.45, 1, true],
  ["SHIB", 0.000018, 1, true],
  ["LTC", 72, 1, true],
  ["BCH", 380, 1, true],
  ["NEAR", 5.2, 1, true],
  ["UNI", 8.5, 1, true],
  ["ICP", 9, 1, true],
  ["APT", 7.5, 1, true],
  ["XLM", 0.1, 1, true],
  ["ETC", 24, 1, true],
  ["FIL", 4.5, 1, true],
  ["HBAR", 0.08, 1, true],
  ["ATOM", 7, 1, true],
  ["ARB", 0.8, 1, true],
  ["OP", 1.7, 1, true],
  ["SUI", 1.1, 1, true],
  ["INJ", 22, 1, true],
  ["RENDER", 7, 1, true],
  ["IMX", 1.6, 1, true],
  ["STX", 1.8, 1, true],
  ["AAVE", 95, 2, true],
  ["MKR", 2400, 2, true],
  ["GRT", 0.2, 2, true],
  ["ALGO", 0.15, 2, true],
  ["SEI", 0.4, 2, true],
  ["TIA", 6, 2, true],
  ["FET", 1.3, 2, true],
  ["RUNE", 4.5, 2, false],
  ["LDO", 1.7, 2, true],
  ["QNT", 80, 2, true],
  ["EGLD", 32, 2, true],
  ["SAND", 0.35, 2, true],
  ["MANA", 0.35, 2, true],
  ["AXS", 5.5, 2, true],
  ["THETA", 1.5, 2, false],
  ["FLOW", 0.6, 2, true],
  ["XTZ", 0.75, 2, true],
  ["EOS", 0.6, 2, false],
  ["KAVA", 0.45, 2, true],
  ["CRV", 0.3, 2, true],
  ["SNX", 1.8, 2, true],
  ["COMP", 55, 2, true],
  ["ENS", 18, 2, true],
  ["DYDX", 1.4, 2, false],
  ["GALA", 0.025, 2, true],
  ["CHZ", 0.07, 2, true],
  ["APE", 0.9, 2, true],
  ["1INCH", 0.35, 2, true],
  ["ZEC", 30, 2, true],
  ["DASH", 26, 2, true],
  ["NEO", 11, 2, false],
  ["IOTA", 0.18, 2, false],
  ["JUP", 0.9, 2, true],
  ["PYTH", 0.35, 2, true],
  ["WLD", 2.3, 2, false],
  ["ORDI", 35, 2, false],
  ["STRK", 0.6, 2, true],
  ["ENA", 0.5, 2, true],
  ["ONDO", 1.1, 2, true],
  ["JTO", 2.6, 2, true],
  ["BLUR", 0.25, 2, true],
  ["CAKE", 2.2, 2, false],
  ["ROSE", 0.08, 2, false],
  ["MINA", 0.55, 2, true],
  ["CFX", 0.17, 2, false],
  ["KSM", 26, 2, true],
  ["PEPE", 0.000011, 3, true],
  ["FLOKI", 0.00017, 3, true],
  ["BONK", 0.000024, 3, true],
  ["WIF", 2.5, 3, true],
  ["BOME", 0.009, 3, false],
  ["MEME", 0.017, 3, false],
  ["PEOPLE", 0.08, 3, false],
  ["NOT", 0.015, 3, false],
  ["TURBO", 0.006, 3, true],
  ["NEIRO", 0.0012, 3, false],
  ["PNUT", 0.45, 3, true],
  ["ACT", 0.2, 3, false],
  ["DOGS", 0.0005, 3, false],
  ["1000SATS", 0.0003, 3, false],
  ["BANANA", 45, 3, false],
  ["ZRO", 3.5, 3, true],
  ["IO", 2.5, 3, true],
  ["ZK", 0.15, 3, true],
  ["W", 0.3, 3, true],
  ["ETHFI", 2, 3, true],
  ["AEVO", 0.4, 3, false],
  ["PORTAL", 0.5, 3, false],
  ["PIXEL", 0.2, 3, false],
  ["ALT", 0.13, 3, false],
  ["MANTA", 0.9, 3, false],
  ["XAI", 0.3, 3, false],
  ["ACE", 3, 3, false],
];

/** DEX pools per GeckoTerminal network: two venues (DEX names) and a dozen tokens each. */
const DEX_POOLS: Record<
  DexNetworkId,
  { dexes: [string, string]; quote: string; tokens: readonly (readonly [string, number])[] }
> = {
  eth: {
    dexes: ["Uniswap V3", "Uniswap V2"],
    quote: "WETH",
    tokens: [
      ["PEPE", 0.000011],
      ["MOG", 0.0000012],
      ["SPX", 0.55],
      ["TURBO", 0.006],
      ["NEIRO", 0.09],
      ["APU", 0.0003],
      ["WOJAK", 0.0004],
      ["BITCOIN", 0.1],
      ["LINK", 14],
      ["UNI", 8.5],
      ["ONDO", 1.1],
      ["ENA", 0.5],
    ],
  },
  base: {
    dexes: ["Aerodrome", "Uniswap V3"],
    quote: "WETH",
    tokens: [
      ["BRETT", 0.09],
      ["DEGEN", 0.008],
      ["TOSHI", 0.0002],
      ["AERO", 0.9],
      ["VIRTUAL", 1.2],
      ["KEYCAT", 0.005],
      ["SKI", 0.05],
      ["DOGINME", 0.0004],
      ["BENJI", 0.01],
      ["MIGGLES", 0.05],
      ["HIGHER", 0.02],
      ["MOCHI", 0.00002],
    ],
  },
  solana: {
    dexes: ["Raydium", "Orca"],
    quote: "SOL",
    tokens: [
      ["BONK", 0.000024],
      ["WIF", 2.5],
      ["POPCAT", 0.9],
      ["MEW", 0.006],
      ["BOME", 0.009],
      ["PNUT", 0.45],
      ["GOAT", 0.4],
      ["MOODENG", 0.15],
      ["CHILLGUY", 0.2],
      ["FWOG", 0.2],
      ["MICHI", 0.1],
      ["GIGA", 0.03],
    ],
  },
  bsc: {
    dexes: ["PancakeSwap V3", "PancakeSwap V2"],
    quote: "WBNB",
    tokens: [
      ["CAKE", 2.2],
      ["BABYDOGE", 0.0000000015],
      ["FLOKI", 0.00017],
      ["TST", 0.05],
      ["MUBARAK", 0.1],
      ["BROCCOLI", 0.04],
      ["XVS", 7],
      ["TWT", 1],
      ["ALPACA", 0.1],
      ["BAKE", 0.2],
      ["ID", 0.3],
    ],
  },
  arbitrum: {
    dexes: ["Uniswap V3", "Camelot"],
    quote: "WETH",
    tokens: [
      ["ARB", 0.8],
      ["GMX", 25],
      ["MAGIC", 0.4],
      ["RDNT", 0.06],
      ["PENDLE", 4],
      ["GRAIL", 900],
      ["XAI", 0.3],
      ["GNS", 3],
      ["WINR", 0.03],
      ["ZRO", 3.5],
      ["AIDOGE", 0.0000000002],
      ["VELA", 0.5],
    ],
  },
};

export interface SimInstrument {
  /** `Quote.venueKey`: venue and symbol for CEX markets, network and pool address for pools. */
  venueKey: string;
  symbol: string;
  exchange: string;
  exchangeType: "cex" | "dex";
  network: string | null;
  selection: ExchangeSelection;
  poolUrl: string;
  basePrice: number;
  baseVolume: number;
  /** The shared walk (one per asset) this instrument follows. */
  walk: number;
  /** Own noise on top of the walk (venue basis), log-std per 10 s. */
  venueNoise: number;
  key: number;
  /** A DEX pool's reserve in USD (null for CEX). */
  liquidity: number | null;
  /** A pulled pool: its reserve falls this many times every 30 minutes, refilled every 2 hours. */
  drain?: number;
  /** The bid/ask spread in percent where the venue gives a book (Binance); else null. */
  spreadPct: number | null;
  /** A pool's own name with its fee tier; null for CEX. */
  poolName: string | null;
  /** A young pool: created this long before the start of each 12-hour period (always < 24 h old). */
  youngByMs?: number;
}

interface Walk {
  key: number;
  vol: number;
  eventMax: number;
  /** Scale of the fat-tailed trend layer (log units); 0 for every walk but the DEX-only tokens. */
  trend: number;
  /** Place of a trending walk among them (its turn in the burst rota), and their number. */
  trendSlot: number;
  trendSlots: number;
  /** A showcase walk: log change per 30 minutes, reset every `periodMs` (shifted by `phaseMs`). */
  saw?: { per30min: number; periodMs: number; phaseMs: number };
}

interface Universe {
  instruments: SimInstrument[];
  walks: Walk[];
  /** Walks that may pump or dump (not the majors). */
  eventWalks: number[];
}

function evmAddress(key: number): string {
  let hex = "";
  for (let i = 0; hex.length < 40; i++) hex += hash(key, 0xadd, i).toString(16).padStart(8, "0");
  return `0x${hex.slice(0, 40)}`;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
function solanaAddress(key: number): string {
  let out = "";
  for (let i = 0; i < 44; i++) out += BASE58[hash(key, 0x501, i) % 58];
  return out;
}

function buildUniverse(seed: number): Universe {
  const walks: Walk[] = [];
  const walkIndex = new Map<string, number>();
  const walkFor = (name: string, vol: number, eventMax: number, trend = 0) => {
    let i = walkIndex.get(name);
    if (i === undefined) {
      i = walks.length;
      walks.push({
        key: hash(seed, hashString(`walk:${name}`)),
        vol,
        eventMax,
        trend,
        trendSlot: 0,
        trendSlots: 0,
      });
      walkIndex.set(name, i);
    }
    return i;
  };
  const instruments: SimInstrument[] = [];
  const add = (
    i:
      & Omit<SimInstrument, "key" | "venueKey" | "liquidity" | "spreadPct" | "poolName">
      & Partial<Pick<SimInstrument, "venueKey" | "liquidity" | "spreadPct" | "poolName">>,
  ) =>
    instruments.push({
      liquidity: null,
      spreadPct: null,
      poolName: null,
      ...i,
      venueKey: i.venueKey ?? cexVenueKey(i.exchange, i.symbol),
      key: hash(seed, hashString(`${i.symbol}@${i.exchange}`)),
    });
  const spread = (name: string) => Math.exp(0.6 * gauss(seed, hashString(`volume:${name}`)));

  CEX_ASSETS.forEach(([asset, price, tier, onCoinbase], rank) => {
    const walk = walkFor(asset, TIER_VOL[tier], TIER_EVENT_MAX[tier]);
    const volume = TIER_VOLUME[tier] * spread(asset);
    const binanceQuotes = rank < 5 ? ["USDT", "USDC", "FDUSD"] : rank < 15 ? ["USDT", "USDC"] : [
      "USDT",
    ];
    for (const [i, quote] of binanceQuotes.entries()) {
      add({
        symbol: `${asset}/${quote}`,
        exchange: "Binance",
        exchangeType: "cex",
        network: null,
        selection: "cex-major",
        poolUrl: binanceTradeUrl(asset, quote),
        basePrice: price,
        baseVolume: volume * (i === 0 ? 1 : 0.12),
        walk,
        venueNoise: 0.0002,
        // Majors trade a tick wide; small caps wider.
        spreadPct: round(
          [0.001, 0.01, 0.04, 0.09][tier]! * (1 + unit(seed, hashString(`spread:${asset}`))),
        ),
      });
    }
    if (onCoinbase) {
      for (const quote of rank < 5 ? ["USD", "USDT"] : ["USD"]) {
        add({
          symbol: `${asset}/${quote}`,
          exchange: "Coinbase",
          exchangeType: "cex",
          network: null,
          selection: "coinbase",
          poolUrl: coinbaseTradeUrl(`${asset}-${quote}`),
          basePrice: price,
          baseVolume: volume * (quote === "USD" ? 0.3 : 0.02),
          walk,
          venueNoise: 0.0003,
        });
      }
    }
  });

  for (
    const [networkId, pools] of Object.entries(DEX_POOLS) as [DexNetworkId, typeof DEX_POOLS.eth][]
  ) {
    const net = DEX_NETWORKS[networkId];
    for (const [token, price] of pools.tokens) {
      const cex = CEX_ASSETS.find(([a]) => a === token);
      // A token listed on CEXs moves with its CEX walk; DEX-only tokens are wilder (0.3–0.6 %).
      const walk = cex ? walkFor(token, TIER_VOL[cex[2]], TIER_EVENT_MAX[cex[2]]) : walkFor(
        `${networkId}:${token}`,
        0.003 + 0.003 * unit(seed, hashString(token)),
        0.4,
        DEX_TREND * (0.6 + 0.8 * unit(seed, hashString(`trend:${token}`))),
      );
      const volume = 3e6 * spread(`${networkId}:${token}`) * (cex ? 3 : 1);
      const tokenIndex = pools.tokens.findIndex(([t]) => t === token);
      pools.dexes.forEach((dex, i) => {
        const symbol = `${token}/${pools.quote}`;
        const key = hash(seed, hashString(`${symbol}@${dex}:${networkId}`));
        const address = networkId === "solana" ? solanaAddress(key) : evmAddress(key);
        add({
          venueKey: dexVenueKey(net.network, address),
          symbol,
          exchange: `${dex} (${net.name})`,
          exchangeType: "dex",
          network: net.network,
          selection: "dex",
          poolUrl: geckoTerminalPoolUrl(networkId, address),
          basePrice: price,
          baseVolume: volume * (i === 0 ? 1 : 0.25),
          walk,
          venueNoise: 0.001,
          // A reserve of 0.3–2 days of volume; the second DEX's pools of the last tokens of each
          // network are thin ($30k–$90k).
          liquidity: i === 1 && tokenIndex >= 8
            ? Math.round(30_000 + 60_000 * unit(seed, hashString(`liquidity:${symbol}@${dex}`)))
            : Math.round(
              volume * (i === 0 ? 1 : 0.25) *
                (0.3 + 1.7 * unit(seed, hashString(`liquidity:${symbol}@${dex}`))),
            ),
          poolName: `${token} / ${pools.quote}${
            DEX_FEE_TIERS[dex] ? ` ${DEX_FEE_TIERS[dex]}` : ""
          }`,
        });
      });
    }
  }
  // The showcase (decision 0046): sawtooth walks, no events.
  const bsc = DEX_NETWORKS.bsc;
  for (const show of SHOWCASE) {
    const walk = walkFor(`showcase:${show.asset}`, 0.0005, 0);
    walks[walk]!.saw = {
      per30min: Math.log(1 + show.per30min),
      periodMs: SHOWCASE_PERIOD_MS,
      phaseMs: show.phaseMs,
    };
    for (const venue of show.venues) {
      if (venue.kind === "cex") {
        add({
          symbol: `${show.asset}/USDT`,
          exchange: "Binance",
          exchangeType: "cex",
          network: null,
          selection: "cex-major",
          poolUrl: binanceTradeUrl(show.asset, "USDT"),
          basePrice: show.price,
          baseVolume: venue.volume,
          walk,
          venueNoise: 0.0002,
          spreadPct: venue.volume < 250_000 ? 0.8 : 0.03,
        });
        continue;
      }
      const symbol = `${show.asset}/WBNB`;
      const key = hash(seed, hashString(`showcase:${symbol}@${venue.dex}:${venue.fee ?? ""}`));
      const address = evmAddress(key);
      add({
        venueKey: dexVenueKey(bsc.network, address),
        symbol,
        exchange: `${venue.dex} (${bsc.name})`,
        exchangeType: "dex",
        network: bsc.network,
        selection: "dex",
        poolUrl: geckoTerminalPoolUrl("bsc", address),
        basePrice: show.price,
        baseVolume: venue.volume,
        walk,
        venueNoise: 0.0005,
        liquidity: venue.liquidity,
        poolName: `${show.asset} / WBNB${venue.fee ? ` ${venue.fee}` : ""}`,
        ...(venue.drain ? { drain: venue.drain } : {}),
        ...(venue.youngByMs ? { youngByMs: venue.youngByMs } : {}),
      });
    }
  }
  const eventWalks = walks.flatMap((w, i) => (w.eventMax > 0 ? [i] : []));
  const trending = walks.filter((w) => w.trend > 0);
  trending.forEach((w, i) => {
    w.trendSlot = i;
    w.trendSlots = trending.length;
  });
  return { instruments, walks, eventWalks };
}

/** Fee tiers of the simulated DEXes (in pool names, as GeckoTerminal shows them). */
const DEX_FEE_TIERS: Record<string, string> = {
  "Uniswap V3": "0.3%",
  "PancakeSwap V3": "0.25%",
  "Orca": "0.3%",
};

/** A pulled pool drains for 2 hours (to a 39th of its reserve at 2.5 times per 30 min), then refills. */
const DRAIN_PERIOD_MS = 2 * 3_600_000;

/** The showcase's sawtooth period: each move climbs (or falls) for 6 hours, then resets. */
export const SHOWCASE_PERIOD_MS = 6 * 3_600_000;

type ShowVenue =
  | { kind: "cex"; volume: number }
  | {
    kind: "dex";
    dex: string;
    fee?: string;
    volume: number;
    liquidity: number;
    drain?: number;
    youngByMs?: number;
  };

/** The showcase of decision 0046, on Binance and BNB Chain (see the header). */
export const SHOWCASE: readonly {
  asset: string;
  price: number;
  per30min: number;
  phaseMs: number;
  venues: readonly ShowVenue[];
}[] = [
  {
    // Confirmed (Binance and PancakeSwap), grouped (three pools, two of PancakeSwap V3).
    asset: "SFP",
    price: 0.7,
    per30min: 0.07,
    phaseMs: 2 * 3_600_000,
    venues: [
      { kind: "cex", volume: 8_000_000 },
      { kind: "dex", dex: "PancakeSwap V3", fee: "0.25%", volume: 2_400_000, liquidity: 3_100_000 },
      { kind: "dex", dex: "PancakeSwap V3", fee: "1%", volume: 300_000, liquidity: 60_000 },
      { kind: "dex", dex: "PancakeSwap V2", volume: 900_000, liquidity: 1_200_000 },
    ],
  },
  {
    // Wash-traded: 50 times its reserve a day.
    asset: "WSHX",
    price: 0.012,
    per30min: 0.09,
    phaseMs: 3 * 3_600_000,
    venues: [{ kind: "dex", dex: "PancakeSwap V2", volume: 15_000_000, liquidity: 300_000 }],
  },
  {
    // Young: created 1 hour before each 12-hour period began.
    asset: "NEWB",
    price: 0.004,
    per30min: 0.11,
    phaseMs: 4 * 3_600_000,
    venues: [{
      kind: "dex",
      dex: "PancakeSwap V3",
      fee: "1%",
      volume: 700_000,
      liquidity: 450_000,
      youngByMs: 3_600_000,
    }],
  },
  {
    // Pulled: the reserve drains 2.5 times every 30 minutes while the price falls.
    asset: "RUGX",
    price: 0.3,
    per30min: -0.06,
    phaseMs: 5 * 3_600_000,
    venues: [{
      kind: "dex",
      dex: "PancakeSwap V2",
      volume: 1_500_000,
      liquidity: 40_000_000,
      drain: 2.5,
    }],
  },
  {
    // Thin on a CEX: $60k of 24 h volume.
    asset: "LOWV",
    price: 0.05,
    per30min: 0.08,
    phaseMs: 1 * 3_600_000,
    venues: [{ kind: "cex", volume: 60_000 }],
  },
];

/** Where a showcase walk is in its sawtooth at `ms` (0 at a reset). */
function sawPosition(saw: NonNullable<Walk["saw"]>, ms: number): number {
  return (((ms + saw.phaseMs) % saw.periodMs) + saw.periodMs) % saw.periodMs;
}

const universes = new Map<number, Universe>();
function universe(seed: number): Universe {
  let u = universes.get(seed);
  if (!u) universes.set(seed, u = buildUniverse(seed));
  return u;
}

/** The simulated instruments (for tests and the local stack's tooling). */
export function simulatedInstruments(seed = DEFAULT_SEED): readonly SimInstrument[] {
  return universe(seed).instruments;
}

// ---------------------------------------------------------------------------------------------
// Prices.

/**
 * The trend layer of trending DEX pools: smooth value noise at periods of 5, 15 and 45 minutes
 * whose knots are normal draws, some of them scaled up: a scale mixture with fat tails. Most
 * knots are modest; a few are several times larger, so a pool runs 10–50 % within half an hour
 * now and then while a major coin rarely moves 3 %. It is bounded (stationary), so prices stay
 * around their base over days.
 */
function trendAt(walk: Walk, bucket: number): number {
  let sum = 0;
  for (const [i, period] of TREND_PERIODS.entries()) {
    const j = Math.floor(bucket / period);
    const f = (bucket - j * period) / period;
    const s = f * f * (3 - 2 * f);
    // A normal draw, scaled up TREND_BURST times for a share TREND_BURST_SHARE of the trending
    // walks at each knot: a rota whose start moves randomly from knot to knot, so the number of
    // bursting pools stays constant while which pools burst is random.
    const knot = (n: number) => {
      const turn = (walk.trendSlot + hash(0x7e0 + i, n)) % walk.trendSlots;
      const burst = turn < Math.round(TREND_BURST_SHARE * walk.trendSlots);
      return gauss(walk.key, 0x7d0 + i, n) * (burst ? TREND_BURST : 1);
    };
    sum += TREND_WEIGHTS[i]! * ((1 - s) * knot(j) + s * knot(j + 1));
  }
  return walk.trend * sum;
}

/** The shared walk's log offset at a 10-second bucket. */
function walkAt(walk: Walk, bucket: number): number {
  const c = walk.vol / 2;
  let sum = c * gauss(walk.key, 0, bucket);
  for (let k = 1; k <= OCTAVES; k++) {
    const size = 2 ** k;
    const j = Math.floor(bucket / size);
    const f = (bucket - j * size) / size;
    const value = (1 - f) * gauss(walk.key, k, j) + f * gauss(walk.key, k, j + 1);
    sum += c * Math.SQRT2 ** k * value;
  }
  if (walk.saw) {
    sum += walk.saw.per30min * sawPosition(walk.saw, bucket * SIM_BUCKET_MS) / 1_800_000;
  }
  return walk.trend > 0 ? sum + trendAt(walk, bucket) : sum;
}

export interface SimEvent {
  /** Index into `simulatedInstruments()`' walks: every instrument of the asset moves. */
  walk: number;
  /** When the move starts and peaks (epoch ms). */
  startMs: number;
  peakMs: number;
  /** Relative move at the peak: +0.3 = +30 %, −0.2 = −20 %. */
  move: number;
  /** Decay time constant after the peak. */
  decayMs: number;
}

/** The pumps and dumps that start in 20-minute period `epoch` (= floor(ms / 20 min)). */
export function simulatedEvents(epoch: number, seed = DEFAULT_SEED): SimEvent[] {
  const u = universe(seed);
  const count = 2 + Math.floor(unit(seed, 0xe7e, epoch) * 3);
  const events: SimEvent[] = [];
  for (let i = 0; i < count; i++) {
    const walk = u.eventWalks[Math.floor(unit(seed, 0xe7e, epoch, i, 1) * u.eventWalks.length)]!;
    const max = u.walks[walk]!.eventMax;
    const size = 0.05 + (max - 0.05) * unit(seed, 0xe7e, epoch, i, 2) ** 2;
    const pump = unit(seed, 0xe7e, epoch, i, 3) < 0.65;
    const startMs = epoch * SIM_EVENT_PERIOD_MS +
      Math.floor(unit(seed, 0xe7e, epoch, i, 4) * 15 * 60) * 1000;
    const rampMs = (60 + Math.floor(unit(seed, 0xe7e, epoch, i, 5) * 240)) * 1000;
    events.push({
      walk,
      startMs,
      peakMs: startMs + rampMs,
      move: pump ? size : -size,
      decayMs: (5 + 10 * unit(seed, 0xe7e, epoch, i, 6)) * 60_000,
    });
  }
  return events;
}

/** Log offset of an event at time `ms`: a smooth ramp to the peak, then a decay to zero. */
function eventOffset(e: SimEvent, ms: number): number {
  if (ms <= e.startMs) return 0;
  const peak = Math.log(1 + e.move);
  if (ms < e.peakMs) {
    const x = (ms - e.startMs) / (e.peakMs - e.startMs);
    return peak * x * x * (3 - 2 * x);
  }
  const after = ms - e.peakMs;
  if (after >= EVENT_TAIL_MS) return 0;
  return peak * Math.exp(-after / e.decayMs) * (1 - after / EVENT_TAIL_MS);
}

function round(value: number): number {
  return Number(value.toPrecision(8));
}

/** Every instrument's price and 24 h volume in one 10-second bucket. */
function valuesAt(
  u: Universe,
  seed: number,
  bucket: number,
): { prices: number[]; volumes: number[]; liquidities: (number | null)[] } {
  const ms = bucket * SIM_BUCKET_MS;
  const walkOffsets = u.walks.map((w) => walkAt(w, bucket));
  // How far each walk went in the last 30 minutes (180 buckets): trading swells with it, as a
  // real move brings volume (the trust rules flag a move whose volume did not rise).
  const walkMoves = u.walks.map((w, i) => Math.abs(walkOffsets[i]! - walkAt(w, bucket - 180)));
  const eventOffsets = new Map<number, number>();
  // Events start at most 20 min into their period and are gone an hour after their peak.
  const epoch = Math.floor(ms / SIM_EVENT_PERIOD_MS);
  for (let e = epoch - 4; e <= epoch; e++) {
    for (const ev of simulatedEvents(e, seed)) {
      const off = eventOffset(ev, ms);
      if (off !== 0) eventOffsets.set(ev.walk, (eventOffsets.get(ev.walk) ?? 0) + off);
    }
  }
  const hour = Math.floor(ms / 3_600_000);
  const prices: number[] = [];
  const volumes: number[] = [];
  const liquidities: (number | null)[] = [];
  for (const inst of u.instruments) {
    const saw = u.walks[inst.walk]!.saw;
    const sawShare = saw ? sawPosition(saw, ms) / saw.periodMs : 0;
    // A pulled pool drains from its full reserve after each reset of its saw.
    liquidities.push(
      inst.liquidity === null ? null : Math.round(
        inst.drain && saw
          ? inst.liquidity * inst.drain ** -((sawPosition(saw, ms) % DRAIN_PERIOD_MS) / 1_800_000)
          : inst.liquidity * (1 + 0.05 * Math.sin(bucket / 97 + (inst.key % 7))),
      ),
    );
    const event = eventOffsets.get(inst.walk) ?? 0;
    const log = walkOffsets[inst.walk]! + event + inst.venueNoise * gauss(inst.key, 0x7e, bucket);
    prices.push(round(inst.basePrice * Math.exp(log)));
    // Volume drifts hour to hour and swells while the asset is moving hard (an event, or its
    // walk's last 30 minutes). The showcase's saw-tooth assets keep their own volume shapes.
    volumes.push(
      Math.round(
        inst.baseVolume * (saw ? 1 + sawShare : Math.exp(0.25 * gauss(inst.key, 0x70, hour))) *
          (1 + 4 * Math.abs(event) + (saw ? 0 : 4 * walkMoves[inst.walk]!)),
      ),
    );
  }
  return { prices, volumes, liquidities };
}

/** Every simulated instrument's quote at `at` (constant within a 10-second bucket). */
export function simulatedQuotes(at: Date, seed = DEFAULT_SEED): Quote[] {
  const u = universe(seed);
  const { prices, volumes, liquidities } = valuesAt(
    u,
    seed,
    Math.floor(at.getTime() / SIM_BUCKET_MS),
  );
  const ts = at.toISOString();
  const period = Math.floor(at.getTime() / 43_200_000) * 43_200_000;
  return u.instruments.map((inst, i) => ({
    ...identity(inst),
    selection: inst.selection,
    price: prices[i]!,
    volume24h: volumes[i]!,
    ts,
    volume24hUsd: volumes[i]!,
    ...(inst.exchangeType === "dex"
      ? {
        liquidityUsd: liquidities[i]!,
        poolName: inst.poolName,
        poolCreatedAt: inst.youngByMs
          ? new Date(period - inst.youngByMs).toISOString()
          : "2025-06-01T00:00:00.000Z",
      }
      : { spreadPct: inst.spreadPct }),
  }));
}

function identity(inst: SimInstrument): HistoryBatch["instruments"][number] {
  return {
    venueKey: inst.venueKey,
    symbol: inst.symbol,
    exchange: inst.exchange,
    exchangeType: inst.exchangeType,
    network: inst.network,
    source: "simulated",
    poolUrl: inst.poolUrl,
  };
}

/** Older history is sampled every minute; the last half hour at the scan's 10 seconds. */
export const SIM_HISTORY_COARSE_MS = 60_000;
export const SIM_HISTORY_FINE_SPAN_MS = 30 * 60_000;

/**
 * The simulated market's past between `from` and `to` (both included, on 10-second buckets):
 * the same prices the live scans saw or would have seen, every minute, and every 10 seconds in
 * the last 30 minutes before `to`, where the short windows look.
 */
export function simulatedHistory(from: Date, to: Date, seed = DEFAULT_SEED): HistoryBatch {
  const u = universe(seed);
  const first = Math.ceil(from.getTime() / SIM_BUCKET_MS);
  const last = Math.floor(to.getTime() / SIM_BUCKET_MS);
  const fineFrom = last - SIM_HISTORY_FINE_SPAN_MS / SIM_BUCKET_MS;
  const coarse = SIM_HISTORY_COARSE_MS / SIM_BUCKET_MS;
  const buckets: number[] = [];
  for (let b = first; b <= last; b++) if (b >= fineFrom || b % coarse === 0) buckets.push(b);
  const prices = u.instruments.map(() => [] as number[]);
  const volumes = u.instruments.map(() => [] as number[]);
  for (const b of buckets) {
    const v = valuesAt(u, seed, b);
    for (let i = 0; i < u.instruments.length; i++) {
      prices[i]!.push(v.prices[i]!);
      volumes[i]!.push(v.volumes[i]!);
    }
  }
  return {
    instruments: u.instruments.map(identity),
    stamps: buckets.map((b) => new Date(b * SIM_BUCKET_MS).toISOString()),
    prices,
    volumes,
  };
}

export interface SimulatedAdapterOptions {
  seed?: number;
}

/** The simulated source as an adapter (never throws, never rate-limited). */
export function createSimulatedAdapter(sim: SimulatedAdapterOptions = {}): MarketAdapter {
  const seed = sim.seed ?? DEFAULT_SEED;
  return {
    source: "simulated",
    fetchQuotes(opts: FetchQuotesOptions = {}): Promise<FetchQuotesResult> {
      const now = opts.now?.() ?? new Date();
      return Promise.resolve({
        quotes: simulatedQuotes(now, seed),
        ...NO_ROWS,
        source: "simulated",
      });
    },
    history: ({ from, to }) => simulatedHistory(from, to, seed),
  };
}
