/**
 * Billing rules shared by the Stripe functions: plan ↔ price mapping, which subscription
 * statuses grant access, how an account follows its subscriptions, and where Stripe's
 * objects keep the fields we read (across API versions).
 *
 * Runtime-agnostic: no Deno, Node or DOM globals, no dependencies.
 */
import { PAID_PLAN_IDS, type PaidPlanId, type PlanId } from "./plans.ts";

/** The Stripe price id of each paid plan (monthly, EUR), from the deployment's settings. */
export type PlanPrices = Readonly<Record<PaidPlanId, string>>;

export function priceForPlan(plan: PaidPlanId, prices: PlanPrices): string {
  return prices[plan];
}

/** The plan a price belongs to, or null for a price this deployment does not sell. */
export function planForPrice(
  priceId: string | null | undefined,
  prices: PlanPrices,
): PaidPlanId | null {
  if (!priceId) return null;
  return PAID_PLAN_IDS.find((plan) => prices[plan] === priceId) ?? null;
}

/** Every status a Stripe subscription can have. */
export const SUBSCRIPTION_STATUSES = [
  "incomplete",
  "incomplete_expired",
  "trialing",
  "active",
  "past_due",
  "canceled",
  "unpaid",
  "paused",
] as const;

/** Only an active or trialing subscription unlocks the plan; every other status locks it. */
export function statusGrantsAccess(status: string): boolean {
  return status === "active" || status === "trialing";
}

const PLAN_RANK: Readonly<Record<PlanId, number>> = { none: 0, basic: 1, pro: 2, enterprise: 3 };

export interface Account {
  plan: PlanId;
  subscriptionActive: boolean;
}

/**
 * The account after its subscriptions changed (the database trigger
 * `private.sync_profile_subscription` applies the same rule): with any subscription that grants
 * access, the account is active on the best such plan; with none, it is inactive and keeps its
 * plan (so a lapsed user sees what to renew).
 */
export function accountFromSubscriptions(
  current: Account,
  subscriptions: readonly { plan: PaidPlanId; status: string }[],
): Account {
  const granting = subscriptions.filter((s) => statusGrantsAccess(s.status));
  if (granting.length === 0) return { plan: current.plan, subscriptionActive: false };
  const best = granting.reduce((a, b) => (PLAN_RANK[b.plan] > PLAN_RANK[a.plan] ? b : a));
  return { plan: best.plan, subscriptionActive: true };
}

// ---------------------------------------------------------------------------------------------
// Reading Stripe objects. Expandable fields arrive as an id or as the expanded object.
// ---------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The id of an expandable field: `"sub_123"` or `{ id: "sub_123", ... }`. */
export function expandableId(value: unknown): string | null {
  if (typeof value === "string" && value !== "") return value;
  if (isRecord(value) && typeof value.id === "string" && value.id !== "") return value.id;
  return null;
}

/** The webhook event types whose subscription the handler re-reads and applies. */
export const SUBSCRIPTION_EVENT_TYPES = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.payment_failed",
  // A scheduled plan change (a downgrade at the end of the period) is made, changed or dropped.
  "subscription_schedule.created",
  "subscription_schedule.updated",
  "subscription_schedule.released",
  "subscription_schedule.canceled",
] as const;
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];

export function isSubscriptionEventType(type: string): type is SubscriptionEventType {
  return (SUBSCRIPTION_EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The subscription an event is about: the session's subscription (checkout), the object itself
 * (customer.subscription.*), or the invoice's subscription — `invoice.subscription` in API
 * versions before 2025-03-31, `invoice.parent.subscription_details.subscription` since.
 * Null when there is none (a one-off payment, an invoice without a subscription).
 */
export function subscriptionIdOf(type: SubscriptionEventType, object: unknown): string | null {
  if (!isRecord(object)) return null;
  switch (type) {
    case "checkout.session.completed":
      return expandableId(object.subscription);
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return expandableId(object.id);
    case "invoice.payment_failed": {
      const parent = isRecord(object.parent) ? object.parent : {};
      const details = isRecord(parent.subscription_details) ? parent.subscription_details : {};
      return expandableId(object.subscription) ?? expandableId(details.subscription);
    }
    case "subscription_schedule.created":
    case "subscription_schedule.updated":
    case "subscription_schedule.released":
    case "subscription_schedule.canceled":
      // A released schedule no longer names its subscription, only `released_subscription`.
      return expandableId(object.subscription) ?? expandableId(object.released_subscription);
  }
}

function firstItem(subscription: Json): Json | null {
  const items = isRecord(subscription.items) ? subscription.items.data : null;
  return Array.isArray(items) && isRecord(items[0]) ? items[0] : null;
}

/** The price of the subscription's (first) item. */
export function subscriptionPriceId(subscription: Json): string | null {
  const item = firstItem(subscription);
  return item ? expandableId(item.price) : null;
}

/**
 * End of the current period, in seconds since the epoch: `subscription.current_period_end`
 * before API version 2025-03-31, the first item's `current_period_end` since.
 */
export function subscriptionPeriodEnd(subscription: Json): number | null {
  if (typeof subscription.current_period_end === "number") return subscription.current_period_end;
  const item = firstItem(subscription);
  return item && typeof item.current_period_end === "number" ? item.current_period_end : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user id our checkout wrote into the subscription's metadata, when it is a uuid. */
export function metadataUserId(subscription: Json): string | null {
  const metadata = isRecord(subscription.metadata) ? subscription.metadata : {};
  const id = metadata.user_id;
  return typeof id === "string" && UUID.test(id) ? id.toLowerCase() : null;
}

// ---------------------------------------------------------------------------------------------
// Changing plans in place (decision 0051).
// ---------------------------------------------------------------------------------------------

export type PlanChangeKind = "upgrade" | "downgrade" | "same";

/** Whether moving from one paid plan to another is an upgrade (dearer), a downgrade or neither. */
export function planChangeKind(from: PaidPlanId, to: PaidPlanId): PlanChangeKind {
  if (PLAN_RANK[to] > PLAN_RANK[from]) return "upgrade";
  if (PLAN_RANK[to] < PLAN_RANK[from]) return "downgrade";
  return "same";
}

export interface PendingPlanChange {
  plan: PaidPlanId;
  /** Seconds since the epoch: when the schedule's next phase starts. */
  at: number;
}

/**
 * The plan change a subscription schedule has queued: the first phase that starts at or after
 * the current period's end, when its price is a plan sold here and differs from `currentPlan`.
 * `schedule` is the subscription's `schedule` field (expanded); an id alone, a released,
 * completed or canceled schedule, or a schedule without such a phase queue nothing.
 */
export function pendingPlanChange(
  schedule: unknown,
  currentPlan: PaidPlanId,
  periodEnd: number | null,
  prices: PlanPrices,
): PendingPlanChange | null {
  if (!isRecord(schedule)) return null;
  if (schedule.status !== "active" && schedule.status !== "not_started") return null;
  const phases = Array.isArray(schedule.phases) ? schedule.phases.filter(isRecord) : [];
  const next = phases
    .filter((p) =>
      typeof p.start_date === "number" && (periodEnd === null || p.start_date >= periodEnd)
    )
    .sort((a, b) => (a.start_date as number) - (b.start_date as number))[0];
  if (!next) return null;
  const items = Array.isArray(next.items) ? next.items.filter(isRecord) : [];
  const plan = planForPrice(items[0] ? expandableId(items[0].price) : null, prices);
  if (!plan || plan === currentPlan) return null;
  return { plan, at: next.start_date as number };
}
