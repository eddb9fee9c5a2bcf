import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { FakeBillingDb } from "../_shared/testing/fake-db.ts";
import { FakeStripe } from "../_shared/testing/fake-stripe.ts";
import {
  billingTestEnv,
  FIXTURE_CUSTOMER_ID,
  FIXTURE_USER_ID,
  loadFixture,
} from "../_shared/testing/fixtures.ts";
import { createBillingPortalApp } from "./app.ts";

async function setup(envOverrides: Record<string, string | undefined> = {}) {
  const stripe = await FakeStripe.start();
  const db = new FakeBillingDb();
  const token = db.add({ id: FIXTURE_USER_ID });
  const app = createBillingPortalApp({
    env: envFrom({ ...billingTestEnv(stripe.url), ...envOverrides }),
    db: () => db,
  });
  const post = async (auth: string | null = token) => {
    const res = await app.fetch(
      new Request("http://local/billing-portal", {
        method: "POST",
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
      }),
    );
    return { status: res.status, body: await res.json() };
  };
  return { stripe, db, token, post, [Symbol.asyncDispose]: () => stripe.close() };
}

Deno.test("a customer gets a Billing Portal session returning to /profile", async () => {
  await using t = await setup();
  t.db.customers.set(FIXTURE_USER_ID, FIXTURE_CUSTOMER_ID);
  const res = await t.post();
  assertEquals(res.status, 200);
  deepStrictEqual(res.body, { url: (await loadFixture("billing_portal_session")).url });
  const [call] = t.stripe.callsTo("POST", "/v1/billing_portal/sessions");
  deepStrictEqual(call!.params, {
    customer: FIXTURE_CUSTOMER_ID,
    return_url: "http://127.0.0.1:5173/profile",
  });
});

Deno.test("a user without a Stripe customer gets 404 no_customer", async () => {
  await using t = await setup();
  const res = await t.post();
  assertEquals(res.status, 404);
  deepStrictEqual(res.body, { error: "no_customer", message: "No subscription to manage yet." });
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("no token answers 401", async () => {
  await using t = await setup();
  assertEquals((await t.post(null)).status, 401);
  assertEquals((await t.post("expired")).status, 401);
});

Deno.test("a banned user may still open the portal to stop paying", async () => {
  await using t = await setup();
  const id = crypto.randomUUID();
  const token = t.db.add({ id, banned: true });
  t.db.customers.set(id, "cus_BannedButPaying");
  const res = await t.post(token);
  assertEquals(res.status, 200);
  assertEquals(t.stripe.calls[0]!.params.customer, "cus_BannedButPaying");
});

Deno.test("Stripe failing answers 502; a missing setting 500", async () => {
  {
    await using t = await setup();
    t.db.customers.set(FIXTURE_USER_ID, FIXTURE_CUSTOMER_ID);
    t.stripe.failWith = 503;
    const res = await t.post();
    assertEquals(res.status, 502);
    assertEquals(res.body.message, "Payment system unavailable. Please try again later.");
  }
  {
    await using t = await setup({ SITE_URL: undefined });
    const res = await t.post();
    assertEquals(res.status, 500);
    deepStrictEqual(res.body, {
      error: "billing_not_configured",
      message: "The server is missing the environment variable SITE_URL.",
    });
  }
});
