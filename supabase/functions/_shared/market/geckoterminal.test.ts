import { deepStrictEqual, ok, rejects, strictEqual as assertEquals } from "node:assert/strict";
import { dexVenueKey } from "../domain/market.ts";
import { DEX_NETWORK_COUNT } from "../domain/cadence.ts";
import {
  createDexAdapter,
  DEX_NETWORK_IDS,
  DEX_NETWORKS,
  type DexNetworkId,
  pairSymbol,
  prettifyDexId,
  trendingPoolsUrl,
} from "./geckoterminal.ts";
import { fakeFetch, jsonResponse, loadMarketFixture } from "./testing.ts";
import { MarketSourceError } from "./types.ts";

const NOW = () => new Date("2026-03-02T12:00:05.000Z");

/** Answers each network's trending-pools URL with that network's recorded payload. */
async function recordedNetworks() {
  const bodies = new Map<string, unknown>();
  for (const id of DEX_NETWORK_IDS) {
    bodies.set(trendingPoolsUrl(id), await loadMarketFixture(`geckoterminal-trending-${id}`));
  }
  return fakeFetch((url) => {
    const body = bodies.get(url);
    return body === undefined
      ? new Response("unknown network", { status: 404 })
      : jsonResponse(body);
  });
}

/** Each network's recorded payload as the adapter must read it, one pool a line:
 * symbol | venue as GeckoTerminal names it | pool address | price | 24 h volume (- for none). */
const RECORDED: Record<DexNetworkId, { skipped: number; inactive: number; pools: string }> = {
  eth: {
    skipped: 2, // A name that is not a pair, no address.
    inactive: 1, // No price yet.
    pools: `
      PEPE/WETH      | Uniswap V2           | 0xa43fe16908251ee70ef74718545e4fe6c5ccec9f | 0.0000108412345678 | 21873412.5312
      WETH/USDC      | Uniswap V3           | 0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640 | 3398.9512          | 182345678.9012
      SPX/WETH       | Uniswap V2           | 0x52c77b0cb827afbad022e6d6caf2c44452edbc39 | 0.5512873412       | 7345612.8812
      Mog Coin/WETH  | Uniswap V2           | 0xc2eab7d33d3cb97692ecb231a5d0e4a649cb539d | 0.0000011923       | 3123456.4411
      ETH/USDC       | Uniswap V4           | 0x21c67e77068de97969ba93d4aab21826d33ca12bb9f565d8496e8fda8a82ca27 | 3399.4411 | 41234567.8812
      WETH/USDT      | SushiSwap            | 0x06da0fd433c1a5d7a4faa01111c044910a184553 | 3397.8821          | 2345678.1234
      PEPE/WETH      | Uniswap V3           | 0x11950d141ecb863f01007add7d1a342041227b58 | 0.0000108398765432 | 8765432.101`,
  },
  base: {
    skipped: 1, // A pool without a dex relationship.
    inactive: 0,
    pools: `
      BRETT/WETH     | Uniswap V3           | 0xba3f945812a83471d709bce9c3ca699a19fb46f7 | 0.0412785317       | 6843127.4419
      AERO/USDC      | Aerodrome            | 0x6cdcb1c4a4d1c3c6d054b27ac5b77e89eafb971d | 0.861209378291     | 3735580.2811
      WETH/USDC      | Uniswap V3           | 0xd0b53d9277642d899df5c87a3966a349a798f224 | 3398.6341          | 58213447.1903
      WETH/USDC      | Aerodrome SlipStream | 0xb2cc224c1c9fee385f8ad6a55b4d94e92359dc59 | 3398.4127          | 141532990.6672
      DEGEN/WETH     | Uniswap V3           | 0xc9034c3e7f58003e6ae0c8438e7c8f4598d5acaa | 0.00391248112      | 2187455.0934
      VIRTUAL/WETH   | Uniswap V2           | 0xe31c372a7af875b3b5e0f3713b17ef51556da667 | 1.42873310447      | 9184226.7714
      cbBTC/USDC     | Uniswap V4           | 0xd832f595f4484a1e77fccfe8c4b8e3a0ed6e7d4c3c65af7750dd8a302878dbcb | 87412.5531 | 21408833.2015
      TOSHI/WETH     | Uniswap V3           | 0x4b0aaf3ebb163dd45f663b38b6d93f6093ebc2d3 | 0.000731245129     | 1903344.8127
      TIBBIR/VIRTUAL | Uniswap V2           | 0x0c3b466104545efa096b8f944c1e524e1d0d4888 | 0.240030734593712  | 308168.7548`,
  },
  solana: {
    skipped: 1, // A pool without attributes.
    inactive: 1, // A zero price.
    pools: `
      WIF/SOL        | Raydium              | EP2ib6dYdEeqD8MfE2ezHCxX3kP3K2eLKkirfPm5eyMx | 2.4873412        | 18234567.123
      BONK/SOL       | Orca                 | Gvk6JYi3Rj9e6mNXhfVp2rFu7FsHHbX5ao4Jy9Abn8zy | 0.0000240321     | 6123456.789
      POPCAT/SOL     | Raydium CLMM         | FRhB8L7Y9Qq41qZXYLtC2nw8An1RJfLLxRF2x9RwLLMo | 0.9012345        | 4567890.12
      SOL/USDC       | Raydium CLMM         | 8sLbNZoA1cfnvMJLPfp98ZLAnFSYCFApfJKMbiXNLwxj | 148.7912         | 98765432.1
      CATGPT/SOL     | Pump.fun             | 5rZqk4gJ8a9yT3nVwXcP2sLmE6hB7dF1uQ4oR8iN3kWj | 0.000412345      | -`,
  },
  bsc: {
    skipped: 1, // A dex relationship with no data.
    inactive: 1, // A pool minutes old with no price yet.
    pools: `
      USDT/WBNB      | Pancakeswap V3       | 0x172fcd41e0913e95784454622d1c3724f546f849 | 1.00021            | 187443219.0117
      USDT/WBNB      | Pancakeswap V2       | 0x16b9a82891338f9ba80e2d6970fdda79d1eb0dae | 1.00038            | 24318764.5541
      Cake/WBNB      | Pancakeswap V2       | 0x0ed7e52944161450477ee417de9cd3a859b14fd0 | 2.34118972         | 5127740.9823
      BTCB/USDT      | Pancakeswap V3       | 0x46cf1cf8c69595804ba91dfdd8d6b960c9b0a7c4 | 87391.2238         | 39841275.3129
      ETH/WBNB       | Pancakeswap V3       | 0xd0e226f674bbf064f54ab47f42473ff80db98cba | 3397.91234         | 11387024.9012
      Broccoli/WBNB  | Pancakeswap V2       | 0x056f47854e6c62053b814e23e8aeaf44dae8cab9 | 0.0213349017       | 3382119.441
      TST/WBNB       | Pancakeswap V2       | 0x84b3c386f6cf2ac777ab3284e06c96ea27ba5432 | 0.0541208833       | 4791402.6183
      USDT/USDC      | Uniswap V3           | 0xb1c9fff6dd0213d140d1078d9453d64d2a43572a | 1.00019            | 8123344.7712
      THE/WBNB       | THENA FUSION         | 0xc5370d9feaa8c141b2ee9368adc72a9b726c48a8 | 0.341208771        | 1209348.3305`,
  },
  arbitrum: {
    skipped: 0,
    inactive: 1, // A price of zero.
    pools: `
      WETH/USDC      | Uniswap V3           | 0xc6962004f452be9203591991d15f6b388e09e8d0 | 3398.7412          | 96412873.3315
      ARB/WETH       | Uniswap V3           | 0xc6f780497a95e246eb9449f5e4770916dcd6396a | 0.412344109        | 12874339.4512
      WETH/USDT      | Uniswap V3           | 0x641c00a822e8b671738d32a431a4fb6074e5c79d | 3398.519           | 41238790.0028
      GMX/WETH       | Uniswap V3           | 0x80a9ae39310abf666a87c743d6ebbd0e8c42158e | 14.8213377         | 1822341.9972
      GRAIL/WETH     | Camelot              | 0xdec2e28e3748eb3b4c12e075255db09501676e59 | 512.440981         | 218774.3308
      PENDLE/WETH    | Camelot V3           | 0xb40bb7c25b6d286fefa4530046aca29f60693dbe | 3.18417723         | 2744091.7713
      ETH/USDC       | Uniswap V4           | 0x0dd1827188daaf9fd72df044c5bae04a5f2d96b036be11361563f6a633b82df5 | 3399.0127 | 27330941.6207
      MAGIC/WETH     | SushiSwap            | 0xad638c1fefb3ca0562124798168545f6b82ecdce | 0.182341097        | 498213.6604`,
  },
};

function poolRows(table: string) {
  return table.trim().split("\n").map((line) => {
    const [symbol, venue, address, price, volume] = line.split("|").map((cell) => cell.trim());
    return {
      symbol: symbol!,
      venue: venue!,
      address: address!,
      price: Number(price),
      volume24h: volume === "-" ? null : Number(volume),
    };
  });
}

for (const id of DEX_NETWORK_IDS) {
  const net = DEX_NETWORKS[id];
  const recorded = RECORDED[id];

  Deno.test(`dex: ${net.name} recorded pools read through the adapter`, async () => {
    const f = await recordedNetworks();
    const result = await createDexAdapter({ networks: [id] }).fetchQuotes({
      fetch: f.fetch,
      now: NOW,
    });
    deepStrictEqual(f.calls.map((c) => c.url), [trendingPoolsUrl(id)]);
    assertEquals(result.source, "dex");
    assertEquals(result.skipped, recorded.skipped);
    assertEquals(result.inactive, recorded.inactive);
    assertEquals(result.illiquid, 0);
    deepStrictEqual(
      // (The liquidity figures have their own test below.)
      result.quotes.map((
        { exchange: _, volume24hUsd: _v, liquidityUsd: _l, poolName: _n, poolCreatedAt: _c, ...q },
      ) => q),
      poolRows(recorded.pools).map(({ symbol, address, price, volume24h }) => ({
        venueKey: `${net.network}:${address.startsWith("0x") ? address.toLowerCase() : address}`,
        symbol,
        exchangeType: "dex",
        network: net.network,
        source: "dex",
        selection: "dex",
        poolUrl: `https://www.geckoterminal.com/${id}/pools/${address}`,
        price,
        volume24h,
        ts: "2026-03-02T12:00:05.000Z",
      })),
    );
    for (const q of result.quotes) {
      ok(q.exchange.endsWith(` (${net.name})`), q.exchange);
    }
  });

  Deno.test(`dex: ${net.name} venues read "DEX (${net.name})", the network named once`, async () => {
    const f = await recordedNetworks();
    const result = await createDexAdapter({ networks: [id] }).fetchQuotes({
      fetch: f.fetch,
      now: NOW,
    });
    deepStrictEqual(
      result.quotes.map((q) => q.exchange),
      poolRows(recorded.pools).map(({ venue }) => `${venue} (${net.name})`),
    );
  });
}

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
  // A name that is not a pair and no address are malformed; no price yet is inactive.
  assertEquals(result.skipped, 2);
  assertEquals(result.inactive, 1);
  deepStrictEqual(result.quotes[0], {
    venueKey: "ethereum:0xa43fe16908251ee70ef74718545e4fe6c5ccec9f",
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
    volume24hUsd: 21873412.5312,
    liquidityUsd: 38123456.7012,
    poolName: "PEPE / WETH",
    poolCreatedAt: "2023-04-14T21:50:35.000Z",
  });
});

Deno.test("dex: the liquidity figures of recorded BSC pools (reserve, 24 h volume, name with fee tier, age)", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-bsc");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createDexAdapter({ networks: ["bsc"] }).fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  const [v3, v2] = result.quotes;
  deepStrictEqual(
    [v3!.liquidityUsd, v3!.volume24hUsd, v3!.poolName, v3!.poolCreatedAt],
    [34127739.2283, 187443219.0117, "USDT / WBNB 0.01%", "2023-04-03T08:31:12.000Z"],
  );
  // Two pools of one pair on one DEX family: the names tell the pools apart.
  deepStrictEqual([v2!.symbol, v2!.poolName, v2!.liquidityUsd], [
    "USDT/WBNB",
    "USDT / WBNB",
    41873025.6096,
  ]);
  // Every recorded pool has its name; an unreadable creation time is null, not an error.
  ok(result.quotes.every((q) => typeof q.poolName === "string"));
  const bad = structuredClone(body) as { data: { attributes: Record<string, unknown> }[] };
  bad.data[0]!.attributes.pool_created_at = "yesterday";
  const again = await createDexAdapter({ networks: ["bsc"] }).fetchQuotes({
    fetch: fakeFetch(() => jsonResponse(bad)).fetch,
    now: NOW,
  });
  deepStrictEqual([again.quotes[0]!.poolCreatedAt, again.quotes[0]!.price], [null, 1.00021]);
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
  // A pool without attributes is malformed; a zero price is inactive.
  assertEquals(result.skipped, 1);
  assertEquals(result.inactive, 1);
});

Deno.test("dex: each call reads the next network (one call per scan for the rate limit)", async () => {
  const f = await recordedNetworks();
  const adapter = createDexAdapter();
  // 12:00:00 is bucket 177245280 of 10 s; 177245280 % 5 = 0 → the rotation starts at eth.
  const now = () => new Date("2026-03-02T12:00:00.000Z");
  for (let i = 0; i < 6; i++) await adapter.fetchQuotes({ fetch: f.fetch, now });
  deepStrictEqual(f.calls.map((c) => c.url), [
    ...DEX_NETWORK_IDS.map((id) => trendingPoolsUrl(id)),
    trendingPoolsUrl("eth"),
  ]);
});

Deno.test("dex: the rotation reads every network's pools, each under its own network", async () => {
  const f = await recordedNetworks();
  const adapter = createDexAdapter();
  // 12:00:00 is bucket 177245280 of 10 s; 177245280 % 5 = 0 → the rotation starts at eth.
  const now = () => new Date("2026-03-02T12:00:00.000Z");
  const seen: [string, (string | null)[], number, number, number][] = [];
  for (let i = 0; i < DEX_NETWORK_IDS.length; i++) {
    const result = await adapter.fetchQuotes({ fetch: f.fetch, now });
    const id = new URL(f.calls[i]!.url).pathname.split("/")[4] as DexNetworkId;
    const net = DEX_NETWORKS[id];
    for (const q of result.quotes) {
      ok(q.poolUrl?.startsWith(`https://www.geckoterminal.com/${id}/pools/`), q.poolUrl ?? "");
      ok(q.exchange.endsWith(` (${net.name})`), q.exchange);
    }
    seen.push([
      id,
      [...new Set(result.quotes.map((q) => q.network))],
      result.quotes.length,
      result.skipped,
      result.inactive,
    ]);
  }
  deepStrictEqual(f.calls.map((c) => c.url), DEX_NETWORK_IDS.map((id) => trendingPoolsUrl(id)));
  deepStrictEqual(seen, [
    ["eth", ["ethereum"], 7, 2, 1],
    ["base", ["base"], 9, 1, 0],
    ["solana", ["solana"], 5, 1, 1],
    ["bsc", ["bsc"], 9, 1, 1],
    ["arbitrum", ["arbitrum"], 8, 0, 1],
  ]);
  assertEquals(adapter.nextNetwork(), "eth");
});

Deno.test("dex: a failing network does not stop the rotation", async () => {
  const base = await loadMarketFixture("geckoterminal-trending-base");
  const f = fakeFetch((url) =>
    url.includes("/eth/") ? new Response("upstream", { status: 500 }) : jsonResponse(base)
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
  // DEX ids of the Base, BSC and Arbitrum payloads (used when `included` lacks the DEX).
  assertEquals(prettifyDexId("uniswap-v3-base"), "Uniswap V3");
  assertEquals(prettifyDexId("uniswap-v4-base"), "Uniswap V4");
  assertEquals(prettifyDexId("aerodrome-slipstream"), "Aerodrome Slipstream");
  assertEquals(prettifyDexId("pancakeswap_v2"), "PancakeSwap V2");
  assertEquals(prettifyDexId("thena-fusion"), "THENA Fusion");
  assertEquals(prettifyDexId("uniswap_v3_arbitrum"), "Uniswap V3");
  assertEquals(prettifyDexId("uniswap-v4-arbitrum"), "Uniswap V4");
  assertEquals(prettifyDexId("sushiswap_arbitrum"), "SushiSwap");
  assertEquals(prettifyDexId("camelot-v3"), "Camelot V3");
});

Deno.test("dex: two pools of one pair on one DEX are two instruments, each linking to its pool", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-eth-fee-tiers");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createDexAdapter({ networks: ["eth"] }).fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  deepStrictEqual(
    result.quotes.map((q) => [q.venueKey, q.symbol, q.exchange, q.price, q.poolUrl]),
    [
      [
        "ethereum:0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
        "WETH/USDC",
        "Uniswap V3 (Ethereum)",
        3398.9512,
        "https://www.geckoterminal.com/eth/pools/0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640",
      ],
      [
        "ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8",
        "WETH/USDC",
        "Uniswap V3 (Ethereum)",
        3401.2277,
        "https://www.geckoterminal.com/eth/pools/0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8",
      ],
    ],
  );
  // The 1 % pool with 0.0005 USD of reserves (and "153 M USD" of volume) and a young pool
  // with 9,876 USD are below the default floor of 10,000 USD: never quoted, counted apart.
  assertEquals(result.illiquid, 2);
  assertEquals(result.skipped, 0);
  assertEquals(result.inactive, 0);
});

Deno.test("dex: same-symbol copycats on one DEX stay apart, prices orders of magnitude apart", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-solana-copycats");
  const f = fakeFetch(() => jsonResponse(body));
  const result = await createDexAdapter({ networks: ["solana"] }).fetchQuotes({
    fetch: f.fetch,
    now: NOW,
  });
  deepStrictEqual(
    result.quotes.map((q) => [q.venueKey, q.symbol, q.exchange, q.price]),
    [
      [
        "solana:9d9mb8kooFfaD3SctgZtkxQypkshx6ezhbKio89ixyy2",
        "TRUMP/SOL",
        "Meteora DLMM (Solana)",
        8.91234,
      ],
      [
        "solana:HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs",
        "TRUMP/SOL",
        "Raydium (Solana)",
        0.0000123771,
      ],
      [
        "solana:3FmTmvLqKtAsEGSGnqCkQj2b1Hn8r7bh4WQMLkx3dcqT",
        "TRUMP/SOL",
        "Raydium (Solana)",
        0.00412887,
      ],
    ],
  );
  // Solana addresses are base58: case matters and is kept.
  ok(
    result.quotes[1]!.poolUrl!.endsWith(
      "/solana/pools/HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs",
    ),
  );
  assertEquals(result.illiquid, 1); // 37 USD of reserves
});

Deno.test("dex: the liquidity floor is configurable; 0 turns it off", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-eth-fee-tiers");
  const read = (minLiquidityUsd: number) =>
    createDexAdapter({ networks: ["eth"], minLiquidityUsd }).fetchQuotes({
      fetch: fakeFetch(() => jsonResponse(body)).fetch,
      now: NOW,
    });
  const off = await read(0);
  assertEquals(off.quotes.length, 4);
  assertEquals(off.illiquid, 0);
  const high = await read(100_000_000);
  deepStrictEqual(high.quotes.map((q) => q.price), [3398.9512]);
  assertEquals(high.illiquid, 3);
  await rejects(
    read(Number.NaN),
    (err) => err instanceof MarketSourceError && err.kind === "config",
  );
});

Deno.test("dex: a pool without reserves is not quoted (its liquidity is unknown)", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-eth-fee-tiers") as {
    data: { attributes: Record<string, unknown> }[];
  };
  body.data[0]!.attributes.reserve_in_usd = null;
  const result = await createDexAdapter({ networks: ["eth"] }).fetchQuotes({
    fetch: fakeFetch(() => jsonResponse(body)).fetch,
    now: NOW,
  });
  assertEquals(result.quotes.length, 1);
  assertEquals(result.illiquid, 3);
});

Deno.test("dex: an empty pool list, or one with no usable pool, is a failed read", async () => {
  const onlyIlliquid = await loadMarketFixture("geckoterminal-trending-eth-fee-tiers") as {
    data: unknown[];
  };
  onlyIlliquid.data = onlyIlliquid.data.slice(2);
  for (
    const [answer, message] of [
      [{ data: [], included: [] }, /eth trending pools returned no rows/],
      [onlyIlliquid, /2 rows and none usable \(0 malformed, 0 inactive, 2 illiquid\)/],
    ] as const
  ) {
    const f = fakeFetch(() => jsonResponse(answer));
    await rejects(
      createDexAdapter({ networks: ["eth"] }).fetchQuotes({ fetch: f.fetch, now: NOW }),
      (err) => {
        ok(err instanceof MarketSourceError, String(err));
        assertEquals(err.kind, "empty");
        ok(message.test(err.message), err.message);
        return true;
      },
    );
  }
});

Deno.test("dex: the base URL can point at a mirror or a test server", async () => {
  const body = await loadMarketFixture("geckoterminal-trending-base");
  const f = fakeFetch(() => jsonResponse(body));
  await createDexAdapter({ networks: ["base"], baseUrl: "http://localhost:8080/api/v2" })
    .fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(f.calls.map((c) => c.url), [
    "http://localhost:8080/api/v2/networks/base/trending_pools?include=dex&page=1",
  ]);
});

Deno.test("dex: EVM pool addresses are keyed lower-case, others as they are", () => {
  assertEquals(
    dexVenueKey("ethereum", "0x8AD599C3A0FF1DE082011EFDDC58F1908EB6E6D8"),
    "ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8",
  );
  assertEquals(
    dexVenueKey("solana", "HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs"),
    "solana:HKuJrP5tYQLbEUdjKwjgnHs2957QKjR2iWhJKTtMa1xs",
  );
});

Deno.test("dex: the rotation has as many networks as the cadence's refresh interval assumes", () => {
  assertEquals(DEX_NETWORK_IDS.length, DEX_NETWORK_COUNT);
});

Deno.test("dex: the rotation reads networks × pages, page 1 of each network first, then page 2 (decision 0091)", async () => {
  const base = await loadMarketFixture("geckoterminal-trending-base");
  const f = fakeFetch(() => jsonResponse(base));
  const adapter = createDexAdapter({ networks: ["eth", "base"], pages: 3 });
  assertEquals(adapter.rotationCalls, 6);
  assertEquals(adapter.nextPage(), null);
  // new Date(0) is bucket 0 of 10 s → the rotation starts at eth, page 1.
  const now = () => new Date(0);
  const read: string[] = [];
  for (let i = 0; i < 7; i++) {
    await adapter.fetchQuotes({ fetch: f.fetch, now });
    const url = new URL(f.calls[i]!.url);
    read.push(`${url.pathname.split("/")[4]} ${url.searchParams.get("page")}`);
  }
  // Every (network, page) once in 6 calls, then the rotation starts again.
  deepStrictEqual(read, ["eth 1", "base 1", "eth 2", "base 2", "eth 3", "base 3", "eth 1"]);
  assertEquals(adapter.nextNetwork(), "base");
  assertEquals(adapter.nextPage(), 1);
  assertEquals(
    f.calls[2]!.url,
    trendingPoolsUrl("eth", "https://api.geckoterminal.com/api/v2", 2),
  );
});

Deno.test("dex: a later page's pools are stamped with the answer's Date header, as page 1's (no per-pool time)", async () => {
  // GeckoTerminal's pool attributes carry no update time (the recorded payloads: price, reserve,
  // volumes, pool_created_at only), so the venue time of every pool is the answer's time.
  const body = await loadMarketFixture("geckoterminal-trending-eth");
  const date = "Mon, 02 Mar 2026 12:00:03 GMT";
  const f = fakeFetch(() => jsonResponse(body, 200, { date }));
  const adapter = createDexAdapter({ networks: ["eth"], pages: 2 });
  const first = await adapter.fetchQuotes({ fetch: f.fetch, now: NOW });
  const second = await adapter.fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(
    f.calls.map((c) => new URL(c.url).searchParams.get("page")),
    ["1", "2"],
  );
  ok(second.quotes.length > 0);
  for (const q of [...first.quotes, ...second.quotes]) {
    // The header's whole second taken at its middle (`venueClock`).
    assertEquals(q.ts, "2026-03-02T12:00:03.500Z");
  }
  // The pool's creation time is not its quote time.
  ok(second.quotes.every((q) => q.poolCreatedAt !== q.ts));
  // The venue's clock is 1.5 s behind ours (NOW is 12:00:05).
  assertEquals(second.skewMs, -1500);
});

Deno.test("dex: an empty later page (the trending list ended) is no failure; an empty page 1 is", async () => {
  const f = fakeFetch(() => jsonResponse({ data: [], included: [] }));
  const adapter = createDexAdapter({ networks: ["eth"], pages: 2 });
  await rejects(
    adapter.fetchQuotes({ fetch: f.fetch, now: NOW }),
    /eth trending pools returned no rows/,
  );
  const later = await adapter.fetchQuotes({ fetch: f.fetch, now: NOW });
  deepStrictEqual(later.quotes, []);
  assertEquals(later.source, "dex");
});

Deno.test("dex: GECKOTERMINAL_PAGES outside 1–10 is a configuration error", async () => {
  const f = fakeFetch(() => jsonResponse({ data: [] }));
  for (const pages of [0, 11, 1.5]) {
    await rejects(
      createDexAdapter({ networks: ["eth"], pages }).fetchQuotes({ fetch: f.fetch, now: NOW }),
      (err: unknown) => err instanceof MarketSourceError && err.kind === "config",
    );
  }
  assertEquals(f.calls.length, 0);
});
