import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import {
  createDexAdapter,
  DEX_NETWORK_IDS,
  pairSymbol,
  prettifyDexId,
  trendingPoolsUrl,
} from "./geckoterminal.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "./testing.ts";

const NOW = () => new Date("2026-03-02T12:00:05.000Z");

Deno.test("dex: Ethereum trending pools mapped with the DEX and network names", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-eth");
  const f = fakeFetch(() => jsonResponse(body));
  const adapter = createDexAdapter({ networks: ["eth"] });
  const result = await adapter.fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), [
    "https://api.geckoterminal.com/api/v2/networks/eth/trending_pools?include=dex&page=1",
  ]);
  deepStrictEqual(
    result.quotes.map((q) => [q.symbol, q.exchange]),
    [
      ["PEPE/WETH", "Uniswap V2 (Ethereum)"],
      ["WETH/USDC", "Uniswap V3 (Ethereum)"],
      ["SPX/WETH", "Uniswap V2 (Ethereum)"],
      ["Mog Coin/WETH", "Uniswap V2 (Ethereum)"],
      ["ETH/USDC", "Uniswap V4 (Ethereum)"],
      ["WETH/USDT", "SushiSwap (Ethereum)"],
      ["PEPE/WETH", "Uniswap V3 (Ethereum)"],
    ],
  );
  // No price yet, a name that is not a pair, no address.
  assertEquals(result.skipped, 3);
  deepStrictEqual(result.quotes[0], {
    symbol: "PEPE/WETH",
    exchange: "Uniswap V2 (Ethereum)",
    exchangeType: "dex",
    network: "ethereum",
    source: "dex",
    selection: "dex",
    poolUrl: "https://www.geckoterminal.com/eth/pools/0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
    price: 0.0000108412345678,
    volume24h: 21873412.5312,
    ts: "2026-03-02T12:00:05.000Z",
  });
});

Deno.test("dex: Solana pools; a pool without a volume figure keeps its price", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-solana");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createDexAdapter({ networks: ["solana"] }).fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  deepStrictEqual(
    result.quotes.map((q) => [q.symbol, q.exchange, q.network, q.volume24h === null]),
    [
      ["WIF/SOL", "Raydium (Solana)", "solana", false],
      ["BONK/SOL", "Orca (Solana)", "solana", false],
      ["POPCAT/SOL", "Raydium CLMM (Solana)", "solana", false],
      ["SOL/USDC", "Raydium CLMM (Solana)", "solana", false],
      ["CATGPT/SOL", "Pump.fun (Solana)", "solana", true],
    ],
  );
  assertEquals(
    result.quotes[0]!.poolUrl,
    "https://www.geckoterminal.com/solana/pools/EP2ib6dYdEeqD8MfE2ezHCxX3kP3K2eLKkirfPm5eyMx",
  );
  // A zero price and a pool without attributes.
  assertEquals(result.skipped, 2);
});

Deno.test("dex: each call reads the next network (one call per scan for the rate limit)", async () => {
  const f = fakeFetch(() => jsonResponse({ data: [] }));
  const adapter = createDexAdapter();
  // 12:00:00 is bucket 177245280 of 10 s; 177245280 % 5 = 0 → the rotation starts at eth.
  const now = () => new Date("2026-03-02T12:00:00.000Z");
  for (let i = 0; i < 6; i++) await adapter.fetchQuotes({ fetch: f.fetch, now });
  deepStrictEqual(f.calls.map((c) => c.url), [
    ...DEX_NETWORK_IDS.map(trendingPoolsUrl),
    trendingPoolsUrl("eth"),
  ]);
});

Deno.test("dex: a failing network does not stop the rotation", async () => {
  const f = fakeFetch((url) =>
    url.includes("/eth/") ? new Response("upstream", { status: 500 }) : jsonResponse({ data: [] })
  );
  const adapter = createDexAdapter({ networks: ["eth", "base"] });
  const now = () => new Date(0);
  await adapter.fetchQuotes({ fetch: f.fetch, now }).catch(() => {});
  await adapter.fetchQuotes({ fetch: f.fetch, now });
  assertEquals(adapter.nextNetwork(), "eth");
  deepStrictEqual(f.calls.map((c) => new URL(c.url).pathname.split("/")[4]), ["eth", "base"]);
});

Deno.test("dex: pool names and DEX ids", () => {
  assertEquals(pairSymbol("PEPE / WETH"), "PEPE/WETH");
  assertEquals(pairSymbol("WETH / USDC 0.05%"), "WETH/USDC");
  assertEquals(pairSymbol("WETH / USDC 1%"), "WETH/USDC");
  assertEquals(pairSymbol("Mog Coin / WETH"), "Mog Coin/WETH");
  assertEquals(pairSymbol("WETH-USDC"), null);
  assertEquals(pairSymbol(" / WETH"), null);
  assertEquals(prettifyDexId("uniswap_v3"), "Uniswap V3");
  assertEquals(prettifyDexId("pancakeswap-v3-bsc"), "PancakeSwap V3");
  assertEquals(prettifyDexId("aerodrome-base"), "Aerodrome");
  assertEquals(prettifyDexId("raydium-clmm"), "Raydium CLMM");
  assertEquals(prettifyDexId("camelot"), "Camelot");
});
