import { describe, expect, it } from "vitest";
import { exchangeSelectionsOf } from "./exchange-selection";

describe("exchangeSelectionsOf", () => {
  it("keeps the known values, once each, in a fixed order", () => {
    expect(exchangeSelectionsOf(["cex-major", "coinbase", "dex"])).toEqual([
      "coinbase",
      "dex",
      "cex-major",
    ]);
    expect(exchangeSelectionsOf(["dex", "dex", "binance", "Coinbase"])).toEqual(["dex"]);
    expect(exchangeSelectionsOf([])).toEqual([]);
  });

  it("means all three without a stored list (the column's default)", () => {
    expect(exchangeSelectionsOf(undefined)).toEqual(["coinbase", "dex", "cex-major"]);
    expect(exchangeSelectionsOf(null)).toEqual(["coinbase", "dex", "cex-major"]);
  });
});
