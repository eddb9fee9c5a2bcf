// Changing plans in place through the whole stack (issue 27, decision 0051): the checkout and
// change-plan functions, the local Stripe stand-in, its signed webhook events and the database.
// A Basic subscriber upgrades to Pro (at once: the Pro RPCs answer), schedules a downgrade to
// Basic (Pro stays; the pending plan and its date are stored), and the renewal simulated in the
// stand-in's portal applies it (the webhook converges the profile).
import { describe, expect, it } from "vitest";
import { type Client, serviceClient, signedInUser, stackInfo } from "../support/clients.ts";

/** Polls an async check until it holds (or fails after `ms`). */
async function eventually(check: () => Promise<boolean>, ms: number) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("eventually: timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function fn(name: string, token: string | null, body?: unknown) {
  const { url, publishableKey } = stackInfo();
  const res = await fetch(`${url}/functions/v1/${name}`, {
    method: "POST",
    headers: {
      apikey: publishableKey,
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as Record<string, unknown>,
  };
}

async function profileOf(client: Client, id: string) {
  const { data, error } = await client
    .from("profiles")
    .select("plan, subscription_active")
    .eq("id", id)
    .single();
  if (error) throw error;
  return data;
}

async function subscriptionOf(id: string) {
  const { data, error } = await serviceClient()
    .from("billing_subscriptions")
    .select("id, plan, status, pending_plan, pending_plan_at, current_period_end")
    .eq("user_id", id)
    .single();
  if (error) throw error;
  return data;
}

/** A new user who bought Basic through checkout and the stand-in's Pay button. */
async function basicSubscriber() {
  const user = await signedInUser();
  const token = user.session.access_token;
  const checkout = await fn("checkout", token, { plan: "basic" });
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
  const pay = await fetch(`${String(checkout.body.sessionUrl)}/pay`, {
    method: "POST",
    redirect: "manual",
  });
  expect(pay.status).toBe(303);
  await eventually(
    async () => (await profileOf(user.client, user.user.id)).plan === "basic",
    20_000,
  );
  return { ...user, token };
}

async function proRpcStatus(client: Client, instrument: number) {
  const res = await client.rpc("history_insights", { instrument });
  return { status: res.status, details: res.error?.details ?? null };
}

describe("changing plans in place", () => {
  it("upgrades at once, downgrades at the period's end, and the renewal applies it", async () => {
    const { data: instrument } = await serviceClient()
      .from("instruments")
      .select("id")
      .limit(1)
      .single();
    const instrumentId = Number(instrument?.id ?? 1);
    const u = await basicSubscriber();
    expect(await proRpcStatus(u.client, instrumentId)).toEqual({
      status: 403,
      details: "pro_required",
    });

    // Upgrade: the price changes at once; the function stores Stripe's answer, the webhook agrees.
    const up = await fn("change-plan", u.token, { plan: "pro" });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toEqual({ plan: "pro", effective: "now" });
    expect(await profileOf(u.client, u.user.id)).toEqual({
      plan: "pro",
      subscription_active: true,
    });
    expect((await proRpcStatus(u.client, instrumentId)).status).not.toBe(403);

    // The same plan again is refused with its code.
    const same = await fn("change-plan", u.token, { plan: "pro" });
    expect(same.status).toBe(409);
    expect(same.body.error).toBe("same_plan");

    // Downgrade: scheduled for the end of the paid period; Pro stays until then.
    const before = await subscriptionOf(u.user.id);
    const down = await fn("change-plan", u.token, { plan: "basic" });
    expect(down.status, JSON.stringify(down.body)).toBe(200);
    expect(down.body.effective).toBe("period_end");
    expect(Date.parse(String(down.body.at))).toBe(Date.parse(before.current_period_end!));
    const pending = await subscriptionOf(u.user.id);
    expect(pending.plan).toBe("pro");
    expect(pending.pending_plan).toBe("basic");
    expect(Date.parse(pending.pending_plan_at!)).toBe(Date.parse(before.current_period_end!));
    expect((await profileOf(u.client, u.user.id)).plan).toBe("pro");

    // The renewal (simulated in the stand-in's portal) starts the Basic phase; the signed
    // customer.subscription.updated event converges the profile.
    const portal = await fn("billing-portal", u.token);
    expect(portal.status, JSON.stringify(portal.body)).toBe(200);
    const portalUrl = String(portal.body.url);
    const renew = await fetch(`${portalUrl}/renew`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ subscription: pending.id }),
    });
    expect(renew.status).toBe(303);
    await eventually(async () => (await profileOf(u.client, u.user.id)).plan === "basic", 20_000);
    const after = await subscriptionOf(u.user.id);
    expect(after).toMatchObject({ plan: "basic", status: "active", pending_plan: null });
    expect(after.pending_plan_at).toBeNull();
    expect(Date.parse(after.current_period_end!)).toBeGreaterThan(
      Date.parse(before.current_period_end!),
    );
    expect(await proRpcStatus(u.client, instrumentId)).toEqual({
      status: 403,
      details: "pro_required",
    });
  });

  it("refuses a user without a subscription, a bad plan, no token, and too many changes", async () => {
    const free = await signedInUser();
    const none = await fn("change-plan", free.session.access_token, { plan: "pro" });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe("no_active_subscription");
    const bad = await fn("change-plan", free.session.access_token, { plan: "gold" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_plan");
    expect((await fn("change-plan", null, { plan: "pro" })).status).toBe(401);

    // Five changes an hour, then 429 with Retry-After (counted in the database).
    const u = await basicSubscriber();
    const plans = ["pro", "enterprise", "basic", "enterprise", "pro"] as const;
    for (const plan of plans) {
      const res = await fn("change-plan", u.token, { plan });
      expect(res.status, `${plan}: ${JSON.stringify(res.body)}`).toBe(200);
    }
    const sixth = await fn("change-plan", u.token, { plan: "enterprise" });
    expect(sixth.status).toBe(429);
    expect(sixth.body.error).toBe("too_many_plan_changes");
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
