import { describe, expect, it } from "vitest";
import { CadenceError, DEX_NETWORK_COUNT, parseCadence, refreshSeconds } from "./cadence.ts";

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
