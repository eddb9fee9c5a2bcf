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
  /** When set, every request is answered with this status and a Stripe `api_error`. */
  failWith: number | null = null;
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
    if (req.method === "GET" && sub) {
      const id = decodeURIComponent(sub[1]!);
      const found = this.subscriptions.get(id);
      if (found) return Response.json(found);
      return stripeError(
        404,
        "invalid_request_error",
        `No such subscription: '${id}'`,
        "resource_missing",
      );
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${route}).`);
  }
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
