import { afterEach, describe, expect, it } from "vitest";
import { setDisplayTimeZone } from "@/lib/time-zone";
import { formatDateTime, responseClock, splitMinutes, targetHours } from "./ticket-values";

const created = "2026-11-25T10:00:00Z";
const due = "2026-11-25T11:00:00Z";
const at = (iso: string) => Date.parse(iso);

describe("responseClock", () => {
  it("counts down to the plan's target while nobody answered", () => {
    const ticket = { status: "open" as const, response_due_at: due, first_response_at: null };
    expect(responseClock(ticket, at("2026-11-25T10:15:00Z"))).toEqual({
      state: "waiting",
      minutesLeft: 45,
    });
  });

  it("is breached once the target passed without an answer, with the time over", () => {
    const ticket = {
      status: "in_progress" as const,
      response_due_at: due,
      first_response_at: null,
    };
    expect(responseClock(ticket, at("2026-11-25T12:05:00Z"))).toEqual({
      state: "breached",
      minutesOver: 65,
    });
  });

  it("stops at the first answer, on time or late", () => {
    const onTime = {
      status: "open" as const,
      response_due_at: due,
      first_response_at: "2026-11-25T10:30:00Z",
    };
    const late = {
      status: "open" as const,
      response_due_at: due,
      first_response_at: "2026-11-25T11:30:00Z",
    };
    expect(responseClock(onTime, at("2026-11-26T00:00:00Z"))).toEqual({
      state: "answered",
      late: false,
    });
    expect(responseClock(late, at("2026-11-26T00:00:00Z"))).toEqual({
      state: "answered",
      late: true,
    });
  });

  it("stops when a ticket is resolved or closed unanswered", () => {
    const ticket = { status: "closed" as const, response_due_at: due, first_response_at: null };
    expect(responseClock(ticket, at("2026-11-26T00:00:00Z"))).toEqual({ state: "stopped" });
  });
});

describe("targetHours and splitMinutes", () => {
  it("read the plan's target from the ticket and split durations", () => {
    expect(targetHours({ created_at: created, response_due_at: due })).toBe(1);
    expect(targetHours({ created_at: created, response_due_at: "2026-11-28T10:00:00Z" })).toBe(72);
    expect(splitMinutes(125)).toEqual({ hours: 2, minutes: 5 });
  });
});

describe("ticket dates in the reader's zone", () => {
  afterEach(() => setDisplayTimeZone(null));

  it("follows a zone change while the page is open (no stale cached format)", () => {
    setDisplayTimeZone("Europe/Berlin");
    expect(formatDateTime("2026-11-26T00:30:00Z", "en")).toBe("Nov 26, 2026, 1:30 AM");
    setDisplayTimeZone("America/New_York");
    expect(formatDateTime("2026-11-26T00:30:00Z", "en")).toBe("Nov 25, 2026, 7:30 PM");
  });
});
