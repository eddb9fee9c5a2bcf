// The trust rules of decision 0046 (supabase/functions/_shared/domain/trust.ts) on recorded venue
// payloads; Deno, because the recordings are read from disk.
import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { parseBinanceTickers } from "./binance.ts";
import { parseGeckoTerminalPools } from "./geckoterminal.ts";
import { loadMarketFixture } from "./testing.ts";
import {
  assetOf,
  confirmedOn,
  isThin,
  type MoveFigures,
  moverFlags,
  rankWeight,
  spreadPct,
  trustScore,
  type VenueMove,
} from "../domain/trust.ts";

const NOW = new Date("2026-03-02T12:00:05.000Z");

/** A quiet, deep DEX move: no rule fires. */
function move(overrides: Partial<MoveFigures> = {}): MoveFigures {
  return {
    exchangeType: "dex",
    pct: 12,
    price: 1,
    volume24h: 2_000_000,
    volume24hAtStart: 1_500_000,
    volume24hUsd: 2_000_000,
    liquidityUsd: 1_000_000,
    liquidityUsdAtStart: 1_000_000,
    poolCreatedAt: "2025-01-01T00:00:00Z",
    cexPrice: null,
    ...overrides,
  };
}

Deno.test("trust: the asset key is the base upper-cased, wrapped natives as their native", () => {
  deepStrictEqual(
    ["SFP/WBNB", "weth/USDC", "WBNB/USDT", "Cake/WBNB", "WBTC/USDT", "币安人生/USDT"].map(assetOf),
    ["SFP", "ETH", "BNB", "CAKE", "WBTC", "币安人生"],
  );
});

Deno.test("trust: the spread of a recorded Binance 24 h ticker (bidPrice/askPrice)", async () => {
  const body = await loadMarketFixture("binance-ticker-24hr");
  const { quotes } = parseBinanceTickers(body, NOW);
  const btc = quotes.find((q) => q.symbol === "BTC/USDT")!;
  // 66909.22090110 / 66909.89.
  assertEquals(btc.spreadPct, 0.001);
  assertEquals(spreadPct(99, 101), 2);
  // No book, a crossed book or a zero bid: no spread rather than a wrong one.
  deepStrictEqual([spreadPct(null, 1), spreadPct(2, 1), spreadPct(0, 1)], [null, null, null]);
});

Deno.test("trust: thin below $250k 24 h volume (CEX) or $100k reserve (DEX); unknown is thin", async () => {
  assertEquals(isThin("cex", { volume24hUsd: 249_999, liquidityUsd: null }), true);
  assertEquals(isThin("cex", { volume24hUsd: 250_000, liquidityUsd: null }), false);
  assertEquals(isThin("cex", { volume24hUsd: null, liquidityUsd: null }), true);
  assertEquals(isThin("dex", { volume24hUsd: 9e9, liquidityUsd: 99_999 }), true);
  assertEquals(isThin("dex", { volume24hUsd: 0, liquidityUsd: 100_000 }), false);
  // Recorded Solana pools: CATGPT/SOL ($81,234.5 in reserve) is thin, the others are not.
  const body = await loadMarketFixture("geckoterminal-trending-solana");
  const { quotes } = parseGeckoTerminalPools(body, "solana", NOW);
  const thin = quotes.filter((q) =>
    isThin("dex", { volume24hUsd: q.volume24hUsd ?? null, liquidityUsd: q.liquidityUsd ?? null })
  );
  deepStrictEqual(thin.map((q) => [q.symbol, q.liquidityUsd]), [["CATGPT/SOL", 81234.5]]);
});

Deno.test("trust: no_volume_rise — a move of 3 % or more whose 24 h volume did not rise", () => {
  deepStrictEqual(moverFlags(move({ volume24h: 1_500_000 }), NOW), ["no_volume_rise"]);
  deepStrictEqual(moverFlags(move({ volume24h: 1_400_000, pct: -5 }), NOW), ["no_volume_rise"]);
  // A small move, a rise, or no volume at the window's start: no flag.
  deepStrictEqual(moverFlags(move({ volume24h: 1_400_000, pct: 2.9 }), NOW), []);
  deepStrictEqual(moverFlags(move({ volume24h: 1_500_001 }), NOW), []);
  deepStrictEqual(moverFlags(move({ volume24hAtStart: null }), NOW), []);
});

Deno.test("trust: young_pool — created less than 24 h ago (recorded pool_created_at)", async () => {
  deepStrictEqual(moverFlags(move({ poolCreatedAt: "2026-03-01T12:00:06Z" }), NOW), ["young_pool"]);
  deepStrictEqual(moverFlags(move({ poolCreatedAt: "2026-03-01T12:00:05Z" }), NOW), []);
  deepStrictEqual(moverFlags(move({ poolCreatedAt: null }), NOW), []);
  // A recorded pool (created 2023-04-03) is old a day after; a CEX pair has no pool.
  const { quotes } = parseGeckoTerminalPools(
    await loadMarketFixture("geckoterminal-trending-bsc"),
    "bsc",
    NOW,
  );
  const created = quotes[0]!.poolCreatedAt!;
  deepStrictEqual(
    moverFlags(move({ poolCreatedAt: created }), new Date(Date.parse(created) + 3_600_000)),
    [
      "young_pool",
    ],
  );
  deepStrictEqual(moverFlags(move({ poolCreatedAt: created }), NOW), []);
  deepStrictEqual(
    moverFlags(move({ exchangeType: "cex", poolCreatedAt: created }), new Date(created)),
    [],
  );
});

Deno.test("trust: pulled_pool — the reserve fell by half or more within the window", () => {
  deepStrictEqual(moverFlags(move({ liquidityUsd: 500_000 }), NOW), ["pulled_pool"]);
  deepStrictEqual(moverFlags(move({ liquidityUsd: 500_001 }), NOW), []);
  deepStrictEqual(moverFlags(move({ liquidityUsdAtStart: null, liquidityUsd: 100_000 }), NOW), []);
});

Deno.test("trust: dex_cex_gap — a DEX price more than 5 % from the asset's CEX price", () => {
  deepStrictEqual(moverFlags(move({ price: 1.06, cexPrice: 1 }), NOW), ["dex_cex_gap"]);
  deepStrictEqual(moverFlags(move({ price: 0.94, cexPrice: 1 }), NOW), ["dex_cex_gap"]);
  deepStrictEqual(moverFlags(move({ price: 1.05, cexPrice: 1 }), NOW), []);
  deepStrictEqual(moverFlags(move({ price: 2, cexPrice: null }), NOW), []);
});

Deno.test("trust: wash_volume — 24 h volume above 20 times the pool's reserve (recorded pools)", async () => {
  deepStrictEqual(moverFlags(move({ volume24hUsd: 20_000_001, volume24h: 20_000_001 }), NOW), [
    "wash_volume",
  ]);
  deepStrictEqual(moverFlags(move({ volume24hUsd: 20_000_000, volume24h: 20_000_000 }), NOW), []);
  // The recorded BSC USDT/WBNB 0.01 % pool trades 5.5 times its reserve a day: not wash.
  const { quotes } = parseGeckoTerminalPools(
    await loadMarketFixture("geckoterminal-trending-bsc"),
    "bsc",
    NOW,
  );
  const q = quotes[0]!;
  const flags = moverFlags(
    move({
      volume24hUsd: q.volume24hUsd!,
      liquidityUsd: q.liquidityUsd!,
      liquidityUsdAtStart: q.liquidityUsd!,
    }),
    NOW,
  );
  deepStrictEqual(flags, []);
});

Deno.test("trust: confirmation — same asset, same way, another venue; DEX needs a CEX", () => {
  const moves: VenueMove[] = [
    { asset: "SFP", exchange: "Binance", exchangeType: "cex", pct: 8 },
    { asset: "SFP", exchange: "Coinbase", exchangeType: "cex", pct: 2.5 },
    { asset: "SFP", exchange: "PancakeSwap V3 (BNB Chain)", exchangeType: "dex", pct: 9 },
    { asset: "SFP", exchange: "PancakeSwap V2 (BNB Chain)", exchangeType: "dex", pct: 9 },
    { asset: "SFP", exchange: "Gate", exchangeType: "cex", pct: -4 },
    { asset: "SFP", exchange: "Kraken", exchangeType: "cex", pct: 1.9 },
    { asset: "DOGE", exchange: "Bybit", exchangeType: "cex", pct: 8 },
  ];
  deepStrictEqual(confirmedOn(moves[0]!, moves), [
    "Coinbase",
    "PancakeSwap V2 (BNB Chain)",
    "PancakeSwap V3 (BNB Chain)",
  ]);
  // A pool is confirmed by the CEX venues, not by the other pool.
  deepStrictEqual(confirmedOn(moves[2]!, moves), ["Binance", "Coinbase"]);
  // A fall is confirmed by falls only; a move under 2 % confirms nothing and is not confirmed.
  deepStrictEqual(confirmedOn(moves[4]!, moves), []);
  deepStrictEqual(confirmedOn(moves[5]!, moves), []);
});

Deno.test("trust: the score — depth, confirmation, flags, thin, spread; clamped to 0..100", () => {
  const base = {
    exchangeType: "cex" as const,
    volume24hUsd: 10_000_000,
    liquidityUsd: null,
    spreadPct: 0.01,
    thin: false,
    flags: [],
    confirmedOn: [],
  };
  assertEquals(trustScore(base), 70); // 20 + 50
  assertEquals(trustScore({ ...base, confirmedOn: ["A", "B", "C"] }), 100); // + 2 × 15
  assertEquals(trustScore({ ...base, volume24hUsd: 100_000 }), 45); // 20 + 25
  assertEquals(trustScore({ ...base, volume24hUsd: 10_000 }), 33); // 20 + 12.5 rounded up
  assertEquals(trustScore({ ...base, volume24hUsd: 100_000, thin: true }), 25);
  assertEquals(trustScore({ ...base, spreadPct: 1.5 }), 60);
  assertEquals(
    trustScore({
      ...base,
      exchangeType: "dex",
      liquidityUsd: 1_000_000,
      flags: ["young_pool", "wash_volume"],
    }),
    8, // 20 + 37.5 → 38 - 50
  );
  assertEquals(
    trustScore({ ...base, volume24hUsd: null, thin: true, flags: ["no_volume_rise"] }),
    0,
  );
});

Deno.test("trust: flags and thinness lower the rank, never to nothing", () => {
  assertEquals(rankWeight([], false), 1);
  assertEquals(rankWeight(["young_pool"], false), 0.5);
  assertEquals(rankWeight(["young_pool", "pulled_pool"], true), 0.125);
  // A flagged +40 % still outranks an unflagged +4 %, but not an unflagged +25 %.
  const flagged = 40 * rankWeight(["wash_volume"], false);
  assertEquals(flagged > 4 && flagged < 25, true);
});
