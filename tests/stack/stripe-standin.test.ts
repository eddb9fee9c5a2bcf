// The Stripe stand-in on a stack of its own (started in this process, with its webhook target a
// local capture server), driven by the official `stripe` SDK: customers, checkout sessions, the
// hosted checkout and portal pages, correctly signed webhook events in Stripe's order, Stripe's
// error shapes, and state that survives a restart.
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { waitFor } from "../support/realtime.ts";

interface Received {
  body: string;
  signature: string;
  event: Stripe.Event;
}

const tmp = mkdtempSync(path.join(tmpdir(), "stripe-standin-"));
const logs: string[] = [];
const received: Received[] = [];
/** Statuses the capture server answers with, in turn (then 200). */
const answers: number[] = [];
let capture: http.Server;
let options: Parameters<typeof startStack>[0];
let stack: Stack;
let stripe: Stripe;
let whsec: string;

const APP = "http://127.0.0.1:5173";
const sdk = (key: string) => {
  const u = new URL(stack.url);
  return new Stripe(key, {
    host: u.hostname,
    port: Number(u.port),
    protocol: "http",
    maxNetworkRetries: 0,
  });
};

beforeAll(async () => {
  capture = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = String(req.headers["stripe-signature"] ?? "");
      try {
        // Verified exactly as the stripe-webhook function does: raw body, header, secret.
        const event = Stripe.webhooks.constructEvent(body, signature, whsec);
        received.push({ body, signature, event });
        res.writeHead(answers.shift() ?? 200, { "content-type": "application/json" });
        res.end('{"received":true}');
      } catch (err) {
        res.writeHead(400).end((err as Error).message);
      }
    });
  });
  capture.listen(0, "127.0.0.1");
  await once(capture, "listening");
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  options = {
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    functions: false,
    quiet: true,
    log: (l) => logs.push(l),
    stripeWebhookUrl: `http://127.0.0.1:${(capture.address() as AddressInfo).port}/functions/v1/stripe-webhook`,
    stripeWebhookRetryDelaysMs: [20, 20, 20],
  };
  stack = await startStack(options);
  expect(stack.stripe).not.toBeNull();
  whsec = stack.secrets.stripe.webhookSecret!;
  stripe = sdk(stack.secrets.stripe.secretKey!);
});

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((r) => capture?.close(() => r()));
  rmSync(tmp, { recursive: true, force: true });
});

beforeEach(() => {
  received.length = 0;
  logs.length = 0;
});

async function checkout(plan: "basic" | "pro" | "enterprise", customer: string) {
  return stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: "user-1",
    line_items: [{ price: stack.secrets.stripe.prices[plan]!, quantity: 1 }],
    success_url: `${APP}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${APP}/pricing?canceled=1`,
    metadata: { user_id: "user-1", plan },
    subscription_data: { metadata: { user_id: "user-1", plan } },
  });
}

const post = (url: string, form?: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    redirect: "manual",
    ...(form ? { body: new URLSearchParams(form) } : {}),
  });

describe("the purchase", () => {
  let customer: Stripe.Customer;
  let session: Stripe.Checkout.Session;

  it("creates and retrieves a customer", async () => {
    customer = await stripe.customers.create({
      email: "buyer@demo.local",
      metadata: { user_id: "user-1" },
    });
    expect(customer).toMatchObject({
      object: "customer",
      email: "buyer@demo.local",
      metadata: { user_id: "user-1" },
      livemode: false,
    });
    expect(customer.id).toMatch(/^cus_/);
    expect(Math.abs(customer.created - Date.now() / 1000)).toBeLessThan(5);
    expect(await stripe.customers.retrieve(customer.id)).toEqual(customer);
  });

  it("creates an open checkout session with a hosted URL", async () => {
    session = await checkout("pro", customer.id);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: "checkout.session",
      mode: "subscription",
      status: "open",
      payment_status: "unpaid",
      customer: customer.id,
      client_reference_id: "user-1",
      metadata: { user_id: "user-1", plan: "pro" },
      amount_total: 6900,
      currency: "eur",
      subscription: null,
      livemode: false,
      url: `${stack.url}/stripe/checkout/${session.id}`,
    });
    const again = await stripe.checkout.sessions.retrieve(session.id, { expand: ["customer"] });
    expect(again.status).toBe("open");
    expect((again.customer as Stripe.Customer).email).toBe("buyer@demo.local");
    const items = await stripe.checkout.sessions.listLineItems(session.id);
    expect(items.data[0]).toMatchObject({ quantity: 1, price: { unit_amount: 6900 } });
  });

  it("shows the hosted checkout page", async () => {
    const res = await fetch(session.url!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain("Local Stripe stand-in");
    expect(html).toContain("MoverScan Pro");
    expect(html).toContain("€69.00 <span>/ month</span>");
    expect(html).toContain("buyer@demo.local");
    expect(html).toMatch(/<button type="submit" class="primary">Pay<\/button>/);
    expect(html).toMatch(/<button type="submit">Cancel<\/button>/);
  });

  it("Pay sends correctly signed events in Stripe's order, then redirects to success_url", async () => {
    const res = await post(`${session.url}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/billing/success?session_id=${session.id}`);
    // Delivered before the redirect, each verified by the SDK in the capture server.
    expect(received.map((r) => r.event.type)).toEqual([
      "customer.subscription.created",
      "checkout.session.completed",
      "invoice.paid",
    ]);
    for (const r of received) {
      expect(r.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      expect(Stripe.webhooks.constructEvent(r.body, r.signature, whsec).id).toBe(r.event.id);
      expect(r.event).toMatchObject({
        object: "event",
        api_version: Stripe.API_VERSION,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null },
      });
      expect(r.event.id).toMatch(/^evt_/);
    }
    const sub = received[0]!.event.data.object as Stripe.Subscription;
    const done = received[1]!.event.data.object as Stripe.Checkout.Session;
    const invoice = received[2]!.event.data.object as Stripe.Invoice;
    expect(done).toMatchObject({
      id: session.id,
      status: "complete",
      payment_status: "paid",
      subscription: sub.id,
      customer: customer.id,
      client_reference_id: "user-1",
      metadata: { user_id: "user-1", plan: "pro" },
    });
    expect(sub).toMatchObject({ status: "active", metadata: { user_id: "user-1", plan: "pro" } });
    expect(invoice).toMatchObject({
      status: "paid",
      amount_paid: 6900,
      parent: { subscription_details: { subscription: sub.id } },
    });
    expect(logs).toEqual([
      "stripe: customer.subscription.created → stripe-webhook 200",
      "stripe: checkout.session.completed → stripe-webhook 200",
      "stripe: invoice.paid → stripe-webhook 200",
    ]);
  });

  it("the session and the subscription read back complete and active", async () => {
    const s = await stripe.checkout.sessions.retrieve(session.id);
    expect(s).toMatchObject({ status: "complete", payment_status: "paid", url: null });
    const sub = await stripe.subscriptions.retrieve(s.subscription as string);
    expect(sub.id).toMatch(/^sub_/);
    expect(sub).toMatchObject({
      object: "subscription",
      customer: customer.id,
      status: "active",
      cancel_at_period_end: false,
      canceled_at: null,
      metadata: { user_id: "user-1", plan: "pro" },
    });
    const item = sub.items.data[0]!;
    expect(item.id).toMatch(/^si_/);
    expect(item.price).toMatchObject({
      id: "price_local_pro",
      object: "price",
      currency: "eur",
      unit_amount: 6900,
      recurring: { interval: "month" },
    });
    const days = (item.current_period_end - item.current_period_start) / 86_400;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
    expect((sub as unknown as { current_period_end: number }).current_period_end).toBe(
      item.current_period_end,
    );
    const listed = await stripe.subscriptions.list({ customer: customer.id });
    expect(listed.data.map((x) => x.id)).toEqual([sub.id]);
  });

  it("a completed checkout says so, and paying again sends nothing", async () => {
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain("This checkout is complete");
    expect(html).toContain(`href="${APP}/billing/success?session_id=${session.id}"`);
    const res = await post(`${stack.url}/stripe/checkout/${session.id}/pay`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/billing/success?session_id=${session.id}`);
    expect(received).toEqual([]);
  });

  it("Cancel goes back to cancel_url without events", async () => {
    const s = await checkout("basic", customer.id);
    const res = await post(`${s.url}/cancel`);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/pricing?canceled=1`);
    expect(received).toEqual([]);
    expect((await stripe.checkout.sessions.retrieve(s.id)).status).toBe("open");
  });

  it("retries a failed delivery, as Stripe does", async () => {
    const s = await checkout("basic", customer.id);
    answers.push(500);
    expect((await post(`${s.url}/pay`)).status).toBe(303);
    expect(received.map((r) => r.event.type)).toEqual([
      "customer.subscription.created",
      "customer.subscription.created",
      "checkout.session.completed",
      "invoice.paid",
    ]);
    expect(received[0]!.event.id).toBe(received[1]!.event.id);
    expect(logs[0]).toBe(
      "stripe: customer.subscription.created → stripe-webhook 500; retry 1 of 3 in 0.02 s",
    );
    // Leave only the Pro subscription active for the portal below.
    await stripe.subscriptions.cancel(
      (await stripe.checkout.sessions.retrieve(s.id)).subscription as string,
    );
    await waitFor(() => received.find((r) => r.event.type === "customer.subscription.deleted"));
  });
});

describe("the billing portal", () => {
  let customer: string;
  let subscription: string;
  let portal: Stripe.BillingPortal.Session;

  beforeAll(async () => {
    const list = await stripe.customers.list({ email: "buyer@demo.local" });
    customer = list.data[0]!.id;
    subscription = (await stripe.subscriptions.list({ customer, price: "price_local_pro" }))
      .data[0]!.id;
  });

  it("creates a portal session and shows the subscription", async () => {
    portal = await stripe.billingPortal.sessions.create({
      customer,
      return_url: `${APP}/profile`,
    });
    expect(portal.id).toMatch(/^bps_/);
    expect(portal).toMatchObject({
      object: "billing_portal.session",
      customer,
      return_url: `${APP}/profile`,
      url: `${stack.url}/stripe/portal/${portal.id}`,
    });
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain("MoverScan Pro");
    expect(html).toContain("Active");
    expect(html).toContain("Renews on");
    expect(html).toContain(">Cancel subscription</button>");
    expect(html).toContain(">Simulate failed payment</button>");
    expect(html).toContain(`<a class="button" href="${APP}/profile">Return</a>`);
  });

  it("simulating a failed payment makes it past due and sends the invoice and update events", async () => {
    const res = await post(`${portal.url}/fail`, { subscription });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/stripe/portal/${portal.id}?done=failed`);
    expect(received.map((r) => r.event.type)).toEqual([
      "invoice.payment_failed",
      "customer.subscription.updated",
    ]);
    const invoice = received[0]!.event.data.object as Stripe.Invoice;
    expect(invoice.id).toMatch(/^in_/);
    expect(invoice).toMatchObject({
      object: "invoice",
      customer,
      status: "open",
      parent: { subscription_details: { subscription } },
    });
    expect(received[1]!.event.data).toMatchObject({
      object: { id: subscription, status: "past_due", latest_invoice: invoice.id },
      previous_attributes: { status: "active" },
    });
    expect((await stripe.subscriptions.retrieve(subscription)).status).toBe("past_due");
    expect(await (await fetch(`${portal.url}?done=failed`)).text()).toContain(
      "Past due: the last payment failed",
    );
  });

  it("cancelling ends the subscription now and sends customer.subscription.deleted", async () => {
    const res = await post(`${portal.url}/cancel`, { subscription });
    expect(res.status).toBe(303);
    expect(received.map((r) => r.event.type)).toEqual(["customer.subscription.deleted"]);
    expect(received[0]!.event.data.object).toMatchObject({ id: subscription, status: "canceled" });
    const sub = await stripe.subscriptions.retrieve(subscription);
    expect(sub.status).toBe("canceled");
    expect(sub.canceled_at).toBeGreaterThan(0);
    expect(logs).toContain("stripe: customer.subscription.deleted → stripe-webhook 200");
    const html = await (await fetch(`${portal.url}?done=canceled`)).text();
    expect(html).toContain("The subscription was canceled.");
    expect(html).not.toContain(">Cancel subscription</button>");
  });
});

describe("the API", () => {
  it("updates cancel_at_period_end and sends customer.subscription.updated", async () => {
    const c = await stripe.customers.create({ email: "later@demo.local" });
    const s = await checkout("enterprise", c.id);
    await post(`${s.url}/pay`);
    received.length = 0;
    const id = (await stripe.checkout.sessions.retrieve(s.id)).subscription as string;
    const sub = await stripe.subscriptions.update(id, { cancel_at_period_end: true });
    expect(sub).toMatchObject({ status: "active", cancel_at_period_end: true });
    const got = await waitFor(() => received[0]);
    expect(got.event.type).toBe("customer.subscription.updated");
    expect(got.event.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(got.event.request?.id).toMatch(/^req_/);
  });

  it("rejects a bad API key with 401 in Stripe's shape", async () => {
    await expect(sdk("sk_test_wrong_1234").customers.create({})).rejects.toMatchObject({
      type: "StripeAuthenticationError",
      statusCode: 401,
    });
    const res = await fetch(`${stack.url}/v1/customers`, {
      headers: { authorization: "Bearer sk_test_wrong_1234" },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        type: "invalid_request_error",
        message: "Invalid API Key provided: sk_test_******1234",
      },
    });
    const none = await fetch(`${stack.url}/v1/customers`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(
      /^You did not provide an API key/,
    );
  });

  it("rejects an unknown price with 400 resource_missing", async () => {
    const c = await stripe.customers.create({});
    const err = await stripe.checkout.sessions
      .create({
        mode: "subscription",
        customer: c.id,
        line_items: [{ price: "price_nope", quantity: 1 }],
        success_url: `${APP}/ok`,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err).toMatchObject({
      statusCode: 400,
      code: "resource_missing",
      param: "line_items[0][price]",
      message: "No such price: 'price_nope'",
    });
    await expect(
      stripe.checkout.sessions.create({ line_items: [{ price: "price_local_pro" }] } as never),
    ).rejects.toMatchObject({ statusCode: 400, code: "parameter_missing", param: "mode" });
  });

  it("answers unknown ids with 404 resource_missing", async () => {
    for (const call of [
      () => stripe.customers.retrieve("cus_nope"),
      () => stripe.subscriptions.retrieve("sub_nope"),
      () => stripe.checkout.sessions.retrieve("cs_test_nope"),
    ]) {
      await expect(call()).rejects.toMatchObject({
        type: "StripeInvalidRequestError",
        statusCode: 404,
        code: "resource_missing",
      });
    }
    const res = await fetch(`${stack.url}/v1/subscriptions/sub_nope`, {
      headers: { authorization: `Bearer ${stack.secrets.stripe.secretKey}` },
    });
    expect(await res.json()).toMatchObject({
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: "No such subscription: 'sub_nope'",
      },
    });
    expect((await fetch(`${stack.url}/stripe/checkout/cs_test_nope`)).status).toBe(404);
  });

  it("replays a request sent again with the same idempotency key", async () => {
    const a = await stripe.customers.create(
      { email: "once@demo.local" },
      { idempotencyKey: "k-1" },
    );
    const b = await stripe.customers.create(
      { email: "once@demo.local" },
      { idempotencyKey: "k-1" },
    );
    expect(b.id).toBe(a.id);
    expect((await stripe.customers.list({ email: "once@demo.local" })).data).toHaveLength(1);
  });
});

describe("plan changes (decision 0051)", () => {
  let sub: Stripe.Subscription;
  const price = (plan: "basic" | "pro" | "enterprise") => stack.secrets.stripe.prices[plan]!;

  it("an upgrade with always_invoice changes the price and pays the prorations at once", async () => {
    const customer = await stripe.customers.create({ email: "changer@demo.local" });
    const session = await checkout("pro", customer.id);
    expect((await post(`${session.url}/pay`)).status).toBe(303);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    sub = await stripe.subscriptions.retrieve(paid.subscription as string);
    received.length = 0;

    const item = sub.items.data[0]!;
    const updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, price: price("enterprise") }],
      proration_behavior: "always_invoice",
      payment_behavior: "error_if_incomplete",
    });
    expect(updated.items.data[0]!.price.id).toBe(price("enterprise"));
    expect(updated.items.data[0]!.id).toBe(item.id);
    await waitFor(() => received.length >= 2, 5_000);
    expect(received.map((r) => r.event.type)).toEqual([
      "customer.subscription.updated",
      "invoice.paid",
    ]);
    const event = received[0]!.event;
    const previous = event.data.previous_attributes as {
      items: Stripe.ApiList<Stripe.SubscriptionItem>;
    };
    expect(previous.items.data[0]!.price.id).toBe(price("pro"));
    const invoice = received[1]!.event.data.object as Stripe.Invoice;
    expect(invoice.billing_reason).toBe("subscription_update");
    const lines = invoice.lines.data;
    expect(lines).toHaveLength(2);
    expect(lines.every((l) => l.parent?.subscription_item_details?.proration === true)).toBe(true);
    // The credit for Pro's unused time and the charge for Enterprise's: 99 € − 69 € for almost
    // the whole period.
    expect(lines[0]!.amount).toBeLessThan(0);
    expect(lines[1]!.amount).toBeGreaterThan(0);
    expect(invoice.amount_paid).toBe(lines[0]!.amount + lines[1]!.amount);
    expect(invoice.amount_paid).toBeGreaterThan(2900);
    expect(invoice.amount_paid).toBeLessThanOrEqual(3000);
  });

  it("refuses an item it does not know and an unknown proration_behavior", async () => {
    await expect(
      stripe.subscriptions.update(sub.id, { items: [{ id: "si_nope", price: price("basic") }] }),
    ).rejects.toMatchObject({ statusCode: 400, param: "items[0][id]" });
    await expect(
      stripe.subscriptions.update(sub.id, {
        proration_behavior: "sometimes" as "none",
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "proration_behavior" });
  });

  it("a schedule made from the subscription queues a downgrade for the period's end", async () => {
    received.length = 0;
    const schedule = await stripe.subscriptionSchedules.create({ from_subscription: sub.id });
    expect(schedule).toMatchObject({
      object: "subscription_schedule",
      status: "active",
      subscription: sub.id,
    });
    expect(schedule.phases).toHaveLength(1);
    const end = sub.items.data[0]!.current_period_end;
    const updated = await stripe.subscriptionSchedules.update(schedule.id, {
      end_behavior: "release",
      phases: [
        {
          items: [{ price: price("enterprise"), quantity: 1 }],
          start_date: schedule.phases[0]!.start_date,
          end_date: end,
        },
        {
          items: [{ price: price("basic"), quantity: 1 }],
          duration: { interval: "month", interval_count: 1 },
          proration_behavior: "none",
        },
      ],
    });
    expect(updated.phases.map((p) => [p.start_date, p.items[0]!.price])).toEqual([
      [schedule.phases[0]!.start_date, price("enterprise")],
      [end, price("basic")],
    ]);
    const read = await stripe.subscriptions.retrieve(sub.id, { expand: ["schedule"] });
    expect((read.schedule as Stripe.SubscriptionSchedule).id).toBe(schedule.id);
    await expect(
      stripe.subscriptionSchedules.create({ from_subscription: sub.id }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      stripe.subscriptionSchedules.update(schedule.id, {
        phases: [{ items: [{ price: price("basic") }], start_date: 1_000 }],
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: "phases[0][start_date]" });
    await waitFor(() => received.length >= 3, 5_000);
    expect(received.map((r) => r.event.type)).toEqual([
      "subscription_schedule.created",
      "customer.subscription.updated",
      "subscription_schedule.updated",
    ]);

    const released = await stripe.subscriptionSchedules.release(schedule.id);
    expect(released).toMatchObject({
      status: "released",
      subscription: null,
      released_subscription: sub.id,
    });
    expect((await stripe.subscriptions.retrieve(sub.id)).schedule).toBeNull();
  });
});

describe("a restart", () => {
  it("keeps customers and subscriptions (DATA_DIR/stripe.json)", async () => {
    const before = await stripe.subscriptions.list({ status: "all", limit: 100 });
    expect(before.data.length).toBeGreaterThanOrEqual(3);
    await stack.stop();
    stack = await startStack(options);
    stripe = sdk(stack.secrets.stripe.secretKey!);
    const after = await stripe.subscriptions.list({ status: "all", limit: 100 });
    expect(after.data).toEqual(before.data);
    const sub = await stripe.subscriptions.retrieve(before.data[0]!.id);
    expect(sub.metadata).toMatchObject({ user_id: "user-1" });
    expect((await stripe.customers.list({ email: "buyer@demo.local" })).data).toHaveLength(1);
  });
});
