import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import Stripe from "stripe";
import { envFrom } from "../_shared/env.ts";
import { FakeBillingDb } from "../_shared/testing/fake-db.ts";
import { FakeStripe, unreachableUrl } from "../_shared/testing/fake-stripe.ts";
import {
  billingTestEnv,
  FIXTURE_EMAIL,
  FIXTURE_PRICES,
  FIXTURE_USER_ID,
  loadFixture,
} from "../_shared/testing/fixtures.ts";
import { createCheckoutApp } from "./app.ts";

const USER = FIXTURE_USER_ID;

async function setup(envOverrides: Record<string, string | undefined> = {}) {
  const stripe = await FakeStripe.start();
  const db = new FakeBillingDb();
  const token = db.add({ id: USER, email: FIXTURE_EMAIL });
  const env = envFrom({ ...billingTestEnv(stripe.url), ...envOverrides });
  const app = createCheckoutApp({ env, db: () => db });
  const post = (body: unknown, auth: string | null = token, init: RequestInit = {}) =>
    app.fetch(
      new Request("http://local/checkout", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...init,
      }),
    );
  return { stripe, db, token, app, post, [Symbol.asyncDispose]: () => stripe.close() };
}

Deno.test("a valid plan creates the customer and a subscription Checkout Session", async () => {
  await using t = await setup();
  const res = await t.post({ plan: "pro" });
  assertEquals(res.status, 200);
  const session = await loadFixture("checkout_session");
  deepStrictEqual(await res.json(), { sessionUrl: session.url });

  const [customer] = t.stripe.callsTo("POST", "/v1/customers");
  deepStrictEqual(customer!.params, { email: FIXTURE_EMAIL, "metadata[user_id]": USER });
  const customerId = t.db.customers.get(USER);
  assertEquals(customerId, "cus_Fake0000000001");

  const [create] = t.stripe.callsTo("POST", "/v1/checkout/sessions");
  // Exactly the parameters of the API subset the local Stripe stand-in implements.
  deepStrictEqual(create!.params, {
    mode: "subscription",
    customer: customerId,
    "line_items[0][price]": FIXTURE_PRICES.pro,
    "line_items[0][quantity]": "1",
    success_url: "http://127.0.0.1:5173/dashboard?checkout=success",
    cancel_url: "http://127.0.0.1:5173/pricing?checkout=cancelled",
    client_reference_id: USER,
    "metadata[user_id]": USER,
    "metadata[plan]": "pro",
    "subscription_data[metadata][user_id]": USER,
    "subscription_data[metadata][plan]": "pro",
  });
  assertEquals(create!.headers.get("authorization"), "Bearer sk_test_51FakeLocalKeyForTests");
  assertEquals(create!.headers.get("stripe-version"), Stripe.API_VERSION);
  assertEquals(t.stripe.calls.length, 2);
});

Deno.test("each plan uses its own price", async () => {
  await using t = await setup();
  for (const plan of ["basic", "pro", "enterprise"] as const) {
    assertEquals((await t.post({ plan })).status, 200);
  }
  const prices = t.stripe.callsTo("POST", "/v1/checkout/sessions").map((c) =>
    c.params["line_items[0][price]"]
  );
  deepStrictEqual(prices, [FIXTURE_PRICES.basic, FIXTURE_PRICES.pro, FIXTURE_PRICES.enterprise]);
});

Deno.test("a returning user keeps their Stripe customer", async () => {
  await using t = await setup();
  t.db.customers.set(USER, "cus_TqN4bQy3LkX8aR");
  assertEquals((await t.post({ plan: "basic" })).status, 200);
  assertEquals(t.stripe.callsTo("POST", "/v1/customers").length, 0);
  const [create] = t.stripe.callsTo("POST", "/v1/checkout/sessions");
  assertEquals(create!.params.customer, "cus_TqN4bQy3LkX8aR");
});

Deno.test("when a concurrent checkout stored its customer first, that customer is used", async () => {
  await using t = await setup();
  t.db.beforeInsertCustomer = (userId) => t.db.customers.set(userId, "cus_StoredByTheOtherRequest");
  assertEquals((await t.post({ plan: "pro" })).status, 200);
  assertEquals(t.stripe.callsTo("POST", "/v1/customers").length, 1);
  const [create] = t.stripe.callsTo("POST", "/v1/checkout/sessions");
  assertEquals(create!.params.customer, "cus_StoredByTheOtherRequest");
});

Deno.test("a user with a live subscription gets 409 and no second Checkout", async () => {
  await using t = await setup();
  for (const status of ["active", "trialing"]) {
    t.db.subscriptions.set("sub_live", {
      id: "sub_live",
      userId: USER,
      customerId: "cus_Fake0000000001",
      priceId: FIXTURE_PRICES.basic,
      plan: "basic",
      status,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      stripeUpdatedAt: new Date().toISOString(),
    });
    const res = await t.post({ plan: "pro" });
    assertEquals(res.status, 409);
    assertEquals((await res.json()).error, "already_subscribed");
  }
  assertEquals(t.stripe.calls.length, 0);
  // A canceled subscription does not stand in the way of a new one.
  t.db.subscriptions.set("sub_live", {
    ...t.db.subscriptions.get("sub_live")!,
    status: "canceled",
  });
  assertEquals((await t.post({ plan: "pro" })).status, 200);
});

Deno.test("an invalid plan answers 400 invalid_plan without calling Stripe", async () => {
  await using t = await setup();
  for (const body of [{ plan: "gold" }, { plan: "none" }, {}, { plan: 2 }, "not json", "null"]) {
    const res = await t.post(body);
    assertEquals(res.status, 400, JSON.stringify(body));
    const json = await res.json();
    assertEquals(json.error, "invalid_plan");
    assertEquals(typeof json.message, "string");
  }
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("no token or an invalid token answers 401", async () => {
  await using t = await setup();
  for (const auth of [null, "not-a-session"]) {
    const res = await t.post({ plan: "pro" }, auth);
    assertEquals(res.status, 401);
    assertEquals((await res.json()).error, "unauthorized");
  }
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("a banned user is refused with 403", async () => {
  await using t = await setup();
  const token = t.db.add({ id: crypto.randomUUID(), email: "b@example.test", banned: true });
  const res = await t.post({ plan: "pro" }, token);
  assertEquals(res.status, 403);
  assertEquals((await res.json()).error, "banned");
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("Stripe failing answers 502 with the spec's message", async () => {
  await using t = await setup();
  t.stripe.failWith = 500;
  const res = await t.post({ plan: "pro" });
  assertEquals(res.status, 502);
  deepStrictEqual(await res.json(), {
    error: "payment_provider_error",
    message: "Payment system unavailable. Please try again later.",
  });
  // The customer was not stored, so the next attempt starts over.
  assertEquals(t.db.customers.size, 0);
});

Deno.test("Stripe unreachable answers 502 with the spec's message", async () => {
  await using t = await setup({ STRIPE_API_URL: unreachableUrl() });
  const res = await t.post({ plan: "pro" });
  assertEquals(res.status, 502);
  assertEquals((await res.json()).message, "Payment system unavailable. Please try again later.");
});

Deno.test("a missing setting answers 500 billing_not_configured naming it, not its value", async () => {
  await using t = await setup({ STRIPE_SECRET_KEY: undefined, STRIPE_PRICE_PRO: "" });
  const res = await t.post({ plan: "pro" });
  assertEquals(res.status, 500);
  const body = await res.json();
  assertEquals(body.error, "billing_not_configured");
  assertEquals(
    body.message,
    "The server is missing the environment variables STRIPE_SECRET_KEY, STRIPE_PRICE_PRO.",
  );
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("an invalid SITE_URL or STRIPE_API_URL is a configuration error", async () => {
  for (const override of [{ SITE_URL: "not a url" }, { STRIPE_API_URL: "ftp://x" }]) {
    await using t = await setup(override);
    const res = await t.post({ plan: "pro" });
    assertEquals(res.status, 500);
    const body = await res.json();
    assertEquals(body.error, "billing_not_configured");
    assertEquals(body.message.includes(Object.keys(override)[0]!), true);
  }
});

Deno.test("browsers get CORS: preflight and error responses", async () => {
  await using t = await setup();
  const pre = await t.app.fetch(
    new Request("http://local/checkout", {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:5173", "access-control-request-method": "POST" },
    }),
  );
  assertEquals(pre.status, 204);
  assertEquals(pre.headers.get("access-control-allow-origin"), "http://127.0.0.1:5173");
  const res = await t.post({ plan: "pro" }, null, {
    headers: { origin: "http://127.0.0.1:5173", "content-type": "application/json" },
  });
  assertEquals(res.status, 401);
  await res.body?.cancel();
  assertEquals(res.headers.get("access-control-allow-origin") !== null, true);
});

Deno.test("other methods answer 405", async () => {
  await using t = await setup();
  const res = await t.app.fetch(new Request("http://local/checkout"));
  assertEquals(res.status, 405);
  assertEquals((await res.json()).error, "method_not_allowed");
});
