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

/**
 * Observation windows in minutes; 0 stands for the 10-second window.
 * The database holds the same rule (`public.allowed_windows`, `public.fallback_window`,
 * see docs/decisions/0005-windows-per-plan.md) and refuses any other window.
 */
/**
 * Pro's analysis (historical comparisons, advanced analytics, additional indicators): Pro and
 * Enterprise with an active subscription, not banned. The database enforces the same rule
 * (private.require_pro_plan, decision 0035); this only decides what the screens offer.
 */
export function hasProAnalytics(account: {
  plan: PlanId;
  subscriptionActive: boolean;
  banned?: boolean;
}): boolean {
  return account.subscriptionActive && !account.banned &&
    (account.plan === "pro" || account.plan === "enterprise");
}

export const WINDOW_MINUTES = [0, 5, 10, 15, 20, 25, 30] as const;
export type WindowMinutes = (typeof WINDOW_MINUTES)[number];

const ALLOWED_WINDOWS: Readonly<Record<PlanId, readonly WindowMinutes[]>> = {
  none: [30],
  basic: [30],
  pro: [15, 20, 25, 30],
  enterprise: [0, 5, 10, 15, 20, 25, 30],
};

const FALLBACK_WINDOWS: Readonly<Record<PlanId, WindowMinutes>> = {
  none: 30,
  basic: 30,
  pro: 15,
  enterprise: 5,
};

/** The windows a plan may select, shortest first. */
export function allowedWindows(plan: PlanId): readonly WindowMinutes[] {
  return ALLOWED_WINDOWS[plan];
}

/** The window a plan falls back to when the stored one is not offered. */
export function fallbackWindow(plan: PlanId): WindowMinutes {
  return FALLBACK_WINDOWS[plan];
}

export function isWindowAllowed(plan: PlanId, minutes: number): boolean {
  return (ALLOWED_WINDOWS[plan] as readonly number[]).includes(minutes);
}

/** Basic (and the free state) have one fixed window; pro and enterprise choose. */
export function hasSelectableWindow(plan: PlanId): boolean {
  return ALLOWED_WINDOWS[plan].length > 1;
}

/** The stored window if the plan offers it, else the plan's fallback. */
export function effectiveWindow(plan: PlanId, minutes: number): WindowMinutes {
  return isWindowAllowed(plan, minutes) ? (minutes as WindowMinutes) : FALLBACK_WINDOWS[plan];
}

/**
 * How to name a window, for a translated label: 0 is "10 seconds", the others are minutes.
 * `windowLabel(0)` → `{ count: 10, unit: "seconds" }`, `windowLabel(15)` → `{ count: 15, unit: "minutes" }`.
 */
export function windowLabel(minutes: number): { count: number; unit: "seconds" | "minutes" } {
  return minutes === 0 ? { count: 10, unit: "seconds" } : { count: minutes, unit: "minutes" };
}
