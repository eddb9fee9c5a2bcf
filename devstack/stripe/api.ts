// The /v1 API subset a subscription integration calls through the official SDK: customers,
// checkout sessions, subscriptions, billing-portal sessions (plus prices, invoices and events to
// read back). Secret-key auth, form bodies, Stripe's object and error shapes, idempotency keys.
import { timingSafeEqual } from "node:crypto";
import { list, metadataOf, obj, readParams, str, type FormObject, type FormValue } from "./form.ts";
import { API_VERSION, newId, now, type PortalSession } from "./objects.ts";
import { missing, StripeApiError } from "./errors.ts";
import type { StripeCore } from "./core.ts";

interface Ctx {
  stripe: StripeCore;
  params: FormObject;
  requestId: string;
}

type Handler = (ctx: Ctx, id: string) => unknown;

const routes: Array<[method: string, pattern: RegExp, handler: Handler]> = [
  ["POST", /^\/v1\/customers$/, createCustomer],
  ["GET", /^\/v1\/customers$/, listCustomers],
  [
    "GET",
    /^\/v1\/customers\/([^/]+)$/,
    ({ stripe, params }, id) => expand(stripe, stripe.customer(id), params),
  ],
  ["POST", /^\/v1\/customers\/([^/]+)$/, updateCustomer],
  ["POST", /^\/v1\/checkout\/sessions$/, createCheckoutSession],
  [
    "GET",
    /^\/v1\/checkout\/sessions\/([^/]+)$/,
    ({ stripe, params }, id) => sessionView(stripe, id, params),
  ],
  [
    "GET",
    /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/,
    ({ stripe }, id) => lineItems(stripe, id),
  ],
  ["GET", /^\/v1\/subscriptions$/, listSubscriptions],
  [
    "GET",
    /^\/v1\/subscriptions\/([^/]+)$/,
    ({ stripe, params }, id) => expand(stripe, stripe.subscription(id), params),
  ],
  ["POST", /^\/v1\/subscriptions\/([^/]+)$/, updateSubscription],
  [
    "DELETE",
    /^\/v1\/subscriptions\/([^/]+)$/,
    ({ stripe, requestId }, id) => stripe.cancelNow(id, requestId).sub,
  ],
  ["POST", /^\/v1\/subscription_schedules$/, createSchedule],
  [
    "GET",
    /^\/v1\/subscription_schedules\/([^/]+)$/,
    ({ stripe, params }, id) => expand(stripe, stripe.schedule(id), params),
  ],
  ["POST", /^\/v1\/subscription_schedules\/([^/]+)$/, updateSchedule],
  [
    "POST",
    /^\/v1\/subscription_schedules\/([^/]+)\/release$/,
    ({ stripe, requestId }, id) => stripe.releaseSchedule(id, requestId),
  ],
  ["POST", /^\/v1\/billing_portal\/sessions$/, createPortalSession],
  ["GET", /^\/v1\/prices\/([^/]+)$/, ({ stripe }, id) => price(stripe, id)],
  [
    "GET",
    /^\/v1\/invoices\/([^/]+)$/,
    ({ stripe, params }, id) => expand(stripe, invoice(stripe, id), params),
  ],
  ["GET", /^\/v1\/events\/([^/]+)$/, ({ stripe }, id) => event(stripe, id)],
];

const IDEMPOTENCY_TTL_S = 24 * 3600;
const replays = new WeakMap<
  StripeCore,
  Map<string, { at: number; route: string; status: number; body: string }>
>();

export async function handleApi(stripe: StripeCore, req: Request): Promise<Response> {
  const requestId = newId("req_", 14);
  const url = new URL(req.url);
  const headers = {
    "content-type": "application/json",
    "request-id": requestId,
    "stripe-version": req.headers.get("stripe-version") ?? API_VERSION,
    "cache-control": "no-cache, no-store",
  };
  const reply = (status: number, body: string, extra: Record<string, string> = {}) =>
    new Response(body, { status, headers: { ...headers, ...extra } });
  const fail = (err: StripeApiError) => reply(err.status, JSON.stringify(err, null, 2));

  const auth = authenticate(req, stripe.opts.secretKey);
  if (auth) return fail(auth);

  const route = routes.find(([m, p]) => m === req.method && p.test(url.pathname));
  if (!route) {
    return fail(
      new StripeApiError(
        404,
        `Unrecognized request URL (${req.method}: ${url.pathname}). The local Stripe stand-in serves only the subset the project uses (see devstack/stripe/api.ts).`,
      ),
    );
  }

  // Idempotent requests (the SDK sends a key with every POST it may retry) replay the first answer.
  const key = req.method === "POST" ? req.headers.get("idempotency-key") : null;
  const cache = replays.get(stripe) ?? new Map();
  replays.set(stripe, cache);
  const routeKey = `${req.method} ${url.pathname}`;
  if (key) {
    const hit = cache.get(key);
    if (hit && hit.route !== routeKey) {
      return fail(
        new StripeApiError(
          400,
          "Keys for idempotent requests can only be used for the same endpoint they were first used for.",
          "idempotency_error",
        ),
      );
    }
    if (hit)
      return reply(hit.status, hit.body, { "idempotent-replayed": "true", "idempotency-key": key });
  }

  let status = 200;
  let body: string;
  try {
    let params: FormObject;
    try {
      params = await readParams(req);
    } catch {
      throw new StripeApiError(
        400,
        "Invalid request body: expected form-encoded or JSON parameters.",
      );
    }
    const id = decodeURIComponent(route[1].exec(url.pathname)![1] ?? "");
    body = JSON.stringify(await route[2]({ stripe, params, requestId }, id), null, 2);
  } catch (err) {
    const e =
      err instanceof StripeApiError
        ? err
        : new StripeApiError(
            500,
            "An unexpected error occurred in the local Stripe stand-in.",
            "api_error",
          );
    if (!(err instanceof StripeApiError))
      stripe.opts.log(`stripe: ${routeKey} failed: ${(err as Error).stack ?? String(err)}`);
    status = e.status;
    body = JSON.stringify(e, null, 2);
  }
  if (key && status < 500) {
    const t = now();
    for (const [k, v] of cache) if (t - v.at > IDEMPOTENCY_TTL_S) cache.delete(k);
    cache.set(key, { at: t, route: routeKey, status, body });
  }
  return reply(status, body, key ? { "idempotency-key": key } : {});
}

/** Bearer (what the SDKs send) or Basic with the key as user name (`curl -u sk_…:`). */
function authenticate(req: Request, secretKey: string): StripeApiError | null {
  const header = req.headers.get("authorization") ?? "";
  let key: string | null = null;
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (bearer) key = bearer[1]!.trim();
  else if (basic) key = Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0]!;
  if (!key) {
    return new StripeApiError(
      401,
      "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
    );
  }
  const a = Buffer.from(key);
  const b = Buffer.from(secretKey);
  if (a.length === b.length && timingSafeEqual(a, b)) return null;
  return new StripeApiError(401, `Invalid API Key provided: ${maskKey(key)}`);
}

/** Stripe shows a rejected key with all but its prefix and last four characters masked. */
export function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(live|test)_/.exec(key)?.[0] ?? "";
  const rest = key.slice(prefix.length);
  if (rest.length <= 4) return `${prefix}${"*".repeat(rest.length)}`;
  return `${prefix}${"*".repeat(rest.length - 4)}${rest.slice(-4)}`;
}

// ---- parameters ------------------------------------------------------------------------------

const missingParam = (param: string) =>
  new StripeApiError(
    400,
    `Missing required param: ${param}.`,
    "invalid_request_error",
    "parameter_missing",
    param,
  );

const invalidParam = (param: string, message: string) =>
  new StripeApiError(400, message, "invalid_request_error", "parameter_invalid", param);

function urlParam(params: FormObject, name: string): string | null {
  const v = str(params[name]);
  if (v === undefined || v === "") return null;
  try {
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw new StripeApiError(400, "Not a valid URL", "invalid_request_error", "url_invalid", name);
  }
  return v;
}

function boolParam(params: FormObject, name: string): boolean | undefined {
  const v = str(params[name]);
  if (v === undefined) return undefined;
  if (v === "true") return true;
  if (v === "false") return false;
  throw invalidParam(name, `Invalid boolean: ${v}`);
}

function limitParam(params: FormObject): number {
  const v = str(params.limit);
  if (v === undefined) return 10;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw invalidParam("limit", "This value must be between 1 and 100.");
  return n;
}

const nullable = (v: FormValue | undefined) => {
  const s = str(v);
  return s === undefined || s === "" ? null : s;
};

function apiList<T>(url: string, items: T[], limit: number) {
  return { object: "list", data: items.slice(0, limit), has_more: items.length > limit, url };
}

// ---- handlers --------------------------------------------------------------------------------

function createCustomer({ stripe, params }: Ctx) {
  return stripe.createCustomer({
    email: nullable(params.email),
    name: nullable(params.name),
    description: nullable(params.description),
    metadata: stripMetadata(metadataOf(params.metadata)),
  });
}

function updateCustomer({ stripe, params }: Ctx, id: string) {
  const c = stripe.customer(id);
  if (params.email !== undefined) c.email = nullable(params.email);
  if (params.name !== undefined) c.name = nullable(params.name);
  if (params.description !== undefined) c.description = nullable(params.description);
  if (params.metadata !== undefined)
    c.metadata = mergeMetadata(c.metadata, metadataOf(params.metadata));
  stripe.store.save();
  return c;
}

function listCustomers({ stripe, params }: Ctx) {
  const email = str(params.email);
  const items = Object.values(stripe.state.customers)
    .filter((c) => email === undefined || c.email === email)
    .sort((a, b) => b.created - a.created);
  return apiList("/v1/customers", items, limitParam(params));
}

function createCheckoutSession({ stripe, params }: Ctx) {
  const mode = str(params.mode);
  if (!mode) throw missingParam("mode");
  if (mode !== "subscription")
    throw invalidParam(
      "mode",
      `The local Stripe stand-in supports only mode=subscription, not '${mode}'.`,
    );
  const items = list(params.line_items);
  if (!items || items.length === 0) throw missingParam("line_items");
  if (items.length > 1)
    throw invalidParam(
      "line_items",
      "The local Stripe stand-in supports one line item per session.",
    );
  const item = obj(items[0]) ?? {};
  const priceId = str(item.price);
  if (!priceId) throw missingParam("line_items[0][price]");
  if (!stripe.prices.has(priceId)) throw missing("price", priceId, "line_items[0][price]", 400);
  const q = str(item.quantity) ?? "1";
  const quantity = Number(q);
  if (!Number.isInteger(quantity) || quantity < 1)
    throw invalidParam("line_items[0][quantity]", `Invalid positive integer`);
  const customer = nullable(params.customer);
  if (customer) stripe.customer(customer, "customer", 400);
  return stripe.createCheckoutSession({
    customer,
    customerEmail: nullable(params.customer_email),
    price: priceId,
    quantity,
    successUrl: urlParam(params, "success_url"),
    cancelUrl: urlParam(params, "cancel_url"),
    clientReferenceId: nullable(params.client_reference_id),
    locale: nullable(params.locale),
    metadata: stripMetadata(metadataOf(params.metadata)),
    subscriptionMetadata: stripMetadata(metadataOf(obj(params.subscription_data)?.metadata)),
  });
}

function sessionView(stripe: StripeCore, id: string, params: FormObject) {
  return expand(stripe, stripe.sessionRecord(id).session, params);
}

function lineItems(stripe: StripeCore, id: string) {
  const rec = stripe.sessionRecord(id);
  const price = stripe.prices.get(rec.price)!;
  const amount = price.unit_amount * rec.quantity;
  return apiList(
    `/v1/checkout/sessions/${id}/line_items`,
    [
      {
        id: `li_${id.slice(-24)}`,
        object: "item",
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: "eur",
        description: price.nickname,
        price,
        quantity: rec.quantity,
      },
    ],
    100,
  );
}

function listSubscriptions({ stripe, params }: Ctx) {
  const customer = str(params.customer);
  const priceId = str(params.price);
  const status = str(params.status);
  const items = Object.values(stripe.state.subscriptions)
    .filter((s) => customer === undefined || s.customer === customer)
    .filter((s) => priceId === undefined || s.items.data.some((i) => i.price.id === priceId))
    // Stripe lists every status but canceled unless asked for `canceled` or `all`.
    .filter((s) =>
      status === "all" ? true : status ? s.status === status : s.status !== "canceled",
    )
    .sort((a, b) => b.created - a.created);
  return expandList(stripe, apiList("/v1/subscriptions", items, limitParam(params)), params);
}

const PRORATION_BEHAVIORS = ["create_prorations", "always_invoice", "none"] as const;
type ProrationBehavior = (typeof PRORATION_BEHAVIORS)[number];
const PAYMENT_BEHAVIORS = [
  "allow_incomplete",
  "default_incomplete",
  "error_if_incomplete",
  "pending_if_incomplete",
];

function prorationParam(params: FormObject, name: string): ProrationBehavior | undefined {
  const v = str(params[name]);
  if (v === undefined) return undefined;
  if (!(PRORATION_BEHAVIORS as readonly string[]).includes(v))
    throw invalidParam(
      name,
      `Invalid ${name}: must be one of create_prorations, always_invoice, or none`,
    );
  return v as ProrationBehavior;
}

function quantityParam(value: FormValue | undefined, name: string): number | undefined {
  const v = str(value);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw invalidParam(name, "Invalid positive integer");
  return n;
}

function timestampParam(value: FormValue | undefined, name: string): number | undefined {
  const v = str(value);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw invalidParam(name, "Invalid timestamp");
  return n;
}

function updateSubscription({ stripe, params, requestId }: Ctx, id: string) {
  const metadata = params.metadata === undefined ? undefined : metadataOf(params.metadata);
  const rawItems = params.items === undefined ? undefined : list(params.items);
  if (params.items !== undefined && !rawItems) throw invalidParam("items", "Invalid array");
  const items = rawItems?.map((raw, i) => {
    const item = obj(raw) ?? {};
    return {
      id: nullable(item.id) ?? undefined,
      price: nullable(item.price) ?? undefined,
      quantity: quantityParam(item.quantity, `items[${i}][quantity]`),
    };
  });
  const payment = str(params.payment_behavior);
  if (payment !== undefined && !PAYMENT_BEHAVIORS.includes(payment))
    throw invalidParam("payment_behavior", `Invalid payment_behavior: ${payment}`);
  const sub = stripe.updateSubscription(
    id,
    {
      cancelAtPeriodEnd: boolParam(params, "cancel_at_period_end"),
      metadata,
      items,
      prorationBehavior: prorationParam(params, "proration_behavior"),
    },
    requestId,
  );
  return expand(stripe, sub, params);
}

function createSchedule({ stripe, params, requestId }: Ctx) {
  const from = str(params.from_subscription);
  if (!from)
    throw new StripeApiError(
      400,
      "The local Stripe stand-in creates schedules only from an existing subscription: pass from_subscription.",
      "invalid_request_error",
      "parameter_missing",
      "from_subscription",
    );
  return stripe.createScheduleFrom(from, requestId);
}

function updateSchedule({ stripe, params, requestId }: Ctx, id: string) {
  const end = str(params.end_behavior);
  if (end !== undefined && end !== "release" && end !== "cancel")
    throw invalidParam("end_behavior", `Invalid end_behavior: ${end}`);
  const rawPhases = params.phases === undefined ? undefined : list(params.phases);
  if (params.phases !== undefined && !rawPhases) throw invalidParam("phases", "Invalid array");
  const phases = rawPhases?.map((raw, i) => {
    const phase = obj(raw) ?? {};
    const items = list(phase.items);
    if (!items || items.length === 0) throw missingParam(`phases[${i}][items]`);
    if (items.length > 1)
      throw invalidParam(
        `phases[${i}][items]`,
        "The local Stripe stand-in supports one item per phase.",
      );
    const item = obj(items[0]) ?? {};
    const price = str(item.price);
    if (!price) throw missingParam(`phases[${i}][items][0][price]`);
    const duration = obj(phase.duration);
    let months: number | undefined;
    if (duration) {
      if (str(duration.interval) !== "month")
        throw invalidParam(
          `phases[${i}][duration][interval]`,
          "The local Stripe stand-in supports durations in months only.",
        );
      months =
        quantityParam(duration.interval_count, `phases[${i}][duration][interval_count]`) ?? 1;
    }
    const iterations = quantityParam(phase.iterations, `phases[${i}][iterations]`);
    const endDate = timestampParam(phase.end_date, `phases[${i}][end_date]`);
    if (endDate !== undefined && (duration || iterations !== undefined))
      throw invalidParam(
        `phases[${i}][end_date]`,
        "You may only specify one of end_date, duration and iterations.",
      );
    const startRaw = str(phase.start_date);
    return {
      price,
      quantity: quantityParam(item.quantity, `phases[${i}][items][0][quantity]`) ?? 1,
      startDate:
        startRaw === "now"
          ? undefined
          : timestampParam(phase.start_date, `phases[${i}][start_date]`),
      endDate,
      months: months ?? iterations,
      prorationBehavior: prorationParam(phase, "proration_behavior"),
      metadata:
        phase.metadata === undefined ? undefined : stripMetadata(metadataOf(phase.metadata)),
    };
  });
  return stripe.updateSchedule(
    id,
    {
      endBehavior: end as "release" | "cancel" | undefined,
      metadata: params.metadata === undefined ? undefined : metadataOf(params.metadata),
      phases,
    },
    requestId,
  );
}

function createPortalSession({ stripe, params }: Ctx) {
  const customer = str(params.customer);
  if (!customer) throw missingParam("customer");
  stripe.customer(customer, "customer", 400);
  const id = newId("bps_");
  const session: PortalSession = {
    id,
    object: "billing_portal.session",
    configuration: "bpc_local_default",
    created: now(),
    customer,
    flow: null,
    livemode: false,
    locale: nullable(params.locale),
    on_behalf_of: null,
    return_url: urlParam(params, "return_url"),
    url: `${stripe.opts.apiUrl}/stripe/portal/${id}`,
  };
  stripe.state.portalSessions[id] = session;
  stripe.store.save();
  return session;
}

function price(stripe: StripeCore, id: string) {
  const p = stripe.prices.get(id);
  if (!p) throw missing("price", id);
  return p;
}

function invoice(stripe: StripeCore, id: string) {
  const inv = stripe.state.invoices[id];
  if (!inv) throw missing("invoice", id);
  return inv;
}

function event(stripe: StripeCore, id: string) {
  const e = stripe.state.events.find((x) => x.id === id);
  if (!e) throw missing("event", id);
  return e;
}

// ---- metadata and expansion ------------------------------------------------------------------

/** On create, an empty metadata value simply means "no such key". */
function stripMetadata(m: Record<string, string>) {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => v !== ""));
}

function mergeMetadata(current: Record<string, string>, change: Record<string, string>) {
  const next = { ...current };
  for (const [k, v] of Object.entries(change)) {
    if (v === "") delete next[k];
    else next[k] = v;
  }
  return next;
}

function expansions(params: FormObject): string[] {
  const e = params.expand;
  const all = Array.isArray(e) ? e : typeof e === "string" ? [e] : [];
  return all.filter((x): x is string => typeof x === "string");
}

/** Replaces ids named by `expand[]` (`customer`, `subscription.latest_invoice`, …) with objects. */
function expand(stripe: StripeCore, object: object, params: FormObject): unknown {
  const paths = expansions(params);
  if (paths.length === 0) return object;
  const copy = structuredClone(object) as Record<string, unknown>;
  for (const p of paths) expandPath(stripe, copy, p.split("."));
  return copy;
}

function expandList(stripe: StripeCore, l: { data: unknown[] }, params: FormObject) {
  const paths = expansions(params)
    .filter((p) => p.startsWith("data."))
    .map((p) => p.slice(5));
  if (paths.length === 0) return l;
  const copy = structuredClone(l);
  for (const item of copy.data)
    for (const p of paths) expandPath(stripe, item as Record<string, unknown>, p.split("."));
  return copy;
}

function expandPath(stripe: StripeCore, target: Record<string, unknown>, path: string[]) {
  const [head, ...rest] = path;
  if (!head) return;
  if (head === "line_items" && target.object === "checkout.session") {
    target.line_items = lineItems(stripe, String(target.id));
    return;
  }
  let value = target[head];
  if (typeof value === "string") {
    const found = lookup(stripe, value);
    if (!found) return;
    value = target[head] = structuredClone(found);
  }
  if (rest.length === 0 || typeof value !== "object" || value === null) return;
  if (rest[0] === "data" && Array.isArray((value as { data?: unknown }).data)) {
    for (const x of (value as { data: Record<string, unknown>[] }).data)
      expandPath(stripe, x, rest.slice(1));
    return;
  }
  expandPath(stripe, value as Record<string, unknown>, rest);
}

function lookup(stripe: StripeCore, id: string): object | undefined {
  const s = stripe.state;
  if (id.startsWith("cus_")) return s.customers[id];
  if (id.startsWith("sub_sched_")) return s.schedules[id];
  if (id.startsWith("sub_")) return s.subscriptions[id];
  if (id.startsWith("in_")) return s.invoices[id];
  if (id.startsWith("cs_")) return s.checkoutSessions[id]?.session;
  return stripe.prices.get(id);
}
