import { describe, expect, it } from "vitest";
import {
  CadenceError,
  describeDexRotation,
  DEX_NETWORK_COUNT,
  parseCadence,
  parseDexRotation,
  refreshSeconds,
} from "./cadence.ts";

describe("parseCadence", () => {
  it("reads Binance and Coinbase every 2 s, the DEX every 3 s, the simulated market at the scan interval", () => {
    expect(parseCadence(undefined)).toEqual({ binance: 2, coinbase: 2, dex: 3, simulated: 10 });
    expect(parseCadence("", 5)).toEqual({ binance: 2, coinbase: 2, dex: 3, simulated: 5 });
    expect(parseCadence("binance=1, dex=4")).toEqual({
      binance: 1,
      coinbase: 2,
      dex: 4,
      simulated: 10,
    });
  });

  it.each(["kraken=2", "binance=fast", "binance", "binance=0", "dex=1", "coinbase=60"])(
    "refuses %s (unknown source, bad number, beyond the venue's limits or pg_cron's seconds)",
    (raw) => {
      expect(() => parseCadence(raw)).toThrow(CadenceError);
    },
  );
});

describe("refreshSeconds", () => {
  it("refreshes each pool once per round of the DEX networks", () => {
    expect(DEX_NETWORK_COUNT).toBe(5);
    expect(refreshSeconds("dex", 3)).toBe(15);
    expect(refreshSeconds("binance", 2)).toBe(2);
  });
});

describe("the DEX rotation (decision 0091)", () => {
  it("reads GECKOTERMINAL_NETWORKS and GECKOTERMINAL_PAGES; all five networks, page 1 by default", () => {
    expect(parseDexRotation(undefined, undefined)).toEqual({
      networks: ["eth", "base", "solana", "bsc", "arbitrum"],
      pages: 1,
    });
    expect(parseDexRotation("eth, Solana,eth", " 5 ")).toEqual({
      networks: ["eth", "solana"],
      pages: 5,
    });
  });

  it.each([
    ["polygon", undefined],
    [undefined, "0"],
    [undefined, "11"],
    [undefined, "2.5"],
    [undefined, "many"],
  ])("refuses networks %s, pages %s", (networks, pages) => {
    expect(() => parseDexRotation(networks, pages)).toThrow(CadenceError);
  });

  it("refreshes each pool once per networks × pages calls, and prints it", () => {
    const four = parseDexRotation("eth,base,solana,bsc", "5");
    expect(refreshSeconds("dex", 2, four)).toBe(40);
    expect(describeDexRotation(2, four)).toBe(
      "4 networks × 5 pages at 30 calls/min: every pool every 40 s",
    );
    expect(describeDexRotation(3)).toBe(
      "5 networks × 1 page at 20 calls/min: every pool every 15 s",
    );
    expect(refreshSeconds("binance", 2, four)).toBe(2);
  });
});
