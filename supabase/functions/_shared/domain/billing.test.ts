import { describe, expect, it } from "vitest";
import {
  accountFromSubscriptions,
  expandableId,
  isSubscriptionEventType,
  metadataUserId,
  pendingPlanChange,
  planChangeKind,
  planForPrice,
  priceForPlan,
  statusGrantsAccess,
  SUBSCRIPTION_STATUSES,
  subscriptionIdOf,
  subscriptionPeriodEnd,
  subscriptionPriceId,
} from "./billing.ts";

const prices = { basic: "price_basic", pro: "price_pro", enterprise: "price_ent" };

describe("plan and price mapping", () => {
  it("maps each paid plan to its price and back", () => {
    expect(priceForPlan("pro", prices)).toBe("price_pro");
    expect(planForPrice("price_basic", prices)).toBe("basic");
    expect(planForPrice("price_ent", prices)).toBe("enterprise");
  });

  it("knows no plan for an unknown or missing price", () => {
    expect(planForPrice("price_other", prices)).toBeNull();
    expect(planForPrice(null, prices)).toBeNull();
    expect(planForPrice("", prices)).toBeNull();
  });
});

describe("subscription access", () => {
  it("grants access only while active or trialing", () => {
    const granting = SUBSCRIPTION_STATUSES.filter(statusGrantsAccess);
    expect(granting).toEqual(["trialing", "active"]);
  });

  it("activates the best plan among granting subscriptions", () => {
    const current = { plan: "none" as const, subscriptionActive: false };
    expect(accountFromSubscriptions(current, [{ plan: "pro", status: "active" }])).toEqual({
      plan: "pro",
      subscriptionActive: true,
    });
    expect(
      accountFromSubscriptions(current, [
        { plan: "enterprise", status: "canceled" },
        { plan: "basic", status: "trialing" },
        { plan: "pro", status: "active" },
      ]),
    ).toEqual({ plan: "pro", subscriptionActive: true });
  });

  it("deactivates but keeps the plan when no subscription grants access", () => {
    const current = { plan: "pro" as const, subscriptionActive: true };
    for (
      const status of [
        "past_due",
        "unpaid",
        "canceled",
        "incomplete",
        "incomplete_expired",
        "paused",
      ]
    ) {
      expect(accountFromSubscriptions(current, [{ plan: "pro", status }])).toEqual({
        plan: "pro",
        subscriptionActive: false,
      });
    }
    expect(accountFromSubscriptions(current, [])).toEqual({
      plan: "pro",
      subscriptionActive: false,
    });
  });
});

describe("reading Stripe objects", () => {
  it("reads expandable ids", () => {
    expect(expandableId("sub_1")).toBe("sub_1");
    expect(expandableId({ id: "sub_1", object: "subscription" })).toBe("sub_1");
    expect(expandableId(null)).toBeNull();
    expect(expandableId("")).toBeNull();
  });

  it("finds the subscription of each handled event type", () => {
    expect(subscriptionIdOf("checkout.session.completed", { subscription: "sub_1" })).toBe("sub_1");
    expect(subscriptionIdOf("checkout.session.completed", { subscription: null })).toBeNull();
    expect(subscriptionIdOf("customer.subscription.deleted", { id: "sub_2" })).toBe("sub_2");
    // Invoices before API version 2025-03-31 …
    expect(subscriptionIdOf("invoice.payment_failed", { subscription: "sub_3" })).toBe("sub_3");
    // … and since.
    expect(
      subscriptionIdOf("invoice.payment_failed", {
        parent: { type: "subscription_details", subscription_details: { subscription: "sub_4" } },
      }),
    ).toBe("sub_4");
    expect(subscriptionIdOf("invoice.payment_failed", { parent: null })).toBeNull();
    expect(subscriptionIdOf("invoice.payment_failed", "nonsense")).toBeNull();
  });

  it("lists the handled event types", () => {
    expect(isSubscriptionEventType("customer.subscription.updated")).toBe(true);
    expect(isSubscriptionEventType("charge.succeeded")).toBe(false);
  });

  it("reads the price and period end of old and new subscription shapes", () => {
    const modern = {
      items: {
        object: "list",
        data: [{ price: { id: "price_pro" }, current_period_end: 1800000000 }],
      },
    };
    expect(subscriptionPriceId(modern)).toBe("price_pro");
    expect(subscriptionPeriodEnd(modern)).toBe(1800000000);
    const legacy = { current_period_end: 1700000000, items: { data: [{ price: "price_basic" }] } };
    expect(subscriptionPriceId(legacy)).toBe("price_basic");
    expect(subscriptionPeriodEnd(legacy)).toBe(1700000000);
    expect(subscriptionPriceId({ items: { data: [] } })).toBeNull();
    expect(subscriptionPeriodEnd({})).toBeNull();
  });

  it("accepts only a uuid as the metadata user id", () => {
    const id = "6F1C0B9E-5D0A-4C3E-9A43-6F2D0B1E7A11";
    expect(metadataUserId({ metadata: { user_id: id } })).toBe(id.toLowerCase());
    expect(metadataUserId({ metadata: { user_id: "admin" } })).toBeNull();
    expect(metadataUserId({ metadata: {} })).toBeNull();
    expect(metadataUserId({})).toBeNull();
  });
});

describe("plan changes", () => {
  it("tells an upgrade from a downgrade by price rank", () => {
    expect(planChangeKind("basic", "pro")).toBe("upgrade");
    expect(planChangeKind("pro", "enterprise")).toBe("upgrade");
    expect(planChangeKind("enterprise", "basic")).toBe("downgrade");
    expect(planChangeKind("pro", "basic")).toBe("downgrade");
    expect(planChangeKind("pro", "pro")).toBe("same");
  });

  const schedule = (status: string, phases: unknown[]) => ({
    id: "sub_sched_1",
    object: "subscription_schedule",
    status,
    phases,
  });
  const phase = (start: number, end: number, price: string) => ({
    start_date: start,
    end_date: end,
    items: [{ price, quantity: 1 }],
  });

  it("reads the next phase's plan and start from an active schedule", () => {
    const s = schedule("active", [phase(100, 200, "price_pro"), phase(200, 300, "price_basic")]);
    expect(pendingPlanChange(s, "pro", 200, prices)).toEqual({ plan: "basic", at: 200 });
  });

  it("queues nothing for a released schedule, an id, the same plan or an unknown price", () => {
    const phases = [phase(100, 200, "price_pro"), phase(200, 300, "price_basic")];
    expect(pendingPlanChange(schedule("released", phases), "pro", 200, prices)).toBeNull();
    expect(pendingPlanChange("sub_sched_1", "pro", 200, prices)).toBeNull();
    expect(pendingPlanChange(null, "pro", 200, prices)).toBeNull();
    expect(
      pendingPlanChange(
        schedule("active", [phase(100, 200, "price_pro"), phase(200, 300, "price_pro")]),
        "pro",
        200,
        prices,
      ),
    ).toBeNull();
    expect(
      pendingPlanChange(
        schedule("active", [phase(100, 200, "price_pro"), phase(200, 300, "price_x")]),
        "pro",
        200,
        prices,
      ),
    ).toBeNull();
    // Only the current phase left (the change already happened at renewal).
    expect(
      pendingPlanChange(schedule("active", [phase(100, 200, "price_basic")]), "basic", 200, prices),
    ).toBeNull();
  });

  it("finds the subscription of schedule events, also once released", () => {
    expect(subscriptionIdOf("subscription_schedule.updated", { subscription: "sub_1" })).toBe(
      "sub_1",
    );
    expect(
      subscriptionIdOf("subscription_schedule.released", {
        subscription: null,
        released_subscription: "sub_2",
      }),
    ).toBe("sub_2");
    expect(isSubscriptionEventType("subscription_schedule.released")).toBe(true);
  });
});
