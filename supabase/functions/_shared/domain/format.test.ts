import { describe, expect, it } from "vitest";
import {
  ageLabel,
  formatClockTime,
  formatSignedPercent,
  formatUsdPrice,
  isGain,
  MISSING_VALUE,
} from "./format.ts";

// Intl may separate number and unit with a (narrow) no-break space.
const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("formatSignedPercent", () => {
  it("signs gains and losses with two decimals", () => {
    expect(formatSignedPercent(12.3456)).toBe("+12.35%");
    expect(formatSignedPercent(-3.2)).toBe("-3.20%");
    expect(formatSignedPercent(150)).toBe("+150.00%");
  });

  it("shows zero without a sign", () => {
    expect(formatSignedPercent(0)).toBe("0.00%");
    expect(formatSignedPercent(-0)).toBe("0.00%");
  });

  it("follows the locale", () => {
    expect(spaces(formatSignedPercent(12.34, "de"))).toBe("+12,34 %");
    expect(spaces(formatSignedPercent(-1.5, "fr"))).toBe("-1,50 %");
  });

  it("marks missing values", () => {
    expect(formatSignedPercent(Number.NaN)).toBe(MISSING_VALUE);
    expect(formatSignedPercent(Number.POSITIVE_INFINITY)).toBe(MISSING_VALUE);
  });
});

describe("isGain", () => {
  it("is true only above zero", () => {
    expect(isGain(0.01)).toBe(true);
    expect(isGain(0)).toBe(false);
    expect(isGain(-0.01)).toBe(false);
  });
});

describe("formatUsdPrice", () => {
  it("shows dollars with four decimals", () => {
    expect(formatUsdPrice(0.123456)).toBe("$0.1235");
    expect(formatUsdPrice(1234.5)).toBe("$1,234.5000");
    expect(formatUsdPrice(0)).toBe("$0.0000");
  });

  it("follows the locale", () => {
    expect(spaces(formatUsdPrice(1234.5, "de"))).toBe("1.234,5000 $");
  });

  it("marks missing values", () => {
    expect(formatUsdPrice(Number.NaN)).toBe(MISSING_VALUE);
  });
});

describe("formatClockTime", () => {
  const ts = "2025-03-01T14:05:09Z";

  it("shows hours, minutes and seconds in the given time zone", () => {
    expect(formatClockTime(ts, "de", "UTC")).toBe("14:05:09");
    expect(spaces(formatClockTime(ts, "en", "UTC"))).toBe("02:05:09 PM");
  });

  it("accepts epoch milliseconds and dates", () => {
    const ms = Date.parse(ts);
    expect(formatClockTime(ms, "de", "UTC")).toBe("14:05:09");
    expect(formatClockTime(new Date(ms), "de", "UTC")).toBe("14:05:09");
  });

  it("marks invalid timestamps", () => {
    expect(formatClockTime("not a date")).toBe(MISSING_VALUE);
  });
});

describe("ageLabel", () => {
  const now = Date.parse("2025-03-01T12:00:00Z");
  const ago = (seconds: number) => now - seconds * 1000;

  it("says now under ten seconds and for future timestamps", () => {
    expect(ageLabel(ago(0), now)).toEqual({ unit: "now" });
    expect(ageLabel(ago(9.9), now)).toEqual({ unit: "now" });
    expect(ageLabel(ago(-30), now)).toEqual({ unit: "now" });
  });

  it("counts seconds, minutes, hours and days", () => {
    expect(ageLabel(ago(10), now)).toEqual({ unit: "seconds", value: 10 });
    expect(ageLabel(ago(59), now)).toEqual({ unit: "seconds", value: 59 });
    expect(ageLabel(ago(60), now)).toEqual({ unit: "minutes", value: 1 });
    expect(ageLabel(ago(3599), now)).toEqual({ unit: "minutes", value: 59 });
    expect(ageLabel(ago(3600), now)).toEqual({ unit: "hours", value: 1 });
    expect(ageLabel(ago(86_400 * 3), now)).toEqual({ unit: "days", value: 3 });
  });

  it("accepts ISO strings and dates", () => {
    expect(ageLabel("2025-03-01T11:58:00Z", new Date(now))).toEqual({
      unit: "minutes",
      value: 2,
    });
  });
});
