// A local stand-in for the Stripe API subset the billing functions call, for the tests: a
// Deno.serve on an ephemeral port that answers from the recorded fixtures and records every
// request with its form-encoded parameters. Point the functions at it with STRIPE_API_URL.
import { type Json, loadFixture } from "./fixtures.ts";

export interface StripeCall {
  method: string;
  path: string;
  /** Form parameters as sent, e.g. `{ "line_items[0][price]": "price_…" }`. */
  params: Record<string, string>;
  headers: Headers;
}

export class FakeStripe {
  readonly calls: StripeCall[] = [];
  /** What GET /v1/subscriptions/:id answers: Stripe's current state of each subscription. */
  readonly subscriptions = new Map<string, Json>();
  /** Subscription schedules by id (GET expands `schedule` from here). */
  readonly schedules = new Map<string, Json>();
  /** When set, every request is answered with this status and a Stripe `api_error`. */
  failWith: number | null = null;
  /** When true, a subscription update answers 402 `card_declined` (the upgrade's invoice failed). */
  declineUpdates = false;
  private customerCount = 0;

  private constructor(
    private readonly server: Deno.HttpServer<Deno.NetAddr>,
    private readonly fixtures: Record<string, Json>,
  ) {}

  static async start(): Promise<FakeStripe> {
    const fixtures = {
      customer: await loadFixture("customer"),
      checkoutSession: await loadFixture("checkout_session"),
      portalSession: await loadFixture("billing_portal_session"),
      schedule: await loadFixture("subscription_schedule"),
    };
    const holder: { fake?: FakeStripe } = {};
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => holder.fake!.handle(req),
    );
    holder.fake = new FakeStripe(server, fixtures);
    return holder.fake;
  }

  get url(): string {
    return `http://127.0.0.1:${this.server.addr.port}`;
  }

  callsTo(method: string, path: string): StripeCall[] {
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  async close(): Promise<void> {
    await this.server.shutdown();
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const text = req.method === "GET" ? url.search.slice(1) : await req.text();
    const params = Object.fromEntries(new URLSearchParams(text));
    this.calls.push({ method: req.method, path: url.pathname, params, headers: req.headers });

    if (this.failWith !== null) {
      return stripeError(this.failWith, "api_error", "Something went wrong on Stripe's end.");
    }
    if (!req.headers.get("authorization")?.startsWith("Bearer sk_")) {
      return stripeError(401, "invalid_request_error", "Invalid API Key provided.");
    }
    const now = Math.floor(Date.now() / 1000);
    const route = `${req.method} ${url.pathname}`;
    if (route === "POST /v1/customers") {
      this.customerCount++;
      return Response.json({
        ...this.fixtures.customer,
        id: `cus_Fake${String(this.customerCount).padStart(10, "0")}`,
        created: now,
        email: params.email ?? null,
        metadata: metadataOf(params, "metadata"),
      });
    }
    if (route === "POST /v1/checkout/sessions") {
      return Response.json({
        ...this.fixtures.checkoutSession,
        created: now,
        customer: params.customer,
        client_reference_id: params.client_reference_id ?? null,
        cancel_url: params.cancel_url,
        success_url: params.success_url,
        metadata: metadataOf(params, "metadata"),
      });
    }
    if (route === "POST /v1/billing_portal/sessions") {
      return Response.json({
        ...this.fixtures.portalSession,
        created: now,
        customer: params.customer,
        return_url: params.return_url ?? null,
      });
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (sub) {
      const id = decodeURIComponent(sub[1]!);
      const found = this.subscriptions.get(id);
      if (!found) {
        return stripeError(
          404,
          "invalid_request_error",
          `No such subscription: '${id}'`,
          "resource_missing",
        );
      }
      if (req.method === "POST") {
        if (this.declineUpdates) {
          return stripeError(402, "card_error", "Your card was declined.", "card_declined");
        }
        this.updateSubscription(found, params);
      }
      return Response.json(this.expandSchedule(found, params));
    }
    if (route === "POST /v1/subscription_schedules") {
      const subscription = this.subscriptions.get(params.from_subscription ?? "");
      if (!subscription) {
        return stripeError(
          400,
          "invalid_request_error",
          "No such subscription",
          "resource_missing",
        );
      }
      const schedule = structuredClone(this.fixtures.schedule);
      const phases = schedule.phases as Json[];
      schedule.phases = [phases[0]];
      schedule.subscription = subscription.id;
      this.schedules.set(schedule.id as string, schedule);
      subscription.schedule = schedule.id;
      return Response.json(schedule);
    }
    const sched = /^\/v1\/subscription_schedules\/([^/]+)(\/release)?$/.exec(url.pathname);
    if (req.method === "POST" && sched) {
      const schedule = this.schedules.get(decodeURIComponent(sched[1]!));
      if (!schedule) {
        return stripeError(404, "invalid_request_error", "No such schedule", "resource_missing");
      }
      if (sched[2]) {
        const subscription = this.subscriptions.get(schedule.subscription as string);
        if (subscription) subscription.schedule = null;
        Object.assign(schedule, {
          status: "released",
          released_at: now,
          released_subscription: schedule.subscription,
          subscription: null,
        });
        return Response.json(schedule);
      }
      this.updateSchedule(schedule, params);
      return Response.json(schedule);
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${route}).`);
  }

  /** `items[0][price]` and `metadata[…]`, as Stripe applies them (the price object replaced). */
  private updateSubscription(subscription: Json, params: Record<string, string>) {
    const [change] = indexed(params, "items");
    const items = (subscription.items as { data: Json[] }).data;
    if (change?.["[price]"]) {
      const item = items.find((i) => i.id === change["[id]"]) ?? items[0]!;
      item.price = { ...(item.price as Json), id: change["[price]"] };
      item.plan = { ...(item.plan as Json), id: change["[price]"] };
    }
    subscription.metadata = {
      ...(subscription.metadata as Json),
      ...metadataOf(params, "metadata"),
    };
  }

  /** Phases from `phases[i][items][0][price]`, `[start_date]`, `[end_date]`, `[duration]…`. */
  private updateSchedule(schedule: Json, params: Record<string, string>) {
    if (params.end_behavior) schedule.end_behavior = params.end_behavior;
    const template = (this.fixtures.schedule.phases as Json[])[0]!;
    let previousEnd = 0;
    schedule.phases = indexed(params, "phases").map((p) => {
      const start = p["[start_date]"] ? Number(p["[start_date]"]) : previousEnd;
      const end = p["[end_date]"] ? Number(p["[end_date]"]) : start + 31 * 86_400;
      previousEnd = end;
      const price = p["[items][0][price]"];
      return {
        ...template,
        start_date: start,
        end_date: end,
        items: [{ ...(template.items as Json[])[0], price, plan: price }],
        proration_behavior: p["[proration_behavior]"] ?? "create_prorations",
      };
    });
  }

  private expandSchedule(subscription: Json, params: Record<string, string>): Json {
    const expands = Object.entries(params).filter(([k]) => k.startsWith("expand[")).map(([, v]) =>
      v
    );
    if (!expands.includes("schedule") || typeof subscription.schedule !== "string") {
      return subscription;
    }
    return { ...subscription, schedule: this.schedules.get(subscription.schedule) ?? null };
  }
}

/** Form parameters under `prefix[i][…]` as one object per index. */
function indexed(params: Record<string, string>, prefix: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const [key, value] of Object.entries(params)) {
    const m = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[(\\d+)\\](.*)$`).exec(key);
    if (m) (out[Number(m[1])] ??= {})[m[2]!] = value;
  }
  return out;
}

function metadataOf(params: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const m = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (m) out[m[1]!] = value;
  }
  return out;
}

function stripeError(status: number, type: string, message: string, code?: string): Response {
  return Response.json(
    { error: { type, message, ...(code ? { code, param: "id" } : {}) } },
    { status, headers: { "request-id": "req_FakeStripe0001" } },
  );
}

/** A URL where nothing listens (a Stripe that cannot be reached). */
export function unreachableUrl(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}
