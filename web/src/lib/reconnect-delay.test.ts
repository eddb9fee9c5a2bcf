import { describe, expect, it } from "vitest";
import { reconnectDelay } from "./reconnect-delay";

const middle = () => 0.5;

describe("reconnectDelay", () => {
  it("waits 1 s, 2 s, 5 s, 10 s and then 30 s for every further attempt", () => {
    expect([0, 1, 2, 3, 4, 5, 50].map((attempt) => reconnectDelay(attempt, middle))).toEqual([
      1_000, 2_000, 5_000, 10_000, 30_000, 30_000, 30_000,
    ]);
  });

  it("spreads each delay by at most ±20 %", () => {
    expect(reconnectDelay(0, () => 0)).toBe(800);
    expect(reconnectDelay(0, () => 0.999_999)).toBe(1_200);
    expect(reconnectDelay(4, () => 0)).toBe(24_000);
    expect(reconnectDelay(4, () => 0.999_999)).toBe(36_000);
  });

  it("treats nonsense attempts as the first one", () => {
    expect(reconnectDelay(-3, middle)).toBe(1_000);
    expect(reconnectDelay(0.7, middle)).toBe(1_000);
  });
});
