// POST /functions/v1/stripe-webhook: Stripe's events, verified by the Stripe-Signature header
// over the raw body (verify_jwt is off for this function: Stripe sends no Supabase token).
//
// Every handled event names a subscription; the handler re-reads that subscription from Stripe
// and stores its CURRENT state, so events arriving twice or out of order end in the right state.
// A downgrade scheduled for the end of the period (decision 0051) is read from the subscription's
// expanded schedule and stored as pending_plan / pending_plan_at; the schedule's own events
// (subscription_schedule.*) are handled like the subscription's.
// The database derives the user's plan and subscription_active from the stored subscriptions
// (trigger private.sync_profile_subscription).
//
// Idempotency: an event id already in public.billing_events is answered 200 `duplicate` with no
// side effect. The id is recorded only AFTER the event was applied: if anything fails before,
// the answer is 500 and Stripe's retry processes it again (applying the current state twice is
// harmless). A failure can therefore never leave an event marked processed but not applied.
import type Stripe from "stripe";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  ALL_PRICE_VARS,
  type BillingDb,
  type BillingDbFactory,
  billingEnv,
  createStripe,
  defaultBillingDb,
  isStripeError,
  pricesFrom,
  subscriptionRecord,
  verifyStripeEvent,
} from "../_shared/billing.ts";
import {
  expandableId,
  isSubscriptionEventType,
  metadataUserId,
  planForPrice,
  type PlanPrices,
  subscriptionIdOf,
  subscriptionPriceId,
} from "../_shared/domain/billing.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError, jsonError } from "../_shared/http.ts";

export interface StripeWebhookDeps {
  env?: Env;
  db?: BillingDbFactory;
  /** The clock that stamps when a subscription state was read (tests). */
  now?: () => Date;
}

type Outcome =
  | { subscription: string; status: string; plan: string }
  | { ignored: true; note: string };

function ignored(note: string): Outcome {
  console.warn(`[stripe-webhook] ignored: ${note}`);
  return { ignored: true, note };
}

async function retrieveSubscription(
  stripe: Stripe,
  id: string,
): Promise<Stripe.Subscription | null> {
  try {
    // The schedule (a downgrade waiting for the end of the period) comes along, expanded.
    return await stripe.subscriptions.retrieve(id, { expand: ["schedule"] });
  } catch (err) {
    // A subscription Stripe does not know (another account or mode) will never appear: retrying
    // cannot help. Every other failure propagates as a 500 so that Stripe retries.
    if (isStripeError(err) && (err as { code?: string }).code === "resource_missing") return null;
    throw err;
  }
}

async function applySubscriptionEvent(
  event: Stripe.Event,
  stripe: Stripe,
  db: BillingDb,
  prices: PlanPrices,
  now: () => Date,
): Promise<Outcome> {
  if (!isSubscriptionEventType(event.type)) return ignored(`event type ${event.type}`);
  const subscriptionId = subscriptionIdOf(event.type, event.data.object);
  if (!subscriptionId) return ignored(`${event.type} ${event.id} concerns no subscription`);

  const subscription = await retrieveSubscription(stripe, subscriptionId);
  if (!subscription) return ignored(`subscription ${subscriptionId} does not exist in Stripe`);
  const readAt = now();
  const sub = subscription as unknown as Record<string, unknown>;

  const priceId = subscriptionPriceId(sub);
  const plan = planForPrice(priceId, prices);
  if (!priceId || !plan) {
    return ignored(`subscription ${subscriptionId} has price ${priceId ?? "none"}, not sold here`);
  }
  const customerId = expandableId(subscription.customer);
  if (!customerId) return ignored(`subscription ${subscriptionId} has no customer`);

  let userId = metadataUserId(sub);
  if (userId && !(await db.userExists(userId))) userId = null;
  userId ??= await db.findUserByCustomer(customerId);
  if (!userId) return ignored(`no user for subscription ${subscriptionId} (${customerId})`);

  const record = subscriptionRecord(sub, userId, prices, readAt);
  if (!record) return ignored(`subscription ${subscriptionId} cannot be stored`);
  await db.upsertSubscription(record);
  console.log(
    `[stripe-webhook] ${event.type} ${event.id}: ${subscription.id} ${subscription.status} ${plan} → ${userId}`,
  );
  return { subscription: subscription.id, status: subscription.status, plan };
}

export function createStripeWebhookApp(deps: StripeWebhookDeps = {}) {
  const env = deps.env ?? denoEnv;
  const makeDb = deps.db ?? defaultBillingDb;
  const now = deps.now ?? (() => new Date());
  // Stripe calls this server to server: no CORS.
  const app = functionApp("stripe-webhook", { cors: false });

  app.post("/", async (c) => {
    const vars = billingEnv(env, ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", ...ALL_PRICE_VARS]);
    const prices = pricesFrom(vars);

    // The signature covers the exact bytes Stripe sent: read the raw text, parse nothing first.
    const raw = await c.req.text();
    const signature = c.req.header("stripe-signature");
    const event = signature
      ? await verifyStripeEvent(raw, signature, vars.STRIPE_WEBHOOK_SECRET)
      : null;
    if (!event) {
      return jsonError(400, "invalid_signature", "The Stripe-Signature header does not verify.");
    }

    if (!isSubscriptionEventType(event.type)) return c.json({ received: true, ignored: true });

    const db = makeDb(env);
    if (await db.hasEvent(event.id)) return c.json({ received: true, duplicate: true });
    try {
      const outcome = await applySubscriptionEvent(event, createStripe(env), db, prices, now);
      await db.recordEvent(event.id, event.type);
      return c.json({ received: true, ...outcome });
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const detail = isStripeError(err)
        ? `Stripe ${(err as { type?: string }).type}: ${(err as Error).message}`
        : err;
      console.error(
        `[stripe-webhook] ${event.type} ${event.id} failed; Stripe will retry.`,
        detail,
      );
      return jsonError(500, "processing_failed", "The event could not be processed yet.");
    }
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createStripeWebhookApp();
