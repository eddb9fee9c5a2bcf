// The Stripe stand-in's state and operations (customers, sessions, subscriptions, events), which
// the API (api.ts) and the hosted pages (pages.ts) act on; standin.ts routes requests to them.
// Kept apart from the routing so that api.ts and pages.ts do not import the module that imports
// them (no import circle). State lives in memory and in DATA_DIR/stripe.json.
import type { PaidPlanId } from "../../supabase/functions/_shared/domain/plans.ts";
import {
  addMonth,
  formatAmount,
  newId,
  now,
  priceCatalogue,
  type CheckoutSession,
  type Customer,
  type Invoice,
  type Metadata,
  type Price,
  type SessionRecord,
  type StripeEvent,
  type Subscription,
} from "./objects.ts";
import { StripeApiError, missing } from "./errors.ts";
import { StripeStore } from "./store.ts";
import { buildEvent, WebhookSender, type Delivery } from "./webhooks.ts";

export interface StripeStandInOptions {
  /** The stack's API origin: SDK calls, checkout and portal URLs live under it. */
  apiUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** Price id per plan (STRIPE_PRICE_BASIC, …). */
  prices: Record<PaidPlanId, string>;
  /** DATA_DIR/stripe.json */
  dataFile: string;
  /** Where events go (default `<apiUrl>/functions/v1/stripe-webhook`). */
  webhookUrl?: string;
  /** Pauses before the retries of a failed delivery (default 0.5 s, 1 s, 2 s). */
  webhookRetryDelaysMs?: number[];
  log: (line: string) => void;
}

export class StripeCore {
  readonly store: StripeStore;
  readonly prices: Map<string, Price>;
  readonly webhooks: WebhookSender;

  constructor(readonly opts: StripeStandInOptions) {
    this.store = new StripeStore(opts.dataFile);
    this.prices = priceCatalogue(opts.prices);
    this.webhooks = new WebhookSender({
      url: opts.webhookUrl ?? `${opts.apiUrl}/functions/v1/stripe-webhook`,
      secret: opts.webhookSecret,
      log: opts.log,
      retryDelaysMs: opts.webhookRetryDelaysMs,
    });
  }

  close(): Promise<void> {
    return this.webhooks.close();
  }

  get state() {
    return this.store.state;
  }

  // ---- look-ups ------------------------------------------------------------------------------

  customer(id: string, param?: string, status?: number): Customer {
    const c = this.state.customers[id];
    if (!c) throw missing("customer", id, param, status);
    return c;
  }

  sessionRecord(id: string): SessionRecord {
    const rec = this.state.checkoutSessions[id];
    if (!rec) throw missing("checkout.session", id);
    const s = rec.session;
    if (s.status === "open" && s.expires_at <= now()) {
      s.status = "expired";
      s.url = null;
      this.store.save();
      void this.emit([buildEvent("checkout.session.expired", s)]);
    }
    return rec;
  }

  subscription(id: string): Subscription {
    const s = this.state.subscriptions[id];
    if (!s) throw missing("subscription", id);
    return s;
  }

  subscriptionsOf(customer: string): Subscription[] {
    return Object.values(this.state.subscriptions)
      .filter((s) => s.customer === customer)
      .sort((a, b) => b.created - a.created);
  }

  /** Records the events and queues their delivery; resolves once each was delivered or given up. */
  emit(events: StripeEvent[]): Promise<Delivery[]> {
    for (const e of events) this.store.addEvent(e);
    this.store.save();
    return this.webhooks.send(events);
  }

  // ---- operations (API and hosted pages) -----------------------------------------------------

  createCustomer(input: {
    email?: string | null;
    name?: string | null;
    description?: string | null;
    metadata?: Metadata;
  }): Customer {
    const customer: Customer = {
      id: newId("cus_", 14),
      object: "customer",
      balance: 0,
      created: now(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: input.description ?? null,
      email: input.email ?? null,
      invoice_prefix: newId("", 8).toUpperCase(),
      invoice_settings: {
        custom_fields: null,
        default_payment_method: null,
        footer: null,
        rendering_options: null,
      },
      livemode: false,
      metadata: input.metadata ?? {},
      name: input.name ?? null,
      phone: null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: "none",
      test_clock: null,
    };
    this.state.customers[customer.id] = customer;
    this.store.save();
    return customer;
  }

  createCheckoutSession(input: {
    customer: string | null;
    customerEmail: string | null;
    price: string;
    quantity: number;
    successUrl: string | null;
    cancelUrl: string | null;
    clientReferenceId: string | null;
    locale: string | null;
    metadata: Metadata;
    subscriptionMetadata: Metadata;
  }): CheckoutSession {
    const price = this.prices.get(input.price)!;
    const id = newId("cs_test_", 58);
    const created = now();
    const amount = price.unit_amount * input.quantity;
    const session: CheckoutSession = {
      id,
      object: "checkout.session",
      amount_subtotal: amount,
      amount_total: amount,
      cancel_url: input.cancelUrl,
      client_reference_id: input.clientReferenceId,
      created,
      currency: "eur",
      customer: input.customer,
      customer_creation: null,
      customer_details: null,
      customer_email: input.customer ? null : input.customerEmail,
      expires_at: created + 24 * 3600,
      invoice: null,
      livemode: false,
      locale: input.locale,
      metadata: input.metadata,
      mode: "subscription",
      payment_intent: null,
      payment_method_types: ["card"],
      payment_status: "unpaid",
      status: "open",
      subscription: null,
      success_url: input.successUrl,
      ui_mode: "hosted",
      url: `${this.opts.apiUrl}/stripe/checkout/${id}`,
    };
    this.state.checkoutSessions[id] = {
      session,
      price: price.id,
      quantity: input.quantity,
      subscriptionMetadata: input.subscriptionMetadata,
    };
    this.store.save();
    return session;
  }

  /**
   * The Pay button: the subscription starts (active, one month), the session completes, and the
   * events go out in Stripe's order. Everything changes before the first await, so a second
   * click finds the session complete.
   */
  async pay(sessionId: string): Promise<Delivery[]> {
    const rec = this.sessionRecord(sessionId);
    const s = rec.session;
    if (s.status !== "open") return [];
    const customer = s.customer
      ? this.customer(s.customer)
      : this.createCustomer({ email: s.customer_email });
    const price = this.prices.get(rec.price)!;
    const start = now();
    const end = addMonth(start);
    const subId = newId("sub_");
    const invoiceId = newId("in_");
    const sub: Subscription = {
      id: subId,
      object: "subscription",
      billing_cycle_anchor: start,
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null },
      collection_method: "charge_automatically",
      created: start,
      currency: "eur",
      current_period_end: end,
      current_period_start: start,
      customer: customer.id,
      default_payment_method: null,
      description: null,
      discounts: [],
      ended_at: null,
      items: {
        object: "list",
        data: [
          {
            id: newId("si_", 14),
            object: "subscription_item",
            created: start,
            current_period_end: end,
            current_period_start: start,
            discounts: [],
            metadata: {},
            price,
            quantity: rec.quantity,
            subscription: subId,
            tax_rates: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: invoiceId,
      livemode: false,
      metadata: { ...rec.subscriptionMetadata },
      pending_update: null,
      schedule: null,
      start_date: start,
      status: "active",
      test_clock: null,
      trial_end: null,
      trial_start: null,
    };
    const invoice = this.invoiceFor(sub, invoiceId, "paid", "subscription_create");
    this.state.subscriptions[subId] = sub;
    this.state.invoices[invoiceId] = invoice;
    Object.assign(s, {
      status: "complete",
      payment_status: "paid",
      customer: customer.id,
      customer_details: {
        address: null,
        email: customer.email,
        name: customer.name,
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
      subscription: subId,
      invoice: invoiceId,
      url: null,
    } satisfies Partial<CheckoutSession>);
    return this.emit([
      buildEvent("customer.subscription.created", sub),
      buildEvent("checkout.session.completed", s),
      buildEvent("invoice.paid", invoice),
    ]);
  }

  /** Cancel now (portal button, DELETE /v1/subscriptions/:id). */
  cancelNow(
    id: string,
    requestId: string | null = null,
  ): { sub: Subscription; sent: Promise<Delivery[]> } {
    const sub = this.subscription(id);
    if (sub.status === "canceled")
      throw new StripeApiError(400, `The subscription ${id} has already been canceled.`);
    const t = now();
    Object.assign(sub, {
      status: "canceled",
      canceled_at: t,
      ended_at: t,
      cancel_at: null,
      cancel_at_period_end: false,
      cancellation_details: { comment: null, feedback: null, reason: "cancellation_requested" },
    } satisfies Partial<Subscription>);
    return {
      sub,
      sent: this.emit([buildEvent("customer.subscription.deleted", sub, { requestId })]),
    };
  }

  /** The portal's "Simulate failed payment": the renewal invoice fails, the subscription is past due. */
  failPayment(id: string): Promise<Delivery[]> {
    const sub = this.subscription(id);
    if (sub.status === "canceled")
      throw new StripeApiError(400, `The subscription ${id} has been canceled.`);
    const previous = { status: sub.status, latest_invoice: sub.latest_invoice };
    const invoice = this.invoiceFor(sub, newId("in_"), "open", "subscription_cycle");
    this.state.invoices[invoice.id] = invoice;
    sub.status = "past_due";
    sub.latest_invoice = invoice.id;
    return this.emit([
      buildEvent("invoice.payment_failed", invoice),
      buildEvent("customer.subscription.updated", sub, { previous }),
    ]);
  }

  /** POST /v1/subscriptions/:id — cancel_at_period_end and metadata. */
  updateSubscription(
    id: string,
    change: { cancelAtPeriodEnd?: boolean; metadata?: Record<string, string> },
    requestId: string | null,
  ): Subscription {
    const sub = this.subscription(id);
    const previous: Record<string, unknown> = {};
    if (sub.status === "canceled" && change.cancelAtPeriodEnd !== undefined)
      throw new StripeApiError(
        400,
        "A canceled subscription can only update its cancellation_details and metadata.",
      );
    if (
      change.cancelAtPeriodEnd !== undefined &&
      change.cancelAtPeriodEnd !== sub.cancel_at_period_end
    ) {
      previous.cancel_at_period_end = sub.cancel_at_period_end;
      previous.cancel_at = sub.cancel_at;
      previous.cancellation_details = sub.cancellation_details;
      sub.cancel_at_period_end = change.cancelAtPeriodEnd;
      sub.cancel_at = change.cancelAtPeriodEnd ? sub.current_period_end : null;
      sub.cancellation_details = {
        comment: null,
        feedback: null,
        reason: change.cancelAtPeriodEnd ? "cancellation_requested" : null,
      };
    }
    if (change.metadata) {
      const next = { ...sub.metadata };
      for (const [k, v] of Object.entries(change.metadata)) {
        if (v === "") delete next[k];
        else next[k] = v;
      }
      if (JSON.stringify(next) !== JSON.stringify(sub.metadata)) {
        previous.metadata = sub.metadata;
        sub.metadata = next;
      }
    }
    if (Object.keys(previous).length === 0) return sub;
    void this.emit([buildEvent("customer.subscription.updated", sub, { previous, requestId })]);
    return sub;
  }

  private invoiceFor(
    sub: Subscription,
    id: string,
    status: "paid" | "open",
    reason: Invoice["billing_reason"],
  ): Invoice {
    const item = sub.items.data[0]!;
    const amount = item.price.unit_amount * item.quantity;
    const t = now();
    const paid = status === "paid";
    const customer = this.state.customers[sub.customer];
    return {
      id,
      object: "invoice",
      amount_due: amount,
      amount_paid: paid ? amount : 0,
      amount_remaining: paid ? 0 : amount,
      attempt_count: 1,
      attempted: true,
      billing_reason: reason,
      collection_method: "charge_automatically",
      created: t,
      currency: "eur",
      customer: sub.customer,
      customer_email: customer?.email ?? null,
      hosted_invoice_url: null,
      lines: {
        object: "list",
        data: [
          {
            id: newId("il_"),
            object: "line_item",
            amount,
            currency: "eur",
            description: `${item.quantity} × ${item.price.nickname} (at ${formatAmount(item.price.unit_amount)} / month)`,
            metadata: {},
            parent: {
              type: "subscription_item_details",
              subscription_item_details: {
                invoice_item: null,
                proration: false,
                subscription: sub.id,
                subscription_item: item.id,
              },
            },
            period: { start: item.current_period_start, end: item.current_period_end },
            pricing: {
              type: "price_details",
              price_details: { price: item.price.id, product: item.price.product },
            },
            quantity: item.quantity,
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/invoices/${id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: paid ? null : t + 3 * 86_400,
      number: `${customer?.invoice_prefix ?? "LOCAL"}-${String(Object.keys(this.state.invoices).length + 1).padStart(4, "0")}`,
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { metadata: { ...sub.metadata }, subscription: sub.id },
      },
      period_end: item.current_period_end,
      period_start: item.current_period_start,
      status,
      status_transitions: {
        finalized_at: t,
        marked_uncollectible_at: null,
        paid_at: paid ? t : null,
        voided_at: null,
      },
      subtotal: amount,
      total: amount,
    };
  }
}
