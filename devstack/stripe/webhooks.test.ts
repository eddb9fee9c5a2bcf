import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { API_VERSION } from "./objects.ts";
import { buildEvent, signatureHeader, WebhookSender } from "./webhooks.ts";

const secret = "whsec_0123456789abcdef";
const stripe = new Stripe("sk_test_local_x");

describe("webhook signatures", () => {
  it("verify with the official SDK, and fail for a changed body or another secret", () => {
    const event = buildEvent("checkout.session.completed", {
      id: "cs_test_1",
      object: "checkout.session",
    });
    const body = JSON.stringify(event, null, 2);
    const header = signatureHeader(body, secret);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const parsed = stripe.webhooks.constructEvent(body, header, secret);
    expect(parsed).toMatchObject({
      id: event.id,
      type: "checkout.session.completed",
      livemode: false,
    });
    expect(() =>
      stripe.webhooks.constructEvent(body.replace("cs_test_1", "cs_test_2"), header, secret),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => stripe.webhooks.constructEvent(body, header, "whsec_other")).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
  });

  it("matches the SDK's own test header for the same timestamp", () => {
    const payload = '{"id":"evt_1","object":"event"}';
    expect(signatureHeader(payload, secret, 1_700_000_000)).toBe(
      stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: 1_700_000_000 }),
    );
  });

  it("events carry the API version the pinned SDK requests", () => {
    expect(API_VERSION).toBe(Stripe.API_VERSION);
    const e = buildEvent(
      "customer.subscription.deleted",
      { id: "sub_1" },
      { previous: { status: "active" } },
    );
    expect(e).toMatchObject({
      object: "event",
      api_version: Stripe.API_VERSION,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: { id: "sub_1" }, previous_attributes: { status: "active" } },
    });
    expect(e.id).toMatch(/^evt_[0-9A-Za-z]{24}$/);
  });
});

describe("webhook delivery", () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  async function endpoint(statuses: number[]) {
    const got: { type: string; signature: string }[] = [];
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const e = stripe.webhooks.constructEvent(
          body,
          String(req.headers["stripe-signature"]),
          secret,
        );
        got.push({ type: e.type, signature: String(req.headers["stripe-signature"]) });
        res.writeHead(statuses.shift() ?? 200).end("{}");
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/functions/v1/stripe-webhook`,
      got,
    };
  }

  it("delivers in order, retries a failed delivery and logs each outcome", async () => {
    const { url, got } = await endpoint([500, 503, 200, 200]);
    const log: string[] = [];
    const sender = new WebhookSender({
      url,
      secret,
      log: (l) => log.push(l),
      retryDelaysMs: [10, 10, 10],
    });
    const first = sender.send([
      buildEvent("customer.subscription.created", {}),
      buildEvent("checkout.session.completed", {}),
    ]);
    const results = await first;
    expect(results.map((r) => [r.event.type, r.status, r.attempts, r.ok])).toEqual([
      ["customer.subscription.created", 200, 3, true],
      ["checkout.session.completed", 200, 1, true],
    ]);
    expect(got.map((g) => g.type)).toEqual([
      "customer.subscription.created",
      "customer.subscription.created",
      "customer.subscription.created",
      "checkout.session.completed",
    ]);
    expect(log).toEqual([
      "stripe: customer.subscription.created → stripe-webhook 500; retry 1 of 3 in 0.01 s",
      "stripe: customer.subscription.created → stripe-webhook 503; retry 2 of 3 in 0.01 s",
      "stripe: customer.subscription.created → stripe-webhook 200",
      "stripe: checkout.session.completed → stripe-webhook 200",
    ]);
  });

  it("gives up after three retries when the endpoint cannot be reached", async () => {
    const { url } = await endpoint([]);
    await new Promise<void>((r) => server!.close(() => r()));
    server = undefined;
    const log: string[] = [];
    const sender = new WebhookSender({
      url,
      secret,
      log: (l) => log.push(l),
      retryDelaysMs: [5, 5, 5],
    });
    const [r] = await sender.send([buildEvent("invoice.paid", {})]);
    expect(r).toMatchObject({ ok: false, status: null, attempts: 4 });
    expect(log.at(-1)).toMatch(
      /^stripe: invoice\.paid → stripe-webhook failed \(ECONNREFUSED\); gave up after 4 attempts$/,
    );
  });

  it("stops retrying when closed", async () => {
    const { url } = await endpoint([500, 500, 500, 500]);
    const sender = new WebhookSender({
      url,
      secret,
      log: () => {},
      retryDelaysMs: [60_000, 60_000, 60_000],
    });
    const pending = sender.send([buildEvent("invoice.paid", {})]);
    await new Promise((r) => setTimeout(r, 100));
    const t0 = Date.now();
    await sender.close();
    const [r] = await pending;
    expect(r!.ok).toBe(false);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
