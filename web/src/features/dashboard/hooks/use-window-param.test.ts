import { describe, expect, it } from "vitest";
import { shownWindow } from "./use-window-param";

const q = (search: string) => new URLSearchParams(search);

describe("shownWindow", () => {
  it("shows the address's window when the plan offers it", () => {
    expect(shownWindow(q("window=25"), "pro", 15)).toBe(25);
    expect(shownWindow(q("window=0"), "enterprise", 15)).toBe(0);
  });

  it("shows the stored window for a clean address or one the plan does not offer", () => {
    expect(shownWindow(q(""), "pro", 20)).toBe(20);
    expect(shownWindow(q("window=0"), "pro", 20)).toBe(20);
    expect(shownWindow(q("window=15"), "basic", 30)).toBe(30);
    expect(shownWindow(q("window=abc"), "pro", 20)).toBe(20);
    expect(shownWindow(q("window=17.5"), "pro", 20)).toBe(20);
  });
});
