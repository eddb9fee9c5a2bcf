import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { FakeBillingDb } from "../_shared/testing/fake-db.ts";
import { FakeStripe } from "../_shared/testing/fake-stripe.ts";
import {
  billingTestEnv,
  FIXTURE_CUSTOMER_ID,
  FIXTURE_EMAIL,
  FIXTURE_PRICES,
  FIXTURE_SUBSCRIPTION_ID,
  FIXTURE_USER_ID,
  loadFixture,
} from "../_shared/testing/fixtures.ts";
import { createChangePlanApp } from "./app.ts";

const USER = FIXTURE_USER_ID;
const SUB = FIXTURE_SUBSCRIPTION_ID;
const ITEM = "si_TqN7cZ1wPe5mVb";
// The recorded subscription's period: 2026-11-21 09:30 to 2026-12-21 09:30 UTC.
const PERIOD_START = 1795253400;
const PERIOD_END = 1797845400;

async function setup(opts: { stored?: boolean } = {}) {
  const stripe = await FakeStripe.start();
  const db = new FakeBillingDb();
  const token = db.add({ id: USER, email: FIXTURE_EMAIL });
  // Stripe's current state: the recorded subscription, active on Pro.
  stripe.subscriptions.set(SUB, await loadFixture("subscription"));
  if (opts.stored !== false) {
    await db.upsertSubscription({
      id: SUB,
      userId: USER,
      customerId: FIXTURE_CUSTOMER_ID,
      priceId: FIXTURE_PRICES.pro,
      plan: "pro",
      status: "active",
      currentPeriodEnd: "2026-12-21T09:30:00.000Z",
      cancelAtPeriodEnd: false,
      stripeUpdatedAt: "2026-11-21T09:30:06.000Z",
    });
  }
  let clock = Date.parse("2026-11-30T12:00:00Z");
  const app = createChangePlanApp({
    env: envFrom(billingTestEnv(stripe.url)),
    db: () => db,
    now: () => new Date(clock += 1000),
  });
  const post = async (body: unknown, auth: string | null = token) => {
    const res = await app.fetch(
      new Request("http://local/change-plan", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );
    return { status: res.status, headers: res.headers, body: await res.json() };
  };
  return { stripe, db, post, [Symbol.asyncDispose]: () => stripe.close() };
}

Deno.test("an upgrade switches the item's price at once, invoiced with proration", async () => {
  await using t = await setup();
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 200);
  deepStrictEqual(res.body, { plan: "enterprise", effective: "now" });

  const [update] = t.stripe.callsTo("POST", `/v1/subscriptions/${SUB}`);
  // Exactly the parameters the local Stripe stand-in implements.
  deepStrictEqual(update!.params, {
    "items[0][id]": ITEM,
    "items[0][price]": FIXTURE_PRICES.enterprise,
    proration_behavior: "always_invoice",
    payment_behavior: "error_if_incomplete",
    "metadata[plan]": "enterprise",
    "expand[0]": "schedule",
  });
  // Stripe's answer is stored at once: the profile follows before the webhook arrives.
  const stored = t.db.subscriptions.get(SUB)!;
  assertEquals(stored.plan, "enterprise");
  assertEquals(stored.priceId, FIXTURE_PRICES.enterprise);
  assertEquals(stored.pendingPlan, null);
  deepStrictEqual(t.db.profile(USER), {
    plan: "enterprise",
    subscriptionActive: true,
    avatarUrl: null,
  });
  assertEquals(t.stripe.callsTo("POST", "/v1/subscription_schedules").length, 0);
});

Deno.test("a downgrade is scheduled for the end of the paid period and says when", async () => {
  await using t = await setup();
  const res = await t.post({ plan: "basic" });
  assertEquals(res.status, 200);
  deepStrictEqual(res.body, {
    plan: "basic",
    effective: "period_end",
    at: "2026-12-21T09:30:00.000Z",
  });

  const [create] = t.stripe.callsTo("POST", "/v1/subscription_schedules");
  deepStrictEqual(create!.params, { from_subscription: SUB });
  const schedule = await loadFixture("subscription_schedule");
  const [update] = t.stripe.callsTo("POST", `/v1/subscription_schedules/${schedule.id}`);
  deepStrictEqual(update!.params, {
    end_behavior: "release",
    "phases[0][items][0][price]": FIXTURE_PRICES.pro,
    "phases[0][items][0][quantity]": "1",
    "phases[0][start_date]": String(PERIOD_START),
    "phases[0][end_date]": String(PERIOD_END),
    "phases[1][items][0][price]": FIXTURE_PRICES.basic,
    "phases[1][items][0][quantity]": "1",
    "phases[1][duration][interval]": "month",
    "phases[1][duration][interval_count]": "1",
    "phases[1][proration_behavior]": "none",
    "phases[1][metadata][plan]": "basic",
  });
  // The subscription itself is not touched: Pro stays until the period ends.
  assertEquals(t.stripe.callsTo("POST", `/v1/subscriptions/${SUB}`).length, 0);
  const stored = t.db.subscriptions.get(SUB)!;
  assertEquals(stored.plan, "pro");
  assertEquals(stored.pendingPlan, "basic");
  assertEquals(stored.pendingPlanAt, "2026-12-21T09:30:00.000Z");
  assertEquals(t.db.profile(USER)!.plan, "pro");
});

Deno.test("choosing the current plan while a downgrade waits keeps it", async () => {
  await using t = await setup();
  assertEquals((await t.post({ plan: "basic" })).status, 200);
  const again = await t.post({ plan: "basic" });
  assertEquals(again.status, 409);
  assertEquals(again.body.error, "change_already_scheduled");

  const keep = await t.post({ plan: "pro" });
  assertEquals(keep.status, 200);
  deepStrictEqual(keep.body, { plan: "pro", effective: "kept" });
  const schedule = await loadFixture("subscription_schedule");
  assertEquals(
    t.stripe.callsTo("POST", `/v1/subscription_schedules/${schedule.id}/release`).length,
    1,
  );
  assertEquals(t.db.subscriptions.get(SUB)!.pendingPlan, null);
  assertEquals(t.db.subscriptions.get(SUB)!.pendingPlanAt, null);
});

Deno.test("an upgrade while a downgrade waits drops the downgrade first", async () => {
  await using t = await setup();
  assertEquals((await t.post({ plan: "basic" })).status, 200);
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 200);
  const paths = t.stripe.calls.filter((c) => c.method === "POST").map((c) => c.path);
  const schedule = await loadFixture("subscription_schedule");
  deepStrictEqual(paths.slice(-2), [
    `/v1/subscription_schedules/${schedule.id}/release`,
    `/v1/subscriptions/${SUB}`,
  ]);
  const stored = t.db.subscriptions.get(SUB)!;
  assertEquals(stored.plan, "enterprise");
  assertEquals(stored.pendingPlan, null);
});

Deno.test("only an active subscriber may change, and not to the same plan", async () => {
  await using t = await setup({ stored: false });
  const none = await t.post({ plan: "pro" });
  assertEquals(none.status, 409);
  assertEquals(none.body.error, "no_active_subscription");

  await using u = await setup();
  const same = await u.post({ plan: "pro" });
  assertEquals(same.status, 409);
  assertEquals(same.body.error, "same_plan");
  const invalid = await u.post({ plan: "platinum" });
  assertEquals(invalid.status, 400);
  assertEquals(invalid.body.error, "invalid_plan");
  const anonymous = await u.post({ plan: "basic" }, null);
  assertEquals(anonymous.status, 401);
  // None of these reached Stripe.
  assertEquals(t.stripe.calls.length + u.stripe.calls.length, 0);
});

Deno.test("a subscription Stripe reports as past due cannot change", async () => {
  await using t = await setup();
  t.stripe.subscriptions.set(SUB, { ...t.stripe.subscriptions.get(SUB)!, status: "past_due" });
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 409);
  assertEquals(res.body.error, "no_active_subscription");
  assertEquals(t.stripe.callsTo("POST", `/v1/subscriptions/${SUB}`).length, 0);
});

Deno.test("a downgrade of a subscription set to cancel asks to resume it first", async () => {
  await using t = await setup();
  t.stripe.subscriptions.set(SUB, {
    ...t.stripe.subscriptions.get(SUB)!,
    cancel_at_period_end: true,
  });
  const res = await t.post({ plan: "basic" });
  assertEquals(res.status, 409);
  assertEquals(res.body.error, "cancellation_pending");
  assertEquals(t.stripe.callsTo("POST", "/v1/subscription_schedules").length, 0);
});

Deno.test("more than 5 changes an hour answer 429 with Retry-After", async () => {
  await using t = await setup();
  t.db.planChanges.set(USER, 5);
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 429);
  assertEquals(res.body.error, "too_many_plan_changes");
  assertEquals(res.headers.get("retry-after"), "3600");
  assertEquals(t.stripe.calls.length, 0);
  assertEquals(t.db.subscriptions.get(SUB)!.plan, "pro");
});

Deno.test("a declined upgrade payment answers 402 and leaves the plan", async () => {
  await using t = await setup();
  t.stripe.declineUpdates = true;
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 402);
  assertEquals(res.body.error, "payment_declined");
  assertEquals(t.db.subscriptions.get(SUB)!.plan, "pro");
  assertEquals(t.db.profile(USER)!.plan, "pro");
});

Deno.test("Stripe failing answers 502 payment_provider_error", async () => {
  await using t = await setup();
  t.stripe.failWith = 500;
  const res = await t.post({ plan: "enterprise" });
  assertEquals(res.status, 502);
  assertEquals(res.body.error, "payment_provider_error");
  assertEquals(t.db.subscriptions.get(SUB)!.plan, "pro");
});
