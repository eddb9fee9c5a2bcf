import { afterEach, describe, expect, it } from "vitest";
import { setDisplayTimeZone } from "@/lib/time-zone";
import { formatDate, formatDateTime } from "./format";

afterEach(() => setDisplayTimeZone(null));

describe("admin dates in the reader's zone", () => {
  it("follows the profile's zone", () => {
    setDisplayTimeZone("UTC");
    expect(formatDateTime("2026-11-26T00:30:00Z", "en")).toBe("Nov 26, 2026, 12:30 AM");
    setDisplayTimeZone("Asia/Tokyo");
    expect(formatDateTime("2026-11-26T00:30:00Z", "en")).toBe("Nov 26, 2026, 9:30 AM");
    setDisplayTimeZone("America/Los_Angeles");
    expect(formatDateTime("2026-11-26T00:30:00Z", "de")).toBe("25.11.2026, 16:30");
    expect(formatDate("2026-11-26T00:30:00Z", "fr")).toBe("25 nov. 2026");
  });
});
