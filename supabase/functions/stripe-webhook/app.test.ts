import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import Stripe from "stripe";
import { envFrom } from "../_shared/env.ts";
import { FakeBillingDb } from "../_shared/testing/fake-db.ts";
import { FakeStripe } from "../_shared/testing/fake-stripe.ts";
import {
  billingTestEnv,
  FIXTURE_CUSTOMER_ID,
  FIXTURE_PRICES,
  FIXTURE_SUBSCRIPTION_ID,
  FIXTURE_USER_ID,
  type Json,
  loadFixture,
} from "../_shared/testing/fixtures.ts";
import { stripeSignature } from "../_shared/testing/sign.ts";
import { createStripeWebhookApp } from "./app.ts";

const USER = FIXTURE_USER_ID;
const SUB = FIXTURE_SUBSCRIPTION_ID;
const SECRET = billingTestEnv("").STRIPE_WEBHOOK_SECRET;

async function setup(envOverrides: Record<string, string | undefined> = {}) {
  const stripe = await FakeStripe.start();
  const db = new FakeBillingDb();
  db.add({ id: USER, email: "pro.buyer@example.test" });
  // Stripe's current state of the subscription: active on the pro price.
  stripe.subscriptions.set(SUB, await loadFixture("subscription"));
  let clock = Date.parse("2026-11-21T09:30:05Z");
  const app = createStripeWebhookApp({
    env: envFrom({ ...billingTestEnv(stripe.url), ...envOverrides }),
    db: () => db,
    now: () => new Date(clock += 1000),
  });
  const deliver = async (
    event: Json,
    opts: { signature?: string | null; body?: string; secret?: string } = {},
  ) => {
    const raw = JSON.stringify(event, null, 2);
    const signature = opts.signature === undefined
      ? await stripeSignature(raw, opts.secret ?? SECRET)
      : opts.signature;
    const res = await app.fetch(
      new Request("http://local/stripe-webhook", {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          ...(signature ? { "stripe-signature": signature } : {}),
        },
        body: opts.body ?? raw,
      }),
    );
    return { status: res.status, body: await res.json() };
  };
  /** Changes Stripe's current state of the subscription. */
  const stripeState = (changes: Json) => {
    stripe.subscriptions.set(SUB, { ...stripe.subscriptions.get(SUB)!, ...changes });
  };
  return {
    stripe,
    db,
    deliver,
    stripeState,
    retrievals: () => stripe.callsTo("GET", `/v1/subscriptions/${SUB}`).length,
    [Symbol.asyncDispose]: () => stripe.close(),
  };
}

Deno.test("the test signer computes the header exactly as Stripe's SDK does", async () => {
  const payload = JSON.stringify(await loadFixture("checkout.session.completed"));
  const timestamp = 1_790_000_000;
  const sdk = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: SECRET,
    timestamp,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  assertEquals(await stripeSignature(payload, SECRET, timestamp), sdk);
});

Deno.test("checkout.session.completed with a valid signature activates the plan", async () => {
  await using t = await setup();
  const res = await t.deliver(await loadFixture("checkout.session.completed"));
  assertEquals(res.status, 200);
  deepStrictEqual(res.body, { received: true, subscription: SUB, status: "active", plan: "pro" });
  // The subscription was re-read from Stripe, not taken from the event.
  assertEquals(t.retrievals(), 1);
  deepStrictEqual(t.db.subscriptions.get(SUB), {
    id: SUB,
    userId: USER,
    customerId: FIXTURE_CUSTOMER_ID,
    priceId: FIXTURE_PRICES.pro,
    plan: "pro",
    status: "active",
    currentPeriodEnd: "2026-12-21T09:30:00.000Z",
    cancelAtPeriodEnd: false,
    stripeUpdatedAt: "2026-11-21T09:30:06.000Z",
    pendingPlan: null,
    pendingPlanAt: null,
  });
  deepStrictEqual(t.db.profile(USER), { plan: "pro", subscriptionActive: true, avatarUrl: null });
  assertEquals(t.db.events.get("evt_1SxQ7nK2eZvKYlo2Lq8rTz5M"), "checkout.session.completed");
});

Deno.test("a forged signature, a missing header and a tampered body are refused with 400", async () => {
  await using t = await setup();
  const event = await loadFixture("checkout.session.completed");
  const raw = JSON.stringify(event, null, 2);
  const forged = await t.deliver(event, { secret: "whsec_someone_else" });
  const missing = await t.deliver(event, { signature: null });
  const tampered = await t.deliver(event, {
    signature: await stripeSignature(raw, SECRET),
    body: raw.replace('"plan": "pro"', '"plan": "enterprise"'),
  });
  const garbage = await t.deliver(event, { signature: "t=1,v1=00" });
  for (const res of [forged, missing, tampered, garbage]) {
    assertEquals(res.status, 400);
    assertEquals(res.body.error, "invalid_signature");
  }
  assertEquals(t.stripe.calls.length, 0);
  assertEquals(t.db.events.size, 0);
});

Deno.test("a correctly signed but old delivery (a replay beyond 5 minutes) is refused", async () => {
  await using t = await setup();
  const event = await loadFixture("checkout.session.completed");
  const raw = JSON.stringify(event, null, 2);
  const old = Math.floor(Date.now() / 1000) - 600;
  const res = await t.deliver(event, { signature: await stripeSignature(raw, SECRET, old) });
  assertEquals(res.status, 400);
});

Deno.test("the same event delivered twice is processed once", async () => {
  await using t = await setup();
  const event = await loadFixture("customer.subscription.updated");
  assertEquals((await t.deliver(event)).status, 200);
  // Meanwhile the subscription changed; a replay must not apply anything.
  t.stripeState({ status: "past_due" });
  const again = await t.deliver(event);
  assertEquals(again.status, 200);
  deepStrictEqual(again.body, { received: true, duplicate: true });
  assertEquals(t.retrievals(), 1);
  assertEquals(t.db.subscriptions.get(SUB)!.status, "active");
  assertEquals(t.db.profile(USER)!.subscriptionActive, true);
});

Deno.test("events out of order: a stale 'updated (active)' after 'deleted' leaves it canceled", async () => {
  await using t = await setup();
  assertEquals((await t.deliver(await loadFixture("checkout.session.completed"))).status, 200);
  assertEquals(t.db.profile(USER)!.subscriptionActive, true);

  // The customer cancels; Stripe ends the subscription and sends 'deleted' …
  t.stripeState({ status: "canceled", ended_at: 1_797_845_400 });
  const deleted = await t.deliver(await loadFixture("customer.subscription.deleted"));
  assertEquals(deleted.body.status, "canceled");
  // … and only then an older 'updated' whose payload still says active.
  const stale = await loadFixture("customer.subscription.updated");
  assertEquals((stale.data as Json & { object: Json }).object.status, "active");
  const late = await t.deliver(stale);
  assertEquals(late.status, 200);
  assertEquals(late.body.status, "canceled");

  assertEquals(t.db.subscriptions.get(SUB)!.status, "canceled");
  // No access any more; the plan is kept so the user sees what to renew.
  deepStrictEqual(t.db.profile(USER), { plan: "pro", subscriptionActive: false, avatarUrl: null });
});

Deno.test("customer.subscription.updated stores cancel_at_period_end and keeps access", async () => {
  await using t = await setup();
  t.stripeState({ cancel_at_period_end: true });
  const res = await t.deliver(await loadFixture("customer.subscription.updated"));
  assertEquals(res.status, 200);
  assertEquals(t.db.subscriptions.get(SUB)!.cancelAtPeriodEnd, true);
  assertEquals(t.db.profile(USER)!.subscriptionActive, true);
});

Deno.test("customer.subscription.created while incomplete records it without access", async () => {
  await using t = await setup();
  t.stripeState({ status: "incomplete" });
  const res = await t.deliver(await loadFixture("customer.subscription.created"));
  assertEquals(res.body.status, "incomplete");
  deepStrictEqual(t.db.profile(USER), { plan: "none", subscriptionActive: false, avatarUrl: null });
});

Deno.test("invoice.payment_failed deactivates the subscription (new and old invoice shapes)", async () => {
  await using t = await setup();
  await t.deliver(await loadFixture("checkout.session.completed"));
  t.stripeState({ status: "past_due" });
  const failed = await loadFixture("invoice.payment_failed");
  const res = await t.deliver(failed);
  assertEquals(res.status, 200);
  assertEquals(res.body.status, "past_due");
  deepStrictEqual(t.db.profile(USER), { plan: "pro", subscriptionActive: false, avatarUrl: null });

  // Before API version 2025-03-31 the invoice named its subscription at the top level.
  t.stripeState({ status: "unpaid" });
  const legacy = structuredClone(failed);
  legacy.id = "evt_legacyInvoiceShape";
  const invoice = (legacy.data as { object: Json }).object;
  invoice.parent = null;
  invoice.subscription = SUB;
  assertEquals((await t.deliver(legacy)).body.status, "unpaid");
  assertEquals(t.db.subscriptions.get(SUB)!.status, "unpaid");
});

Deno.test("a subscription on a price this deployment does not sell is ignored", async () => {
  await using t = await setup();
  const sub = t.stripe.subscriptions.get(SUB)!;
  const item = (sub.items as { data: Json[] }).data[0]!;
  item.price = { ...(item.price as Json), id: "price_SomebodyElsesProduct" };
  const res = await t.deliver(await loadFixture("customer.subscription.created"));
  assertEquals(res.status, 200);
  assertEquals(res.body.ignored, true);
  assertEquals(res.body.note.includes("price_SomebodyElsesProduct"), true);
  assertEquals(t.db.subscriptions.size, 0);
  deepStrictEqual(t.db.profile(USER), { plan: "none", subscriptionActive: false, avatarUrl: null });
});

Deno.test("without user metadata the user is found by their Stripe customer", async () => {
  await using t = await setup();
  t.stripeState({ metadata: {} });
  t.db.customers.set(USER, FIXTURE_CUSTOMER_ID);
  await t.deliver(await loadFixture("customer.subscription.created"));
  assertEquals(t.db.subscriptions.get(SUB)!.userId, USER);
  assertEquals(t.db.profile(USER)!.plan, "pro");
});

Deno.test("a subscription of no known user, or unknown to Stripe, is ignored", async () => {
  await using t = await setup();
  t.stripeState({ metadata: { user_id: crypto.randomUUID() } });
  const nobody = await t.deliver(await loadFixture("customer.subscription.created"));
  assertEquals(nobody.status, 200);
  assertEquals(nobody.body.ignored, true);

  t.stripe.subscriptions.delete(SUB);
  const missing = await t.deliver(await loadFixture("customer.subscription.updated"));
  assertEquals(missing.status, 200);
  assertEquals(missing.body.ignored, true);
  assertEquals(t.db.subscriptions.size, 0);
});

Deno.test("other event types are acknowledged and ignored", async () => {
  await using t = await setup();
  const event = await loadFixture("checkout.session.completed");
  event.type = "customer.created";
  event.data = { object: await loadFixture("customer") };
  const res = await t.deliver(event);
  assertEquals(res.status, 200);
  deepStrictEqual(res.body, { received: true, ignored: true });
  assertEquals(t.stripe.calls.length, 0);
});

Deno.test("a failure while applying answers 500 and leaves the event for Stripe's retry", async () => {
  await using t = await setup();
  const event = await loadFixture("checkout.session.completed");
  t.db.failNextUpsert = true;
  const first = await t.deliver(event);
  assertEquals(first.status, 500);
  assertEquals(t.db.events.size, 0);
  // Stripe retries the same event: now it is applied.
  const retry = await t.deliver(event);
  assertEquals(retry.status, 200);
  assertEquals(retry.body.status, "active");
  assertEquals(t.db.profile(USER)!.subscriptionActive, true);
});

Deno.test("Stripe failing while re-reading the subscription answers 500 (Stripe retries)", async () => {
  await using t = await setup();
  t.stripe.failWith = 500;
  const res = await t.deliver(await loadFixture("checkout.session.completed"));
  assertEquals(res.status, 500);
  assertEquals(t.db.events.size, 0);
});

Deno.test("a missing webhook secret answers 500 billing_not_configured", async () => {
  await using t = await setup({ STRIPE_WEBHOOK_SECRET: undefined });
  const res = await t.deliver(await loadFixture("checkout.session.completed"));
  assertEquals(res.status, 500);
  assertEquals(res.body.error, "billing_not_configured");
  assertEquals(res.body.message.includes("STRIPE_WEBHOOK_SECRET"), true);
});

Deno.test("customer.subscription.updated after an upgrade converges the profile to the new plan", async () => {
  await using t = await setup();
  await t.deliver(await loadFixture("checkout.session.completed"));
  const event = await loadFixture("customer.subscription.updated.upgrade");
  // Stripe's current state is the event's object: the item now on the Enterprise price.
  t.stripe.subscriptions.set(SUB, (event.data as Json).object as Json);
  const res = await t.deliver(event);
  assertEquals(res.status, 200);
  assertEquals(res.body.plan, "enterprise");
  // The schedule is asked for, expanded, with every read.
  const [read] = t.stripe.callsTo("GET", `/v1/subscriptions/${SUB}`).slice(-1);
  assertEquals(read!.params["expand[0]"], "schedule");
  assertEquals(t.db.subscriptions.get(SUB)!.plan, "enterprise");
  deepStrictEqual(t.db.profile(USER), {
    plan: "enterprise",
    subscriptionActive: true,
    avatarUrl: null,
  });
});

Deno.test("a schedule event stores the downgrade waiting for the period's end, not the plan", async () => {
  await using t = await setup();
  await t.deliver(await loadFixture("checkout.session.completed"));
  const schedule = await loadFixture("subscription_schedule");
  t.stripe.schedules.set(schedule.id as string, schedule);
  t.stripeState({ schedule: schedule.id });
  const res = await t.deliver({
    id: "evt_1SxR4uK2eZvKYlo2Sg6Nc2Wd",
    object: "event",
    api_version: "2026-10-28.endive",
    created: 1796049001,
    data: { object: schedule, previous_attributes: { phases: [] } },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_Hq3Nb7Wd4tRx2K", idempotency_key: null },
    type: "subscription_schedule.updated",
  });
  assertEquals(res.status, 200);
  const stored = t.db.subscriptions.get(SUB)!;
  assertEquals(stored.plan, "pro");
  assertEquals(stored.pendingPlan, "basic");
  assertEquals(stored.pendingPlanAt, "2026-12-21T09:30:00.000Z");
  assertEquals(t.db.profile(USER)!.plan, "pro");

  // Released (the user kept Pro): the schedule event names the subscription only as released.
  t.stripeState({ schedule: null });
  const released = await t.deliver({
    id: "evt_1SxR5aK2eZvKYlo2Rl0Qp8Vc",
    object: "event",
    api_version: "2026-10-28.endive",
    created: 1796049100,
    data: {
      object: { ...schedule, status: "released", subscription: null, released_subscription: SUB },
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: "req_Jr4Oc8Xe5uSy3L", idempotency_key: null },
    type: "subscription_schedule.released",
  });
  assertEquals(released.status, 200);
  assertEquals(t.db.subscriptions.get(SUB)!.pendingPlan, null);
  assertEquals(t.db.subscriptions.get(SUB)!.pendingPlanAt, null);
});
