// Issue 13, item 1, end to end: the DEX adapter's quotes of recorded GeckoTerminal payloads (two
// Uniswap V3 fee tiers of WETH/USDC; TRUMP/SOL copycats on Raydium) go through the real
// ingest_scan over the Data API, three scans with the trending order flipped each time. Every pool
// keeps its own instrument and history, and the movers link to their own pools.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import { parseGeckoTerminalPools } from "../../supabase/functions/_shared/market/geckoterminal.ts";
import { serviceClient } from "../support/clients.ts";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/market/${name}.json`, import.meta.url), "utf8"));

const start = Date.now() - 60_000;
const at = (k: number) => new Date(start + k * 20_000);

function pools(k: number): Quote[] {
  const eth = parseGeckoTerminalPools(
    fixture("geckoterminal-trending-eth-fee-tiers"),
    "eth",
    at(k),
  );
  const sol = parseGeckoTerminalPools(
    fixture("geckoterminal-trending-solana-copycats"),
    "solana",
    at(k),
  );
  // Each scan moves every price by 0.1 % so each sample is the pool's own; the order flips.
  const quotes = [...eth.quotes, ...sol.quotes].map((q) => ({
    ...q,
    price: q.price * (1 + k / 1000),
  }));
  return k % 2 === 0 ? quotes : quotes.reverse();
}

const keys = [...pools(0)].map((q) => q.venueKey);

afterAll(async () => {
  await serviceClient().from("instruments").delete().in("venue_key", keys);
});

describe("two pools of one pair on one DEX, through the adapter and ingest_scan", () => {
  it("never share an instrument or a history", async () => {
    const service = serviceClient();
    await service.from("instruments").delete().in("venue_key", keys);
    for (let k = 0; k < 3; k++) {
      const { data, error } = await service.rpc("ingest_scan", {
        quotes: pools(k) as never,
        scanned_at: at(k).toISOString(),
      });
      expect(error).toBeNull();
      expect(data).toMatchObject({ instruments: 5, skipped: 0 });
    }
    const { data: instruments, error } = await service
      .from("instruments")
      .select("id, venue_key, symbol, exchange, pool_url")
      .in("venue_key", keys)
      .order("venue_key");
    expect(error).toBeNull();
    expect(instruments!.map((i) => [i.symbol, i.exchange])).toEqual([
      ["WETH/USDC", "Uniswap V3 (Ethereum)"],
      ["WETH/USDC", "Uniswap V3 (Ethereum)"],
      ["TRUMP/SOL", "Raydium (Solana)"],
      ["TRUMP/SOL", "Meteora DLMM (Solana)"],
      ["TRUMP/SOL", "Raydium (Solana)"],
    ]);
    const first = new Map(pools(0).map((q) => [q.venueKey, q.price]));
    for (const i of instruments!) {
      // The link points to that pool.
      expect(i.pool_url).toMatch(new RegExp(`/pools/${i.venue_key.split(":")[1]}$`));
      const { data: history } = await service
        .from("price_history")
        .select("price")
        .eq("instrument_id", i.id)
        .order("ts");
      const base = first.get(i.venue_key)!;
      // Three samples, each within 0.3 % of the pool's own first price: no other pool's price.
      expect(history!.map((h) => Number(h.price) / base).map((r) => Math.round(r * 1000))).toEqual([
        1000, 1001, 1002,
      ]);
    }
    const { data: movers } = await service
      .from("movers")
      .select("instrument_id, pool_url, price")
      .in(
        "instrument_id",
        instruments!.map((i) => i.id),
      );
    expect(movers).toHaveLength(5);
    expect(new Set(movers!.map((m) => m.pool_url)).size).toBe(5);
  });
});
