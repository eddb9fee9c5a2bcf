import { describe, expect, it } from "vitest";
import {
  hasActivePaidPlan,
  isPaidPlan,
  isPlanId,
  PAID_PLAN_IDS,
  PLAN_IDS,
  PLAN_PRICES_EUR,
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
});
