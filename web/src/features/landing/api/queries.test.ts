import { describe, expect, it } from "vitest";
import { parseMoverTeaser, parseMoverTeasers } from "./queries";

const row = {
  id: 7,
  symbol: "PEPE/WETH",
  exchange: "Uniswap (eth)",
  pct: "12.5",
  price: 0.0001,
  ts: "2026-01-01T00:00:00Z",
};

describe("parseMoverTeaser", () => {
  it("accepts numeric strings from Postgres numeric and turns the id into a string", () => {
    expect(parseMoverTeaser(row)).toEqual({ ...row, id: "7", pct: 12.5 });
  });

  it.each([
    ["a blank percent", { ...row, pct: " " }],
    ["a non-finite price", { ...row, price: "Infinity" }],
    ["an empty symbol", { ...row, symbol: "" }],
    ["no timestamp", { ...row, ts: undefined }],
    ["an object id", { ...row, id: {} }],
    ["null", null],
  ])("refuses %s", (_label, value) => {
    expect(parseMoverTeaser(value)).toBeNull();
  });

  it("refuses a list with one malformed row, or what is not a list", () => {
    expect(parseMoverTeasers([row, { ...row, pct: "x" }])).toBeNull();
    expect(parseMoverTeasers({ entries: [row] })).toBeNull();
    expect(parseMoverTeasers([row])).toHaveLength(1);
  });
});
