// POST /functions/v1/checkout `{ plan }` with the user's token → `{ sessionUrl }`: a Stripe
// Checkout Session (hosted payment page) for the plan's monthly price. One Stripe customer per
// user, remembered in public.billing_customers; one live subscription per user (409 otherwise:
// changes go through the billing portal). The subscription itself is recorded when Stripe
// reports it to the stripe-webhook function.
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
  paymentProviderError,
  pricesFrom,
  siteUrlFrom,
} from "../_shared/billing.ts";
import { priceForPlan } from "../_shared/domain/billing.ts";
import { PAID_PLAN_IDS } from "../_shared/domain/plans.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { type AuthUser, requireUser } from "../_shared/supabase.ts";

export const checkoutInput = z.object({ plan: z.enum(PAID_PLAN_IDS) });
const INVALID_PLAN = "Choose one of the plans basic, pro or enterprise.";

export interface CheckoutDeps {
  env?: Env;
  db?: BillingDbFactory;
}

/** The user's Stripe customer: the stored one, else a new one (a concurrent request may win). */
async function customerFor(stripe: Stripe, db: BillingDb, user: AuthUser): Promise<string> {
  const existing = await db.getCustomerId(user.id);
  if (existing) return existing;
  const customer = await callStripe("customers.create", () =>
    stripe.customers.create({
      ...(user.email ? { email: user.email } : {}),
      metadata: { user_id: user.id },
    }));
  if (await db.insertCustomer(user.id, customer.id)) return customer.id;
  // Another checkout of the same user stored its customer first: use that one. The customer
  // created here stays unused in Stripe (it has no subscription and costs nothing).
  const winner = await db.getCustomerId(user.id);
  if (!winner) throw new Error("billing_customers row vanished after a conflicting insert");
  console.warn(`[checkout] concurrent checkout for ${user.id}: ${customer.id} left unused`);
  return winner;
}

export function createCheckoutApp(deps: CheckoutDeps = {}) {
  const env = deps.env ?? denoEnv;
  const makeDb = deps.db ?? defaultBillingDb;
  const app = functionApp("checkout");

  app.post("/", async (c) => {
    const vars = billingEnv(env, ["STRIPE_SECRET_KEY", "SITE_URL", ...ALL_PRICE_VARS]);
    const prices = pricesFrom(vars);
    const siteUrl = siteUrlFrom(vars.SITE_URL);
    const stripe = createStripe(env);
    const db = makeDb(env);

    const user = await requireUser(db, c.req.raw);

    const body = await c.req.json().catch(() => undefined);
    const parsed = checkoutInput.safeParse(body);
    if (!parsed.success) {
      throw new HttpError(400, "invalid_plan", INVALID_PLAN);
    }
    const { plan } = parsed.data;
    // One subscription per user: a second Checkout would bill twice. Plan changes and
    // cancellation go through the billing portal.
    if (await db.hasLiveSubscription(user.id)) {
      throw new HttpError(
        409,
        "already_subscribed",
        "You already have an active subscription. Use Manage subscription to change or cancel it.",
      );
    }

    const customer = await customerFor(stripe, db, user);
    const session = await callStripe(
      "checkout.sessions.create",
      () =>
        stripe.checkout.sessions.create({
          mode: "subscription",
          customer,
          line_items: [{ price: priceForPlan(plan, prices), quantity: 1 }],
          success_url: `${siteUrl}/dashboard?checkout=success`,
          cancel_url: `${siteUrl}/pricing?checkout=cancelled`,
          client_reference_id: user.id,
          metadata: { user_id: user.id, plan },
          subscription_data: { metadata: { user_id: user.id, plan } },
        }),
    );
    if (!session.url) {
      console.error(`[checkout] session ${session.id} has no url`);
      throw paymentProviderError();
    }
    return c.json({ sessionUrl: session.url });
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createCheckoutApp();
