import { LIVE_LIST_CAP, type MoverEntry, type MoversBroadcast } from "@domain/realtime";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { moverEntry } from "@/testing/movers";
import { applyMovers } from "./apply-movers";

/** A 5-minute mover of the feed's shape, its row id a thousand times its instrument's. */
function mover(instrumentId: number, overrides: Partial<MoverEntry> = {}): MoverEntry {
  return moverEntry(
    instrumentId,
    {
      id: instrumentId * 1000,
      price: 1,
      price_3hour_ago: null,
      pct: 5,
      window_used: 5,
      ...overrides,
    },
    "2026-11-21T12:00:00Z",
  );
}

function scan(entries: MoverEntry[]): MoversBroadcast {
  return { window: 5, scanned_at: "2026-11-21T12:00:10Z", entries };
}

/** A payload from the network that does not have the promised shape. */
function malformed<T>(value: unknown): T {
  return value as T;
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
});

describe("applyMovers", () => {
  it("puts the scan's entries first, in their order, above the older ones", () => {
    const list = [mover(1), mover(2)];
    expect(applyMovers(list, scan([mover(3), mover(4)])).map((m) => m.instrument_id)).toEqual([
      3, 4, 1, 2,
    ]);
  });

  it("drops older entries of an instrument the scan mentions again", () => {
    const list = [mover(1, { pct: 3 }), mover(2), mover(3)];
    const next = applyMovers(list, scan([mover(2, { pct: 9 }), mover(1, { pct: 7 })]));
    expect(next.map((m) => [m.instrument_id, m.pct])).toEqual([
      [2, 9],
      [1, 7],
      [3, 5],
    ]);
  });

  it("keeps the first entry when a scan repeats an instrument", () => {
    const next = applyMovers([], scan([mover(1, { pct: 8 }), mover(1, { pct: 2 })]));
    expect(next).toEqual([mover(1, { pct: 8 })]);
  });

  it("starts from an empty list when nothing is cached", () => {
    expect(applyMovers(undefined, scan([mover(1)]))).toEqual([mover(1)]);
    expect(applyMovers(undefined, scan([]))).toEqual([]);
  });

  it(`keeps at most ${LIVE_LIST_CAP} entries by default, dropping the oldest`, () => {
    const list = Array.from({ length: LIVE_LIST_CAP }, (_, i) => mover(i + 1));
    const next = applyMovers(list, scan([mover(1000), mover(1001)]));
    expect(next).toHaveLength(LIVE_LIST_CAP);
    expect(next.slice(0, 3).map((m) => m.instrument_id)).toEqual([1000, 1001, 1]);
    expect(next.at(-1)?.instrument_id).toBe(LIVE_LIST_CAP - 2);
  });

  it("honours a custom cap, also for a scan larger than the cap", () => {
    expect(
      applyMovers([mover(1)], scan([mover(2), mover(3)]), 2).map((m) => m.instrument_id),
    ).toEqual([2, 3]);
    expect(applyMovers([], scan([mover(1), mover(2), mover(3)]), 2)).toHaveLength(2);
    expect(applyMovers([mover(1)], scan([mover(2)]), 0)).toEqual([]);
  });

  it("returns the same list for an empty scan", () => {
    const list = [mover(1)];
    expect(applyMovers(list, scan([]))).toBe(list);
  });

  it("ignores and logs a broadcast without entries", () => {
    const list = [mover(1)];
    expect(applyMovers(list, malformed({ window: 5 }))).toBe(list);
    expect(applyMovers(list, malformed(null))).toBe(list);
    expect(applyMovers(list, malformed({ entries: "nope" }))).toBe(list);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it("skips and logs entries without an instrument_id", () => {
    const next = applyMovers(
      [mover(1)],
      scan([malformed({ symbol: "BAD" }), mover(2), malformed(null)]),
    );
    expect(next.map((m) => m.instrument_id)).toEqual([2, 1]);
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it("does not change the given list", () => {
    const list = [mover(1), mover(2)];
    const copy = structuredClone(list);
    applyMovers(list, scan([mover(2), mover(3)]));
    expect(list).toEqual(copy);
  });
});
