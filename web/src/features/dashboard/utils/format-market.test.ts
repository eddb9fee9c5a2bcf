import type { TFunction } from "i18next";
import { describe, expect, it, vi } from "vitest";
import { formatQuoteAge } from "./format-market";

const NOW = Date.parse("2026-11-27T12:00:00Z");

/** A `t` that counts its calls and answers "<value> <unit>" in its language. */
function counting(language: string) {
  const t = vi.fn((key: string, opts: { value: number }) => `${opts.value} ${key}/${language}`);
  return t as typeof t & TFunction<"dashboard">;
}

describe("formatQuoteAge (decision 0106)", () => {
  it("translates each label once per language, then looks it up", () => {
    const en = counting("en");
    const at = (secondsAgo: number) => NOW - secondsAgo * 1000;
    expect(formatQuoteAge(en, at(12), NOW)).toBe("12 quoteAge.seconds/en");
    // Every age cell asks every second: the same label again is not translated again.
    for (let i = 0; i < 50; i++) formatQuoteAge(en, at(12), NOW);
    expect(en).toHaveBeenCalledTimes(1);

    expect(formatQuoteAge(en, at(13), NOW)).toBe("13 quoteAge.seconds/en");
    expect(formatQuoteAge(en, new Date(at(180)).toISOString(), NOW)).toBe("3 quoteAge.minutes/en");
    expect(en).toHaveBeenCalledTimes(3);

    // Another language (another `t`) has labels of its own.
    const de = counting("de");
    expect(formatQuoteAge(de, at(12), NOW)).toBe("12 quoteAge.seconds/de");
    expect(de).toHaveBeenCalledTimes(1);
  });

  it("a stamp it cannot read, or one ahead of the clock, is 0 s old", () => {
    const en = counting("en");
    expect(formatQuoteAge(en, "not a time", NOW)).toBe("0 quoteAge.seconds/en");
    expect(formatQuoteAge(en, NOW + 5000, NOW)).toBe("0 quoteAge.seconds/en");
  });
});
