/**
 * Subscription plans and their monthly prices.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA
 * (alias `@domain`). No Deno, Node or DOM globals, no dependencies.
 */

/** Every plan a user can be on; `none` is the free state. */
export const PLAN_IDS = ["none", "basic", "pro", "enterprise"] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/** The plans that can be bought, cheapest first. */
export const PAID_PLAN_IDS = ["basic", "pro", "enterprise"] as const;
export type PaidPlanId = (typeof PAID_PLAN_IDS)[number];

export const PLAN_CURRENCY = "EUR";

/** Monthly price in whole euros. */
export const PLAN_PRICES_EUR: Readonly<Record<PaidPlanId, number>> = {
  basic: 29,
  pro: 69,
  enterprise: 99,
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === "string" && (PLAN_IDS as readonly string[]).includes(value);
}

export function isPaidPlan(plan: PlanId): plan is PaidPlanId {
  return plan !== "none";
}

/** A user may use the dashboard only on a paid plan with an active subscription. */
export function hasActivePaidPlan(account: {
  plan: PlanId;
  subscriptionActive: boolean;
}): boolean {
  return isPaidPlan(account.plan) && account.subscriptionActive;
}
