// POST /functions/v1/change-plan `{ plan }` with the user's token: changes the plan of the user's
// live subscription in place (decision 0051).
//
// - An upgrade switches the subscription item's price at once with
//   `proration_behavior: "always_invoice"`: Stripe credits the unused time of the old price,
//   charges the new price for the rest of the period on an invoice paid right away, and
//   (`payment_behavior: "error_if_incomplete"`) refuses the change when that payment fails, so
//   nobody gets the dearer plan unpaid. A downgrade that was waiting is dropped first.
// - A downgrade waits for the end of the paid period: a subscription schedule made from the
//   subscription keeps the current price until `current_period_end`, then the cheaper one, and
//   releases the subscription (end_behavior `release`). The answer says when.
// - Choosing the current plan while a downgrade waits keeps it (the schedule is released).
//
// Only an active (or trialing) subscriber may change; not to the plan they already have; at most
// 5 changes an hour (public.take_plan_change_slot). The subscription as Stripe reports it after
// the change is stored at once (as the webhook does), so the profile follows before the
// `customer.subscription.updated` event arrives; the webhook converges it either way.
import type Stripe from "stripe";
import { z } from "zod";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  ALL_PRICE_VARS,
  type BillingDb,
  type BillingDbFactory,
  billingEnv,
  callStripe,
  createStripe,
  defaultBillingDb,
  isStripeError,
  pricesFrom,
  subscriptionRecord,
} from "../_shared/billing.ts";
import {
  pendingPlanChange,
  planChangeKind,
  planForPrice,
  type PlanPrices,
  priceForPlan,
  subscriptionPeriodEnd,
} from "../_shared/domain/billing.ts";
import { PAID_PLAN_IDS, type PaidPlanId } from "../_shared/domain/plans.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { requireUser } from "../_shared/supabase.ts";

export const changePlanInput = z.object({ plan: z.enum(PAID_PLAN_IDS) });

export interface ChangePlanDeps {
  env?: Env;
  db?: BillingDbFactory;
  now?: () => Date;
}

/** What the SPA shows: the plan now in force or queued, and when a queued one starts. */
export type ChangePlanResult =
  | { plan: PaidPlanId; effective: "now" }
  | { plan: PaidPlanId; effective: "period_end"; at: string }
  | { plan: PaidPlanId; effective: "kept" };

type Json = Record<string, unknown>;

function scheduleOf(sub: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  const s = sub.schedule;
  return s && typeof s === "object" && (s.status === "active" || s.status === "not_started")
    ? s
    : null;
}

async function store(
  db: BillingDb,
  sub: Stripe.Subscription,
  userId: string,
  prices: PlanPrices,
  now: () => Date,
) {
  const record = subscriptionRecord(sub as unknown as Json, userId, prices, now());
  if (record) await db.upsertSubscription(record);
}

/** A declined upgrade payment is the customer's to fix, not a provider outage. */
async function upgradeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (isStripeError(err) && (err as { type?: string }).type === "StripeCardError") {
      throw new HttpError(
        402,
        "payment_declined",
        "The payment for the upgrade was declined, so your plan is unchanged. Update your card under Manage subscription and try again.",
      );
    }
    return callStripe("subscriptions.update", () => Promise.reject(err));
  }
}

export function createChangePlanApp(deps: ChangePlanDeps = {}) {
  const env = deps.env ?? denoEnv;
  const makeDb = deps.db ?? defaultBillingDb;
  const now = deps.now ?? (() => new Date());
  const app = functionApp("change-plan");

  app.post("/", async (c) => {
    const vars = billingEnv(env, ["STRIPE_SECRET_KEY", ...ALL_PRICE_VARS]);
    const prices = pricesFrom(vars);
    const stripe = createStripe(env);
    const db = makeDb(env);

    const user = await requireUser(db, c.req.raw);

    const body = await c.req.json().catch(() => undefined);
    const parsed = changePlanInput.safeParse(body);
    if (!parsed.success) {
      throw new HttpError(400, "invalid_plan", "Choose one of the plans basic, pro or enterprise.");
    }
    const target = parsed.data.plan;

    const live = await db.getLiveSubscription(user.id);
    if (!live) {
      throw new HttpError(
        409,
        "no_active_subscription",
        "You have no active subscription to change. Choose a plan to subscribe.",
      );
    }
    if (target === live.plan && !live.pendingPlan) {
      throw new HttpError(409, "same_plan", "You are already on this plan.");
    }
    if (target === live.pendingPlan) {
      throw new HttpError(
        409,
        "change_already_scheduled",
        "This change is already scheduled for the end of your billing period.",
      );
    }

    const wait = await db.takePlanChangeSlot(user.id);
    if (wait > 0) {
      throw new HttpError(
        429,
        "too_many_plan_changes",
        "You have changed plans too often. Please wait before trying again.",
        { "Retry-After": String(wait) },
      );
    }

    // Stripe's current state is the truth: the stored row may trail a webhook.
    const sub = await callStripe(
      "subscriptions.retrieve",
      () => stripe.subscriptions.retrieve(live.id, { expand: ["schedule"] }),
    );
    const item = sub.items.data[0];
    const current = planForPrice(item?.price.id, prices);
    if (!item || !current || (sub.status !== "active" && sub.status !== "trialing")) {
      throw new HttpError(
        409,
        "no_active_subscription",
        "You have no active subscription to change. Choose a plan to subscribe.",
      );
    }
    const schedule = scheduleOf(sub);
    const kind = planChangeKind(current, target);

    if (kind === "same") {
      // Keep the current plan: drop the waiting downgrade.
      if (schedule) {
        await callStripe(
          "subscriptionSchedules.release",
          () => stripe.subscriptionSchedules.release(schedule.id),
        );
      }
      const after = await callStripe(
        "subscriptions.retrieve",
        () => stripe.subscriptions.retrieve(sub.id, { expand: ["schedule"] }),
      );
      await store(db, after, user.id, prices, now);
      return c.json({ plan: current, effective: "kept" } satisfies ChangePlanResult);
    }

    if (kind === "upgrade") {
      if (schedule) {
        await callStripe(
          "subscriptionSchedules.release",
          () => stripe.subscriptionSchedules.release(schedule.id),
        );
      }
      const updated = await upgradeCall(() =>
        stripe.subscriptions.update(sub.id, {
          items: [{ id: item.id, price: priceForPlan(target, prices) }],
          proration_behavior: "always_invoice",
          payment_behavior: "error_if_incomplete",
          metadata: { plan: target },
          expand: ["schedule"],
        })
      );
      await store(db, updated, user.id, prices, now);
      return c.json({ plan: target, effective: "now" } satisfies ChangePlanResult);
    }

    // Downgrade at the end of the paid period.
    if (sub.cancel_at_period_end) {
      throw new HttpError(
        409,
        "cancellation_pending",
        "Your subscription ends at the end of this period. Resume it under Manage subscription before changing plans.",
      );
    }
    const periodEnd = subscriptionPeriodEnd(sub as unknown as Json);
    if (periodEnd === null) {
      console.error(`[change-plan] subscription ${sub.id} has no current period end`);
      throw new HttpError(
        502,
        "payment_provider_error",
        "Payment system unavailable. Please try again later.",
      );
    }
    const made = schedule ??
      await callStripe(
        "subscriptionSchedules.create",
        () => stripe.subscriptionSchedules.create({ from_subscription: sub.id }),
      );
    const currentPhase = made.phases.find((p) => p.start_date < periodEnd) ?? made.phases[0];
    const start = made.current_phase?.start_date ?? currentPhase?.start_date;
    if (start === undefined) {
      console.error(`[change-plan] schedule ${made.id} has no current phase`);
      throw new HttpError(
        502,
        "payment_provider_error",
        "Payment system unavailable. Please try again later.",
      );
    }
    await callStripe(
      "subscriptionSchedules.update",
      () =>
        stripe.subscriptionSchedules.update(made.id, {
          end_behavior: "release",
          phases: [
            {
              items: [{ price: item.price.id, quantity: item.quantity ?? 1 }],
              start_date: start,
              end_date: periodEnd,
            },
            {
              items: [{ price: priceForPlan(target, prices), quantity: item.quantity ?? 1 }],
              duration: { interval: "month", interval_count: 1 },
              proration_behavior: "none",
              metadata: { plan: target },
            },
          ],
        }),
    );
    const after = await callStripe(
      "subscriptions.retrieve",
      () => stripe.subscriptions.retrieve(sub.id, { expand: ["schedule"] }),
    );
    await store(db, after, user.id, prices, now);
    const pending = pendingPlanChange(after.schedule, current, periodEnd, prices);
    const at = new Date((pending?.at ?? periodEnd) * 1000).toISOString();
    return c.json({ plan: target, effective: "period_end", at } satisfies ChangePlanResult);
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createChangePlanApp();
