import { describe, expect, it } from "vitest";
import { toNumber } from "./numbers";

describe("toNumber", () => {
  it("reads JSON numbers and numeric text, as PostgREST sends numeric", () => {
    expect(toNumber(12.5)).toBe(12.5);
    expect(toNumber("0.0000123")).toBe(0.0000123);
    expect(toNumber("1e3")).toBe(1000);
    expect(toNumber(" 42 ")).toBe(42);
  });

  it("gives null for what is not a finite number", () => {
    for (const value of [null, undefined, "", "   ", "abc", Infinity, NaN, true, {}, []]) {
      expect(toNumber(value), String(value)).toBeNull();
    }
  });
});
