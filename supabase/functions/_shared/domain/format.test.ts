// Portable test: `deno test` runs it natively; vitest maps `node:test` to its own runner.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
    assert.equal(formatSignedPercent(12.3456), "+12.35%");
    assert.equal(formatSignedPercent(-3.2), "-3.20%");
    assert.equal(formatSignedPercent(150), "+150.00%");
  });

  it("shows zero without a sign", () => {
    assert.equal(formatSignedPercent(0), "0.00%");
    assert.equal(formatSignedPercent(-0), "0.00%");
  });

  it("follows the locale", () => {
    assert.equal(spaces(formatSignedPercent(12.34, "de")), "+12,34 %");
    assert.equal(spaces(formatSignedPercent(-1.5, "fr")), "-1,50 %");
  });

  it("marks missing values", () => {
    assert.equal(formatSignedPercent(Number.NaN), MISSING_VALUE);
    assert.equal(formatSignedPercent(Number.POSITIVE_INFINITY), MISSING_VALUE);
  });
});

describe("isGain", () => {
  it("is true only above zero", () => {
    assert.equal(isGain(0.01), true);
    assert.equal(isGain(0), false);
    assert.equal(isGain(-0.01), false);
  });
});

describe("formatUsdPrice", () => {
  it("shows dollars with four decimals", () => {
    assert.equal(formatUsdPrice(0.123456), "$0.1235");
    assert.equal(formatUsdPrice(1234.5), "$1,234.5000");
    assert.equal(formatUsdPrice(0), "$0.0000");
  });

  it("follows the locale", () => {
    assert.equal(spaces(formatUsdPrice(1234.5, "de")), "1.234,5000 $");
  });

  it("marks missing values", () => {
    assert.equal(formatUsdPrice(Number.NaN), MISSING_VALUE);
  });
});

describe("formatClockTime", () => {
  const ts = "2025-03-01T14:05:09Z";

  it("shows hours, minutes and seconds in the given time zone", () => {
    assert.equal(formatClockTime(ts, "de", "UTC"), "14:05:09");
    assert.equal(spaces(formatClockTime(ts, "en", "UTC")), "02:05:09 PM");
  });

  it("accepts epoch milliseconds and dates", () => {
    const ms = Date.parse(ts);
    assert.equal(formatClockTime(ms, "de", "UTC"), "14:05:09");
    assert.equal(formatClockTime(new Date(ms), "de", "UTC"), "14:05:09");
  });

  it("marks invalid timestamps", () => {
    assert.equal(formatClockTime("not a date"), MISSING_VALUE);
  });
});

describe("ageLabel", () => {
  const now = Date.parse("2025-03-01T12:00:00Z");
  const ago = (seconds: number) => now - seconds * 1000;

  it("says now under ten seconds and for future timestamps", () => {
    assert.deepEqual(ageLabel(ago(0), now), { unit: "now" });
    assert.deepEqual(ageLabel(ago(9.9), now), { unit: "now" });
    assert.deepEqual(ageLabel(ago(-30), now), { unit: "now" });
  });

  it("counts seconds, minutes, hours and days", () => {
    assert.deepEqual(ageLabel(ago(10), now), { unit: "seconds", value: 10 });
    assert.deepEqual(ageLabel(ago(59), now), { unit: "seconds", value: 59 });
    assert.deepEqual(ageLabel(ago(60), now), { unit: "minutes", value: 1 });
    assert.deepEqual(ageLabel(ago(3599), now), { unit: "minutes", value: 59 });
    assert.deepEqual(ageLabel(ago(3600), now), { unit: "hours", value: 1 });
    assert.deepEqual(ageLabel(ago(86_400 * 3), now), { unit: "days", value: 3 });
  });

  it("accepts ISO strings and dates", () => {
    assert.deepEqual(ageLabel("2025-03-01T11:58:00Z", new Date(now)), {
      unit: "minutes",
      value: 2,
    });
  });
});
