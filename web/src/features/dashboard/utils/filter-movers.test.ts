import type { MoverEntry } from "@domain/realtime";
import { describe, expect, it } from "vitest";
import { EXCHANGE_SELECTIONS } from "@domain/market";
import {
  filterMovers,
  filterOptions,
  inSelectedExchanges,
  type MoverFilters,
  parseMinPercent,
  venueOf,
} from "./filter-movers";

function entry(overrides: Partial<MoverEntry>): MoverEntry {
  return {
    id: 1,
    instrument_id: 1,
    symbol: "SOL/USDT",
    exchange: "Binance",
    exchange_type: "cex",
    network: null,
    source: "binance",
    pool_url: null,
    price: 1,
    price_3hour_ago: null,
    pct: 5,
    window_used: 15,
    pct_3hour: null,
    volume_24h: null,
    volume_24h_usd: null,
    liquidity_usd: null,
    spread_pct: null,
    thin: false,
    confirmed_on: [],
    flags: [],
    trust_score: 50,
    asset: "SOL",
    pool_name: null,
    ts: "2026-11-21T12:00:00Z",
    ...overrides,
  };
}

const none: MoverFilters = {
  direction: "all",
  minPercent: 0,
  threshold: 0,
  selectedExchanges: EXCHANGE_SELECTIONS,
  sources: [],
  networks: [],
  venues: [],
};

const list = [
  entry({ instrument_id: 1, pct: 12 }),
  entry({ instrument_id: 2, pct: -8 }),
  entry({ instrument_id: 3, pct: 0 }),
  entry({
    instrument_id: 4,
    pct: 30,
    exchange: "Uniswap V3 (base)",
    exchange_type: "dex",
    network: "base",
  }),
];
const ids = (entries: MoverEntry[]) => entries.map((e) => e.instrument_id);

describe("parseMinPercent", () => {
  it("turns non-numeric input into 0 and clamps to 0–1000", () => {
    expect(parseMinPercent("abc")).toBe(0);
    expect(parseMinPercent("")).toBe(0);
    expect(parseMinPercent(null)).toBe(0);
    expect(parseMinPercent("15")).toBe(15);
    expect(parseMinPercent("-5")).toBe(0);
    expect(parseMinPercent("5000")).toBe(1000);
  });
});

describe("venueOf", () => {
  it("strips the network from a DEX's exchange text; CEX entries have none", () => {
    expect(venueOf({ exchange: "Uniswap V3 (ethereum)", exchange_type: "dex" })).toBe("Uniswap V3");
    expect(venueOf({ exchange: "Binance", exchange_type: "cex" })).toBeNull();
  });
});

describe("filterMovers", () => {
  it("keeps all entries without filters", () => {
    expect(ids(filterMovers(list, none))).toEqual([1, 2, 3, 4]);
  });

  it("shows gains above 0 and losses below 0", () => {
    expect(ids(filterMovers(list, { ...none, direction: "gains" }))).toEqual([1, 4]);
    expect(ids(filterMovers(list, { ...none, direction: "losses" }))).toEqual([2]);
  });

  it("hides entries below the minimum percent and below the user's threshold (absolute)", () => {
    expect(ids(filterMovers(list, { ...none, minPercent: 10 }))).toEqual([1, 4]);
    expect(ids(filterMovers(list, { ...none, threshold: 8 }))).toEqual([1, 2, 4]);
  });

  it("filters by source, network and DEX", () => {
    expect(ids(filterMovers(list, { ...none, sources: ["cex"] }))).toEqual([1, 2, 3]);
    expect(ids(filterMovers(list, { ...none, networks: ["base"] }))).toEqual([4]);
    expect(ids(filterMovers(list, { ...none, venues: ["Uniswap V3"] }))).toEqual([4]);
  });
});

describe("filterMovers: the user's exchanges (selected_exchanges)", () => {
  const venues = [
    entry({ instrument_id: 1, exchange: "Binance", source: "binance" }),
    entry({ instrument_id: 2, exchange: "Coinbase", source: "coinbase" }),
    entry({
      instrument_id: 3,
      exchange: "Uniswap V3 (Ethereum)",
      exchange_type: "dex",
      network: "ethereum",
      source: "dex",
    }),
    // The simulated market's venues.
    entry({ instrument_id: 4, exchange: "Binance", source: "simulated" }),
    entry({ instrument_id: 5, exchange: "Coinbase", source: "simulated" }),
    entry({
      instrument_id: 6,
      exchange: "Raydium (Solana)",
      exchange_type: "dex",
      network: "solana",
      source: "simulated",
    }),
  ];

  it.each([
    [
      ["coinbase", "dex", "cex-major"],
      [1, 2, 3, 4, 5, 6],
    ],
    [["coinbase"], [2, 5]],
    [["dex"], [3, 6]],
    [["cex-major"], [1, 4]],
    [
      ["coinbase", "dex"],
      [2, 3, 5, 6],
    ],
    [[], []],
  ] as const)("with %j shows %j", (selectedExchanges, shown) => {
    expect(ids(filterMovers(venues, { ...none, selectedExchanges }))).toEqual(shown);
  });

  it("applies together with the other filters", () => {
    const filters = { ...none, selectedExchanges: ["coinbase", "dex"] as const };
    expect(ids(filterMovers(venues, { ...filters, sources: ["cex"] }))).toEqual([2, 5]);
    expect(ids(filterMovers(venues, { ...filters, networks: ["solana"] }))).toEqual([6]);
    expect(ids(filterMovers(venues, { ...filters, threshold: 10 }))).toEqual([]);
  });

  it("tells whether one entry is among the user's exchanges", () => {
    expect(inSelectedExchanges(venues[1], ["coinbase"])).toBe(true);
    expect(inSelectedExchanges(venues[0], ["coinbase", "dex"])).toBe(false);
    expect(inSelectedExchanges(venues[5], [])).toBe(false);
  });
});

describe("filterOptions", () => {
  it("lists the distinct values, sorted", () => {
    expect(filterOptions(list)).toEqual({
      sources: ["cex", "dex"],
      networks: ["base"],
      venues: ["Uniswap V3"],
      exchanges: ["Binance", "Uniswap V3 (base)"],
    });
  });
});
