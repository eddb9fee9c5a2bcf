import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { supabaseMock } from "@/testing/supabase-mock";
import { marketQueries, toMoverEntry } from "./market-queries";

describe("marketQueries.history", () => {
  it("reads one instrument through price_history_for, oldest first, numbers parsed", async () => {
    const calls: unknown[] = [];
    supabaseMock.setRpc("price_history_for", (args) => {
      calls.push(args);
      return {
        data: [
          { ts: "2026-03-02T09:00:00+00:00", price: "1000.5", volume_24h: null },
          { ts: "2026-03-02T09:04:50+00:00", price: "1001", volume_24h: "5" },
        ],
        error: null,
      };
    });
    const history = await new QueryClient().fetchQuery(marketQueries.history(7));
    expect(calls).toEqual([{ instrument: 7 }]);
    expect(history).toEqual([
      { ts: "2026-03-02T09:00:00+00:00", price: 1000.5, volume_24h: null },
      { ts: "2026-03-02T09:04:50+00:00", price: 1001, volume_24h: 5 },
    ]);
  });

  it("fails when the database refuses (no active plan)", async () => {
    supabaseMock.setRpc("price_history_for", {
      data: null,
      error: { code: "PT403", message: "Active subscription required" },
    });
    await expect(
      new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(
        marketQueries.history(7),
      ),
    ).rejects.toMatchObject({ code: "PT403" });
  });
});

describe("toMoverEntry: the trust fields (issue 26)", () => {
  const base = {
    id: 1,
    instrument_id: 7,
    symbol: "SFP/WBNB",
    exchange: "PancakeSwap V3 (BSC)",
    exchange_type: "dex" as const,
    network: "bsc",
    source: "dex",
    pool_url: null,
    price: "0.71",
    price_3hour_ago: null,
    pct: "42.59",
    window_used: 30,
    pct_3hour: null,
    volume_24h: "900000",
    ts: "2026-11-26T03:00:00Z",
    quoted_at: "2026-11-26T03:00:00Z",
  };

  it("reads the feed's figures, flags, confirmation, score, asset and pool name", () => {
    const entry = toMoverEntry({
      ...base,
      volume_24h_usd: "900000",
      liquidity_usd: "3100000.5",
      spread_pct: null,
      thin: false,
      confirmed_on: ["Binance"],
      flags: ["young_pool"],
      trust_score: 58,
      asset: "SFP",
      pool_name: "SFP / WBNB 0.25%",
      // (PostgREST may send numerics as text.)
    } as never);
    expect(entry).toMatchObject({
      volume_24h_usd: 900000,
      liquidity_usd: 3100000.5,
      spread_pct: null,
      thin: false,
      confirmed_on: ["Binance"],
      flags: ["young_pool"],
      trust_score: 58,
      asset: "SFP",
      pool_name: "SFP / WBNB 0.25%",
    });
  });

  it("reads a row without them defensively: no figures, no flags, the base as asset", () => {
    const entry = toMoverEntry({
      ...base,
      flags: ["young_pool", "made_up"],
      trust_score: 140,
    } as never);
    expect(entry).toMatchObject({
      volume_24h_usd: null,
      liquidity_usd: null,
      thin: false,
      confirmed_on: [],
      flags: ["young_pool"],
      trust_score: 100,
      asset: "SFP",
      pool_name: null,
    });
  });
});
