import { describe, expect, it } from "vitest";
import { MISSING_VALUE } from "./format.ts";
import { formatPrice, formatPriceFull, priceShape, subscriptNumber } from "./price-format.ts";

// Intl separates number and currency (and French thousands) with no-break spaces.
const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");
const price = (value: number, locale = "en") => spaces(formatPrice(value, locale));
const full = (value: number, locale = "en") => spaces(formatPriceFull(value, locale));

describe("formatPrice", () => {
  it("keeps four significant digits and at least two decimals", () => {
    expect(price(65432.1)).toBe("$65,432.10");
    expect(price(1234.5678)).toBe("$1,234.57");
    expect(price(1.23456)).toBe("$1.235");
    expect(price(0.5)).toBe("$0.5000");
    expect(price(0.0123456)).toBe("$0.01235");
    expect(price(0.00012345)).toBe("$0.0001235");
    expect(price(0)).toBe("$0.00");
  });

  it("writes the zeros of tiny prices as a subscript", () => {
    expect(price(0.000000001234)).toBe("$0.0₈1234");
    expect(price(0.00001234)).toBe("$0.0₄1234");
    expect(price(1.2e-15)).toBe("$0.0₁₄1200");
  });

  it("rounds before it chooses the notation", () => {
    expect(price(0.000099996)).toBe("$0.0001000");
    expect(price(0.0000099996)).toBe("$0.0₄1000");
  });

  it("writes BABYDOGE's price in the four languages", () => {
    const babydoge = 0.0000000012345;
    expect(price(babydoge, "en")).toBe("$0.0₈1235");
    expect(price(babydoge, "de")).toBe("0,0₈1235 $");
    expect(price(babydoge, "fr")).toBe("0,0₈1235 $US");
    expect(price(babydoge, "es")).toBe("0,0₈1235 US$");
  });

  it("follows the locale for ordinary prices", () => {
    expect(price(65432.1, "de")).toBe("65.432,10 $");
    expect(price(65432.1, "fr")).toBe("65 432,10 $US");
    expect(price(0.01234, "es")).toBe("0,01234 US$");
  });

  it("keeps the sign", () => {
    expect(price(-0.000000001234)).toBe("-$0.0₈1234");
    expect(price(-2.5)).toBe("-$2.500");
  });

  it("writes a bare number without the currency", () => {
    expect(formatPrice(0.000000001234, "en", { currency: false })).toBe("0.0₈1234");
    expect(formatPrice(0.000000001234, "de", { currency: false })).toBe("0,0₈1234");
    expect(formatPrice(1234.5, "de", { currency: false })).toBe("1.234,50");
  });

  it("marks a missing price", () => {
    expect(formatPrice(Number.NaN)).toBe(MISSING_VALUE);
    expect(formatPrice(Number.POSITIVE_INFINITY, "de")).toBe(MISSING_VALUE);
    expect(formatPriceFull(Number.NaN)).toBe(MISSING_VALUE);
  });
});

describe("formatPriceFull", () => {
  it("writes the whole number for the accessible name, in the four languages", () => {
    expect(full(0.000000001234, "en")).toBe("$0.000000001234");
    expect(full(0.000000001234, "de")).toBe("0,000000001234 $");
    expect(full(0.000000001234, "fr")).toBe("0,000000001234 $US");
    expect(full(0.000000001234, "es")).toBe("0,000000001234 US$");
  });

  it("equals the shown price when no zeros are folded", () => {
    for (const value of [65432.1, 1.5, 0.0123, 0.00012345]) {
      expect(full(value)).toBe(price(value));
    }
  });
});

describe("priceShape and subscriptNumber", () => {
  it("counts the zeros after the separator", () => {
    expect(priceShape(0.000000001234)).toEqual({
      kind: "tiny",
      zeros: 8,
      digits: "1234",
      decimals: 12,
    });
    expect(priceShape(0.001234)).toEqual({ kind: "plain", decimals: 6 });
    expect(priceShape(12)).toEqual({ kind: "plain", decimals: 2 });
  });

  it("writes numbers as subscript digits", () => {
    expect(subscriptNumber(8)).toBe("₈");
    expect(subscriptNumber(12)).toBe("₁₂");
  });
});
