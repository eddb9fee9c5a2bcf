import { afterEach, describe, expect, it } from "vitest";
import {
  dateTimeFormat,
  displayTimeZone,
  isKnownTimeZone,
  setDisplayTimeZone,
  supportedTimeZones,
} from "./time-zone";

const at = new Date("2026-11-26T00:30:00Z");
const clock = (locale: string) =>
  dateTimeFormat(locale, { dateStyle: "short", timeStyle: "short" }).format(at);

afterEach(() => setDisplayTimeZone(null));

describe("the reader's time zone", () => {
  it("builds a format once per locale, zone and options, and a new one when the zone changes", () => {
    setDisplayTimeZone("UTC");
    const options = { timeStyle: "short" } as const;
    const first = dateTimeFormat("en-GB", options);
    expect(dateTimeFormat("en-GB", { timeStyle: "short" })).toBe(first);
    expect(first.format(at)).toBe("00:30");
    setDisplayTimeZone("Asia/Tokyo");
    expect(dateTimeFormat("en-GB", options)).not.toBe(first);
    expect(dateTimeFormat("en-GB", options).format(at)).toBe("09:30");
    // The same zone again keeps its check and its formats.
    setDisplayTimeZone("Asia/Tokyo");
    expect(displayTimeZone()).toBe("Asia/Tokyo");
    setDisplayTimeZone("Not/AZone");
    expect(displayTimeZone()).toBeUndefined();
  });

  it("formats in the profile's zone, in three zones and four languages", () => {
    setDisplayTimeZone("UTC");
    expect(clock("en-GB")).toBe("26/11/2026, 00:30");
    setDisplayTimeZone("Europe/Berlin");
    expect(clock("de")).toBe("26.11.26, 01:30");
    expect(clock("fr")).toBe("26/11/2026 01:30");
    setDisplayTimeZone("America/New_York");
    expect(clock("en")).toBe("11/25/26, 7:30 PM");
    expect(clock("es")).toBe("25/11/26, 19:30");
  });

  it("ignores a zone this browser does not know, and lets an explicit zone win", () => {
    setDisplayTimeZone("Mars/Olympus_Mons");
    expect(displayTimeZone()).toBeUndefined();
    setDisplayTimeZone("Asia/Tokyo");
    expect(dateTimeFormat("en-GB", { timeStyle: "short", timeZone: "UTC" }).format(at)).toBe(
      "00:30",
    );
    expect(dateTimeFormat("en-GB", { timeStyle: "short" }).format(at)).toBe("09:30");
  });

  it("lists the IANA zones, UTC included", () => {
    const zones = supportedTimeZones();
    expect(zones).toContain("Europe/Berlin");
    expect(zones).toContain("UTC");
    expect(zones).toEqual([...zones].sort());
    expect(isKnownTimeZone("Europe/Berlin")).toBe(true);
    expect(isKnownTimeZone("Nowhere/City")).toBe(false);
  });
});
