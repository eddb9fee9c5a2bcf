import { describe, expect, it } from "vitest";
import {
  allowedWindows,
  effectiveWindow,
  fallbackWindow,
  hasActivePaidPlan,
  hasProAnalytics,
  hasSelectableWindow,
  isPaidPlan,
  isPlanId,
  isWindowAllowed,
  PAID_PLAN_IDS,
  PLAN_IDS,
  PLAN_PRICES_EUR,
  WINDOW_MINUTES,
  windowLabel,
} from "./plans.ts";

describe("plans", () => {
  it("lists the free state and the three paid plans", () => {
    expect(PLAN_IDS).toEqual(["none", "basic", "pro", "enterprise"]);
    expect(PAID_PLAN_IDS).toEqual(["basic", "pro", "enterprise"]);
  });

  it("prices the paid plans at 29, 69 and 99 EUR per month", () => {
    expect(PLAN_PRICES_EUR).toEqual({ basic: 29, pro: 69, enterprise: 99 });
  });

  it("recognises plan ids", () => {
    expect(isPlanId("pro")).toBe(true);
    expect(isPlanId("none")).toBe(true);
    expect(isPlanId("gold")).toBe(false);
    expect(isPlanId(undefined)).toBe(false);
  });

  it("treats only basic, pro and enterprise as paid", () => {
    expect(isPaidPlan("none")).toBe(false);
    expect(PAID_PLAN_IDS.every(isPaidPlan)).toBe(true);
  });

  it("requires a paid plan and an active subscription", () => {
    expect(hasActivePaidPlan({ plan: "pro", subscriptionActive: true })).toBe(true);
    expect(hasActivePaidPlan({ plan: "pro", subscriptionActive: false })).toBe(false);
    expect(hasActivePaidPlan({ plan: "none", subscriptionActive: true })).toBe(false);
  });

  describe("windows (decision 0005)", () => {
    it("offers basic and the free state the 30 minute window only", () => {
      expect(allowedWindows("basic")).toEqual([30]);
      expect(allowedWindows("none")).toEqual([30]);
    });

    it("offers pro 15 to 30 minutes in steps of 5", () => {
      expect(allowedWindows("pro")).toEqual([15, 20, 25, 30]);
    });

    it("offers enterprise 10 seconds (0) and 5 to 30 minutes", () => {
      expect(allowedWindows("enterprise")).toEqual([0, 5, 10, 15, 20, 25, 30]);
      expect(allowedWindows("enterprise")).toEqual(WINDOW_MINUTES);
    });

    it("falls back to 30 for basic and none, 15 for pro, 5 for enterprise", () => {
      expect(fallbackWindow("none")).toBe(30);
      expect(fallbackWindow("basic")).toBe(30);
      expect(fallbackWindow("pro")).toBe(15);
      expect(fallbackWindow("enterprise")).toBe(5);
    });

    it("has every fallback among the plan's windows", () => {
      for (const plan of PLAN_IDS) {
        expect(isWindowAllowed(plan, fallbackWindow(plan))).toBe(true);
      }
    });

    it("checks a window against the plan", () => {
      expect(isWindowAllowed("basic", 30)).toBe(true);
      expect(isWindowAllowed("basic", 15)).toBe(false);
      expect(isWindowAllowed("pro", 10)).toBe(false);
      expect(isWindowAllowed("pro", 25)).toBe(true);
      expect(isWindowAllowed("enterprise", 0)).toBe(true);
      expect(isWindowAllowed("enterprise", 7)).toBe(false);
    });

    it("lets only pro and enterprise choose a window", () => {
      expect(hasSelectableWindow("none")).toBe(false);
      expect(hasSelectableWindow("basic")).toBe(false);
      expect(hasSelectableWindow("pro")).toBe(true);
      expect(hasSelectableWindow("enterprise")).toBe(true);
    });

    it("keeps an offered window and replaces any other by the fallback", () => {
      expect(effectiveWindow("pro", 20)).toBe(20);
      expect(effectiveWindow("pro", 5)).toBe(15);
      expect(effectiveWindow("basic", 15)).toBe(30);
      expect(effectiveWindow("enterprise", 0)).toBe(0);
    });

    it("names 0 as 10 seconds and every other window in minutes", () => {
      expect(windowLabel(0)).toEqual({ count: 10, unit: "seconds" });
      expect(windowLabel(5)).toEqual({ count: 5, unit: "minutes" });
      expect(windowLabel(30)).toEqual({ count: 30, unit: "minutes" });
    });
  });
});

describe("hasProAnalytics", () => {
  it("is Pro and Enterprise with an active subscription, never Basic, free or banned", () => {
    expect(hasProAnalytics({ plan: "pro", subscriptionActive: true })).toBe(true);
    expect(hasProAnalytics({ plan: "enterprise", subscriptionActive: true })).toBe(true);
    expect(hasProAnalytics({ plan: "basic", subscriptionActive: true })).toBe(false);
    expect(hasProAnalytics({ plan: "none", subscriptionActive: false })).toBe(false);
    expect(hasProAnalytics({ plan: "pro", subscriptionActive: false })).toBe(false);
    expect(hasProAnalytics({ plan: "enterprise", subscriptionActive: true, banned: true })).toBe(
      false,
    );
  });
});
