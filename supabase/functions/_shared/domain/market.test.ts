import { describe, expect, it } from "vitest";
import { selectionOf } from "./market.ts";

describe("selectionOf", () => {
  it.each(
    [
      // What the real adapters store.
      ["Binance", "cex", "binance", "cex-major"],
      ["Coinbase", "cex", "coinbase", "coinbase"],
      ["Uniswap V3 (Ethereum)", "dex", "dex", "dex"],
      ["Raydium CLMM (Solana)", "dex", "dex", "dex"],
      ["PancakeSwap V3 (BNB Chain)", "dex", "dex", "dex"],
      // The simulated market imitates the same venues under the source `simulated`.
      ["Binance", "cex", "simulated", "cex-major"],
      ["Coinbase", "cex", "simulated", "coinbase"],
      ["Aerodrome (Base)", "dex", "simulated", "dex"],
      ["Orca (Solana)", "dex", "simulated", "dex"],
    ] as const,
  )("%s (%s, source %s) → %s", (exchange, exchange_type, source, selection) => {
    expect(selectionOf({ exchange, exchange_type, source })).toBe(selection);
  });

  it("knows Coinbase by its exchange text, whatever the case or suffix", () => {
    for (const exchange of ["Coinbase", "coinbase", "COINBASE", "Coinbase Advanced", " Coinbase"]) {
      expect(selectionOf({ exchange, exchange_type: "cex" }), exchange).toBe("coinbase");
    }
    expect(selectionOf({ exchange: "Coinbase", exchange_type: "cex", source: null })).toBe(
      "coinbase",
    );
  });

  it("knows Coinbase by its source, whatever the exchange text", () => {
    expect(selectionOf({ exchange: "CB", exchange_type: "cex", source: "coinbase" })).toBe(
      "coinbase",
    );
  });

  it("puts every other CEX under cex-major", () => {
    for (const exchange of ["Binance", "Kraken", "Coinbaser", "Not Coinbase", ""]) {
      expect(selectionOf({ exchange, exchange_type: "cex" }), exchange).toBe("cex-major");
    }
  });

  it("puts every DEX pool under dex, even one whose name starts like Coinbase", () => {
    expect(selectionOf({ exchange: "Coinbase Swap (Base)", exchange_type: "dex" })).toBe("dex");
    expect(
      selectionOf({ exchange: "Uniswap V3 (Base)", exchange_type: "dex", source: "coinbase" }),
    ).toBe("dex");
  });
});
