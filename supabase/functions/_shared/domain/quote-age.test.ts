import { describe, expect, it } from "vitest";
import {
  confirmedTime,
  isQuoteStale,
  isVenueStale,
  quoteAge,
  venueConfirmation,
  venueConfirmedThrough,
  windowMs,
} from "./quote-age.ts";

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

it("venueConfirmation: only a run that a later full poll covers confirms", () => {
  const poll = { last_success_at: "2026-11-29T03:00:20Z" };
  const stream = (since: string, through: string | null) => ({
    confirmed_since: since,
    confirmed_through: through,
  });
  expect(venueConfirmation(stream("2026-11-29T03:00:00Z", "2026-11-29T03:00:38Z"), poll)).toEqual({
    through: Date.parse("2026-11-29T03:00:38Z"),
    polledAt: Date.parse("2026-11-29T03:00:20Z"),
  });
  // The run began after the poll: a change before it connected may be missed.
  expect(venueConfirmation(stream("2026-11-29T03:00:21Z", "2026-11-29T03:00:38Z"), poll)).toEqual(
    null,
  );
  expect(venueConfirmation(stream("2026-11-29T03:00:00Z", null), poll)).toEqual(null);
  expect(venueConfirmation(null, poll)).toEqual(null);
  expect(venueConfirmation(stream("2026-11-29T03:00:00Z", "2026-11-29T03:00:38Z"), {
    last_success_at: null,
  })).toEqual(null);
});

it("confirmedTime: the venue's confirmation for rows its last full poll wrote, never earlier than the quote", () => {
  const venue = {
    through: Date.parse("2026-11-29T03:00:38Z"),
    polledAt: Date.parse("2026-11-29T03:00:20Z"),
  };
  const row = { ts: "2026-11-29T03:00:20Z", quoted_at: "2026-11-29T03:00:19.5Z" };
  expect(confirmedTime(row, venue)).toEqual("2026-11-29T03:00:38.000Z");
  // Written before the poll (the poll did not name it): its own quote time.
  expect(confirmedTime({ ...row, ts: "2026-11-29T03:00:19Z" }, venue)).toEqual(
    "2026-11-29T03:00:19.5Z",
  );
  // A quote newer than the confirmation keeps its own time.
  expect(confirmedTime({ ts: "2026-11-29T03:00:40Z", quoted_at: "2026-11-29T03:00:39Z" }, venue))
    .toEqual("2026-11-29T03:00:39Z");
  // No venue confirmation: the feed's confirmed_at when later, else the quote's time.
  expect(confirmedTime({ ...row, confirmed_at: "2026-11-29T03:00:30Z" }, null)).toEqual(
    "2026-11-29T03:00:30Z",
  );
  expect(confirmedTime({ ...row, confirmed_at: "2026-11-29T03:00:01Z" }, null)).toEqual(
    "2026-11-29T03:00:19.5Z",
  );
  expect(confirmedTime({ ts: "2026-11-29T03:00:20Z" }, null)).toEqual("2026-11-29T03:00:20Z");
});

describe("venueConfirmedThrough", () => {
  const poll = {
    last_success_at: "2026-03-02T11:59:30.000Z",
    last_quote_at: "2026-03-02T11:59:29.000Z",
  };
  it("is the stream's confirmation when it covers the poll and is later than its newest quote", () => {
    const stream = {
      confirmed_since: "2026-03-02T11:50:00.000Z",
      confirmed_through: "2026-03-02T11:59:58.000Z",
    };
    expect(venueConfirmedThrough(stream, poll)).toEqual({
      at: Date.parse("2026-03-02T11:59:58.000Z"),
      by: "stream",
    });
    // A run begun after the poll, or one that confirms less than the quote: the quote.
    const quoted = { at: Date.parse("2026-03-02T11:59:29.000Z"), by: "poll" };
    expect(venueConfirmedThrough({ ...stream, confirmed_since: "2026-03-02T11:59:31.000Z" }, poll))
      .toEqual(quoted);
    expect(
      venueConfirmedThrough({ ...stream, confirmed_through: "2026-03-02T11:59:28.000Z" }, poll),
    ).toEqual(quoted);
    expect(venueConfirmedThrough(null, poll)).toEqual(quoted);
    expect(venueConfirmedThrough(null, { ...poll, last_quote_at: null })).toBeNull();
  });
  it("is stale past five minutes, or when nothing is confirmed", () => {
    expect(isVenueStale(NOW - 300_000, NOW)).toBe(false);
    expect(isVenueStale(NOW - 300_001, NOW)).toBe(true);
    expect(isVenueStale(null, NOW)).toBe(true);
  });
});
