import { describe, expect, it } from "vitest";
import { isQuoteStale, quoteAge, windowMs } from "./quote-age.ts";

const NOW = Date.parse("2026-03-02T12:00:00.000Z");

describe("quoteAge", () => {
  it.each([
    ["2026-03-02T12:00:00.000Z", { unit: "seconds", value: 0 }],
    ["2026-03-02T12:00:01.000Z", { unit: "seconds", value: 0 }], // a venue clock slightly ahead
    ["2026-03-02T11:59:58.000Z", { unit: "seconds", value: 2 }],
    ["2026-03-02T11:59:20.000Z", { unit: "seconds", value: 40 }],
    ["2026-03-02T11:57:00.000Z", { unit: "minutes", value: 3 }],
    ["2026-03-02T09:00:00.000Z", { unit: "hours", value: 3 }],
    ["2026-02-28T12:00:00.000Z", { unit: "days", value: 2 }],
  ])("%s is %o old", (ts, age) => {
    expect(quoteAge(ts, NOW)).toEqual(age);
  });
});

describe("isQuoteStale", () => {
  it("marks a quote older than its window", () => {
    expect(windowMs(0)).toBe(10_000);
    expect(isQuoteStale("2026-03-02T11:59:58.000Z", 0, NOW)).toBe(false);
    expect(isQuoteStale("2026-03-02T11:59:45.000Z", 0, NOW)).toBe(true);
    expect(isQuoteStale("2026-03-02T11:59:45.000Z", 5, NOW)).toBe(false);
    expect(isQuoteStale("2026-03-02T11:54:00.000Z", 5, NOW)).toBe(true);
    expect(isQuoteStale("not a time", 30, NOW)).toBe(true);
  });
});
