// POST /functions/v1/billing-portal with the user's token → `{ url }`: a Stripe Billing Portal
// session where the user changes or cancels their subscription and updates their card; Stripe
// then reports the changes to the stripe-webhook function. A banned user may still open it,
// so that they can stop paying.
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  type BillingDbFactory,
  billingEnv,
  callStripe,
  createStripe,
  defaultBillingDb,
  siteUrlFrom,
} from "../_shared/billing.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { requireUser } from "../_shared/supabase.ts";

export interface BillingPortalDeps {
  env?: Env;
  db?: BillingDbFactory;
}

export function createBillingPortalApp(deps: BillingPortalDeps = {}) {
  const env = deps.env ?? denoEnv;
  const makeDb = deps.db ?? defaultBillingDb;
  const app = functionApp("billing-portal");

  app.post("/", async (c) => {
    const vars = billingEnv(env, ["STRIPE_SECRET_KEY", "SITE_URL"]);
    const siteUrl = siteUrlFrom(vars.SITE_URL);
    const stripe = createStripe(env);
    const db = makeDb(env);

    const user = await requireUser(db, c.req.raw, { allowBanned: true });
    const customer = await db.getCustomerId(user.id);
    if (!customer) throw new HttpError(404, "no_customer", "No subscription to manage yet.");

    const session = await callStripe(
      "billing_portal.sessions.create",
      () => stripe.billingPortal.sessions.create({ customer, return_url: `${siteUrl}/profile` }),
    );
    return c.json({ url: session.url });
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createBillingPortalApp();
