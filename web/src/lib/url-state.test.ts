import { describe, expect, it } from "vitest";
import { readEnum, readList, readNumber, readText, withParams } from "./url-state";

const q = (search: string) => new URLSearchParams(search);

describe("reading the address", () => {
  it("takes a known value and falls back on an unknown or missing one", () => {
    const allowed = ["all", "gains", "losses"] as const;
    expect(readEnum(q("dir=gains"), "dir", allowed, "all")).toBe("gains");
    expect(readEnum(q("dir=up"), "dir", allowed, "all")).toBe("all");
    expect(readEnum(q(""), "dir", allowed, "all")).toBe("all");
  });

  it("takes a number within bounds, and whole numbers only when asked", () => {
    const bounds = { min: 0, max: 1000 };
    expect(readNumber(q("min=12.5"), "min", bounds, 0)).toBe(12.5);
    expect(readNumber(q("min=-1"), "min", bounds, 0)).toBe(0);
    expect(readNumber(q("min=1001"), "min", bounds, 7)).toBe(7);
    expect(readNumber(q("min=abc"), "min", bounds, 3)).toBe(3);
    expect(readNumber(q("min="), "min", bounds, 3)).toBe(3);
    expect(readNumber(q("min=Infinity"), "min", bounds, 3)).toBe(3);
    expect(readNumber(q("page=2.5"), "page", { ...bounds, integer: true }, 1)).toBe(1);
    expect(readNumber(q("page=4"), "page", { ...bounds, integer: true }, 1)).toBe(4);
  });

  it("cuts text to its length and reads lists without blanks or repeats", () => {
    expect(readText(q(`q=${"a".repeat(120)}`), "q", 100)).toHaveLength(100);
    expect(readText(q(""), "q")).toBe("");
    expect(readList(q("network=bsc,,ethereum,bsc, base "), "network")).toEqual([
      "bsc",
      "ethereum",
      "base",
    ]);
    expect(readList(q("network="), "network")).toEqual([]);
  });
});

describe("writing the address", () => {
  it("sets values, joins lists and keeps the other keys", () => {
    const next = withParams(q("tab=users&q=ada"), { network: ["bsc", "base"], page: 3 });
    expect(next.toString()).toBe("tab=users&q=ada&network=bsc%2Cbase&page=3");
  });

  it("leaves defaults, blanks, empty lists and null out", () => {
    const next = withParams(
      q("dir=gains&min=5&network=bsc&q=x&page=2"),
      { dir: "all", min: 0, network: [], q: "", page: null },
      { dir: "all", min: 0 },
    );
    expect(next.toString()).toBe("");
  });

  it("does not change the parameters it was given", () => {
    const before = q("dir=gains");
    withParams(before, { dir: "losses" });
    expect(before.toString()).toBe("dir=gains");
  });
});
