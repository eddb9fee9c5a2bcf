import { describe, expect, it } from "vitest";
import {
  applyTrustFilters,
  groupByAsset,
  sortGroups,
  type TrustEntry,
  trustLevel,
  trustOf,
  trustReasons,
  visibleRows,
} from "./trust";

let nextId = 1;
function row(overrides: Partial<TrustEntry>): TrustEntry {
  const id = nextId++;
  return {
    id,
    instrument_id: id,
    symbol: "SFP/WBNB",
    exchange: "PancakeSwap V3 (bsc)",
    exchange_type: "dex",
    network: "bsc",
    source: "dex",
    pool_url: null,
    price: 1,
    price_3hour_ago: null,
    pct: 10,
    window_used: 15,
    pct_3hour: null,
    volume_24h: null,
    ts: "2026-11-26T03:00:00Z",
    volume_24h_usd: 100_000,
    liquidity_usd: 50_000,
    spread_pct: null,
    thin: false,
    confirmed_on: [],
    flags: [],
    trust_score: 50,
    asset: "SFP",
    pool_name: null,
    ...overrides,
  };
}

describe("trustOf", () => {
  it("reads a row from an older server (no issue 26 fields) without failing", () => {
    const old: Partial<TrustEntry> & Pick<TrustEntry, "instrument_id"> = row({});
    for (const key of [
      "volume_24h_usd",
      "liquidity_usd",
      "spread_pct",
      "thin",
      "confirmed_on",
      "flags",
      "trust_score",
      "asset",
      "pool_name",
    ] as const) {
      delete old[key];
    }
    expect(trustOf(old)).toEqual({
      volume_24h_usd: null,
      liquidity_usd: null,
      spread_pct: null,
      thin: false,
      confirmed_on: [],
      flags: [],
      trust_score: null,
      asset: `#${old.instrument_id}`,
      pool_name: null,
    });
  });

  it("drops unknown flags and clamps the score to 0–100", () => {
    const odd = row({ flags: ["young_pool", "moon" as never], trust_score: 140.4 });
    expect(trustOf(odd).flags).toEqual(["young_pool"]);
    expect(trustOf(odd).trust_score).toBe(100);
  });
});

describe("applyTrustFilters", () => {
  const thin = row({ symbol: "THIN/WBNB", thin: true, asset: "THIN" });
  const confirmed = row({ symbol: "BTC/USDT", confirmed_on: ["Coinbase"], asset: "BTC" });
  const alone = row({ symbol: "ETH/USDT", asset: "ETH" });

  it("hides thin moves by default and counts them", () => {
    const result = applyTrustFilters([thin, confirmed, alone], {
      showThin: false,
      confirmedOnly: false,
    });
    expect(result.kept.map((e) => e.symbol)).toEqual(["BTC/USDT", "ETH/USDT"]);
    expect(result.hiddenThin).toBe(1);
    expect(result.hiddenUnconfirmed).toBe(0);
  });

  it("shows thin moves on request, and keeps only confirmed ones when asked, counting them", () => {
    expect(
      applyTrustFilters([thin, confirmed, alone], { showThin: true, confirmedOnly: false }).kept,
    ).toHaveLength(3);
    const result = applyTrustFilters([thin, confirmed, alone], {
      showThin: true,
      confirmedOnly: true,
    });
    expect(result.kept.map((e) => e.symbol)).toEqual(["BTC/USDT"]);
    expect(result.hiddenUnconfirmed).toBe(2);
    expect(result.hiddenThin).toBe(0);
  });
});

describe("groupByAsset", () => {
  it("collapses one asset's venues under its most liquid row, where its best rank stood", () => {
    const v3 = row({ exchange: "PancakeSwap V3 (bsc)", pct: 42.59, liquidity_usd: 80_000 });
    const btc = row({ symbol: "BTC/USDT", asset: "BTC", exchange: "Binance", pct: 42.5 });
    const v2 = row({ exchange: "PancakeSwap V2 (bsc)", pct: 42.34, liquidity_usd: 900_000 });
    const cex = row({ symbol: "SFP/USDT", exchange: "Binance", liquidity_usd: null, pct: 40 });
    const groups = groupByAsset([v3, btc, v2, cex]);
    expect(groups.map((g) => g.asset)).toEqual(["SFP", "BTC"]);
    expect(groups[0]!.lead).toBe(v2);
    expect(groups[0]!.others).toEqual([v3, cex]);
    expect(groups[1]!.others).toEqual([]);
  });

  it("falls back to 24 h volume when no row has liquidity, and keeps the better rank on a tie", () => {
    const first = row({ asset: "XRP", liquidity_usd: null, volume_24h_usd: 10 });
    const deeper = row({ asset: "XRP", liquidity_usd: null, volume_24h_usd: 5_000 });
    const tie = row({ asset: "XRP", liquidity_usd: null, volume_24h_usd: 5_000 });
    expect(groupByAsset([first, deeper, tie])[0]!.lead).toBe(deeper);
  });

  it("gives every row its own group when grouping is off", () => {
    const a = row({});
    const b = row({});
    const groups = groupByAsset([a, b], false);
    expect(groups.map((g) => g.lead)).toEqual([a, b]);
    expect(groups.every((g) => g.others.length === 0)).toBe(true);
  });

  it("lists the open groups' venues after their lead, in order", () => {
    const lead = row({ asset: "SFP", liquidity_usd: 9e6 });
    const other = row({ asset: "SFP", liquidity_usd: 1 });
    const btc = row({ asset: "BTC" });
    const groups = groupByAsset([other, lead, btc]);
    expect(visibleRows(groups, new Set())).toEqual([lead, btc]);
    expect(visibleRows(groups, new Set(["SFP"]))).toEqual([lead, other, btc]);
  });
});

describe("sortGroups", () => {
  const low = row({ asset: "LOW", trust_score: 20 });
  const high = row({ asset: "HIGH", trust_score: 90 });
  const unscored = { ...row({ asset: "NONE" }), trust_score: undefined as unknown as number };
  const alsoHigh = row({ asset: "HIGH2", trust_score: 90 });
  const groups = groupByAsset([unscored, low, high, alsoHigh]);

  it("keeps the server's ranking by default", () => {
    expect(sortGroups(groups, "rank").map((g) => g.asset)).toEqual([
      "NONE",
      "LOW",
      "HIGH",
      "HIGH2",
    ]);
  });

  it("puts the most trusted first, ties in rank order, unscored last", () => {
    expect(sortGroups(groups, "trust").map((g) => g.asset)).toEqual([
      "HIGH",
      "HIGH2",
      "LOW",
      "NONE",
    ]);
  });
});

describe("trustReasons", () => {
  it("spells out every flag, thinness, the confirmation and the measured depth", () => {
    const flagged = row({
      flags: ["pulled_pool", "wash_volume"],
      thin: true,
      confirmed_on: ["Binance", "Coinbase"],
      liquidity_usd: 4_000,
    });
    expect(trustReasons(flagged)).toEqual([
      { kind: "flag", flag: "pulled_pool" },
      { kind: "flag", flag: "wash_volume" },
      { kind: "thin" },
      { kind: "confirmed", venues: ["Binance", "Coinbase"] },
      { kind: "liquidity", usd: 4_000 },
    ]);
  });

  it("says when nothing confirms a CEX move and gives its volume", () => {
    const cex = row({ exchange_type: "cex", liquidity_usd: null, volume_24h_usd: 2e6 });
    expect(trustReasons(cex)).toEqual([{ kind: "unconfirmed" }, { kind: "volume", usd: 2e6 }]);
  });

  it("grades the badge: high from 70, medium from 40", () => {
    expect([100, 70, 69, 40, 39, 0].map(trustLevel)).toEqual([
      "high",
      "high",
      "medium",
      "medium",
      "low",
      "low",
    ]);
  });
});
