// Portable test: `deno test` runs it natively; vitest maps `node:test` to its own runner.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
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
    assert.deepEqual(PLAN_IDS, ["none", "basic", "pro", "enterprise"]);
    assert.deepEqual(PAID_PLAN_IDS, ["basic", "pro", "enterprise"]);
  });

  it("prices the paid plans at 29, 69 and 99 EUR per month", () => {
    assert.deepEqual(PLAN_PRICES_EUR, { basic: 29, pro: 69, enterprise: 99 });
  });

  it("recognises plan ids", () => {
    assert.equal(isPlanId("pro"), true);
    assert.equal(isPlanId("none"), true);
    assert.equal(isPlanId("gold"), false);
    assert.equal(isPlanId(undefined), false);
  });

  it("treats only basic, pro and enterprise as paid", () => {
    assert.equal(isPaidPlan("none"), false);
    assert.equal(PAID_PLAN_IDS.every(isPaidPlan), true);
  });

  it("requires a paid plan and an active subscription", () => {
    assert.equal(hasActivePaidPlan({ plan: "pro", subscriptionActive: true }), true);
    assert.equal(hasActivePaidPlan({ plan: "pro", subscriptionActive: false }), false);
    assert.equal(hasActivePaidPlan({ plan: "none", subscriptionActive: true }), false);
  });
});
