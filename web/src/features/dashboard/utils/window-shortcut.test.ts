import { describe, expect, it } from "vitest";
import { windowShortcut } from "./window-shortcut";

const enterprise = {
  plan: "enterprise" as const,
  subscription_active: true,
  selected_window_minutes: 5,
};

describe("windowShortcut", () => {
  it("maps 1–7 to 10 s, 5, 10, 15, 20, 25 and 30 minutes", () => {
    expect(
      ["1", "2", "3", "4", "5", "6", "7"].map((key) => windowShortcut(key, enterprise)),
    ).toEqual([
      { kind: "choose", minutes: 0 },
      { kind: "current", minutes: 5 },
      { kind: "choose", minutes: 10 },
      { kind: "choose", minutes: 15 },
      { kind: "choose", minutes: 20 },
      { kind: "choose", minutes: 25 },
      { kind: "choose", minutes: 30 },
    ]);
  });

  it("ignores other keys", () => {
    expect(windowShortcut("0", enterprise)).toBeNull();
    expect(windowShortcut("8", enterprise)).toBeNull();
    expect(windowShortcut("j", enterprise)).toBeNull();
  });

  it("refuses a window the plan does not offer", () => {
    const pro = { plan: "pro" as const, subscription_active: true, selected_window_minutes: 15 };
    expect(windowShortcut("1", pro)).toEqual({ kind: "notInPlan", minutes: 0 });
    expect(windowShortcut("3", pro)).toEqual({ kind: "notInPlan", minutes: 10 });
    expect(windowShortcut("4", pro)).toEqual({ kind: "current", minutes: 15 });
    expect(windowShortcut("7", pro)).toEqual({ kind: "choose", minutes: 30 });
  });

  it("says when the window is fixed or the subscription inactive", () => {
    expect(
      windowShortcut("4", {
        plan: "basic",
        subscription_active: true,
        selected_window_minutes: 30,
      }),
    ).toEqual({ kind: "fixed" });
    expect(windowShortcut("4", { ...enterprise, subscription_active: false })).toEqual({
      kind: "inactive",
    });
  });
});
