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
  type InvoiceLine,
  type Metadata,
  type PendingProration,
  type Price,
  type SessionRecord,
  type StripeEvent,
  type SchedulePhase,
  type Subscription,
  type SubscriptionSchedule,
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

  /**
   * POST /v1/subscriptions/:id — cancel_at_period_end, metadata, and the price of its item
   * (`items[0][id]` + `items[0][price]`) with `proration_behavior`: `create_prorations` (Stripe's
   * default: the credit for the unused time and the charge for the rest of the period wait for
   * the next invoice), `always_invoice` (invoiced and paid at once) or `none`.
   */
  updateSubscription(
    id: string,
    change: {
      cancelAtPeriodEnd?: boolean;
      metadata?: Record<string, string>;
      items?: Array<{ id?: string; price?: string; quantity?: number }>;
      prorationBehavior?: "create_prorations" | "always_invoice" | "none";
    },
    requestId: string | null,
  ): Subscription {
    const sub = this.subscription(id);
    const previous: Record<string, unknown> = {};
    if (
      sub.status === "canceled" &&
      (change.cancelAtPeriodEnd !== undefined || change.items !== undefined)
    )
      throw new StripeApiError(
        400,
        "A canceled subscription can only update its cancellation_details and metadata.",
      );
    if (sub.schedule && (change.cancelAtPeriodEnd !== undefined || change.items !== undefined))
      throw new StripeApiError(
        400,
        `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating it directly is not allowed in the local Stripe stand-in. Release the schedule first.`,
      );
    // Validate everything before changing anything: a refused request changes nothing.
    let newPrice: Price | null = null;
    let newQuantity: number | null = null;
    if (change.items !== undefined) {
      if (change.items.length !== 1)
        throw new StripeApiError(
          400,
          "The local Stripe stand-in supports one item per subscription: pass items[0][id] and items[0][price].",
          "invalid_request_error",
          "parameter_invalid",
          "items",
        );
      const wanted = change.items[0]!;
      const item = sub.items.data[0]!;
      if (!wanted.id)
        throw new StripeApiError(
          400,
          "The local Stripe stand-in does not add items: pass items[0][id] to change the existing item.",
          "invalid_request_error",
          "parameter_missing",
          "items[0][id]",
        );
      if (wanted.id !== item.id)
        throw new StripeApiError(
          400,
          `Invalid subscription_item id: ${wanted.id}`,
          "invalid_request_error",
          "resource_missing",
          "items[0][id]",
        );
      if (wanted.price !== undefined) {
        const p = this.prices.get(wanted.price);
        if (!p) throw missing("price", wanted.price, "items[0][price]", 400);
        if (p.id !== item.price.id) newPrice = p;
      }
      if (wanted.quantity !== undefined && wanted.quantity !== item.quantity)
        newQuantity = wanted.quantity;
    }
    const invoices: Invoice[] = [];
    if (newPrice || newQuantity !== null) {
      const item = sub.items.data[0]!;
      previous.items = structuredClone(sub.items);
      const before = { price: item.price, quantity: item.quantity };
      item.price = newPrice ?? item.price;
      item.quantity = newQuantity ?? item.quantity;
      const behavior = change.prorationBehavior ?? "create_prorations";
      if (behavior !== "none") {
        const lines = this.prorations(sub, before, { price: item.price, quantity: item.quantity });
        const pending = (this.state.pendingProrations[sub.id] ??= []);
        pending.push(...lines);
        if (behavior === "always_invoice") {
          const invoice = this.invoiceFor(sub, newId("in_"), "paid", "subscription_update", {
            regular: false,
          });
          previous.latest_invoice = sub.latest_invoice;
          sub.latest_invoice = invoice.id;
          this.state.invoices[invoice.id] = invoice;
          invoices.push(invoice);
        }
      }
    }
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
    void this.emit([
      buildEvent("customer.subscription.updated", sub, { previous, requestId }),
      ...invoices.map((i) => buildEvent("invoice.paid", i, { requestId })),
    ]);
    return sub;
  }

  /** The credit for the unused time of the old item and the charge for the rest on the new one. */
  private prorations(
    sub: Subscription,
    before: { price: Price; quantity: number },
    after: { price: Price; quantity: number },
  ): PendingProration[] {
    const t = Math.min(Math.max(now(), sub.current_period_start), sub.current_period_end);
    const length = sub.current_period_end - sub.current_period_start;
    const share = length > 0 ? (sub.current_period_end - t) / length : 0;
    const period = { start: t, end: sub.current_period_end };
    const day = new Date(t * 1000).toLocaleDateString("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
    });
    return [
      {
        description: `Unused time on ${before.quantity} × ${before.price.nickname} after ${day}`,
        amount: -Math.round(before.price.unit_amount * before.quantity * share),
        price: before.price.id,
        period,
      },
      {
        description: `Remaining time on ${after.quantity} × ${after.price.nickname} after ${day}`,
        amount: Math.round(after.price.unit_amount * after.quantity * share),
        price: after.price.id,
        period,
      },
    ];
  }

  // ---- subscription schedules (a plan change at the end of the period) ----------------------

  schedule(id: string): SubscriptionSchedule {
    const s = this.state.schedules[id];
    if (!s) throw missing("subscription_schedule", id);
    return s;
  }

  /** POST /v1/subscription_schedules with `from_subscription`: one phase, the current period. */
  createScheduleFrom(subId: string, requestId: string | null): SubscriptionSchedule {
    const sub = this.subscription(subId);
    if (sub.status === "canceled")
      throw new StripeApiError(400, `The subscription ${subId} has been canceled.`);
    if (sub.schedule)
      throw new StripeApiError(
        400,
        `You cannot migrate a subscription that is already attached to a schedule: \`${sub.schedule}\`.`,
        "invalid_request_error",
        "parameter_invalid",
        "from_subscription",
      );
    if (sub.cancel_at_period_end)
      throw new StripeApiError(
        400,
        "You cannot migrate a subscription that is scheduled to cancel to a subscription schedule.",
        "invalid_request_error",
        "parameter_invalid",
        "from_subscription",
      );
    const item = sub.items.data[0]!;
    const schedule: SubscriptionSchedule = {
      id: newId("sub_sched_"),
      object: "subscription_schedule",
      canceled_at: null,
      completed_at: null,
      created: now(),
      current_phase: { start_date: sub.current_period_start, end_date: sub.current_period_end },
      customer: sub.customer,
      end_behavior: "release",
      livemode: false,
      metadata: {},
      phases: [
        phaseOf(
          sub.current_period_start,
          sub.current_period_end,
          item.price.id,
          item.quantity,
          {},
          "create_prorations",
        ),
      ],
      released_at: null,
      released_subscription: null,
      status: "active",
      subscription: sub.id,
      test_clock: null,
    };
    this.state.schedules[schedule.id] = schedule;
    sub.schedule = schedule.id;
    void this.emit([
      buildEvent("subscription_schedule.created", schedule, { requestId }),
      buildEvent("customer.subscription.updated", sub, {
        previous: { schedule: null },
        requestId,
      }),
    ]);
    return schedule;
  }

  /**
   * POST /v1/subscription_schedules/:id — `end_behavior` and the phases. The current phase keeps
   * its start; each later phase starts where the one before ends.
   */
  updateSchedule(
    id: string,
    change: {
      endBehavior?: "release" | "cancel";
      metadata?: Metadata;
      phases?: Array<{
        price: string;
        quantity: number;
        startDate?: number;
        endDate?: number;
        months?: number;
        prorationBehavior?: SchedulePhase["proration_behavior"];
        metadata?: Metadata;
      }>;
    },
    requestId: string | null,
  ): SubscriptionSchedule {
    const schedule = this.schedule(id);
    if (schedule.status !== "active" && schedule.status !== "not_started")
      throw new StripeApiError(
        400,
        `You cannot update a subscription schedule that is currently in the \`${schedule.status}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`,
      );
    const previous: Record<string, unknown> = {};
    let phases: SchedulePhase[] | null = null;
    if (change.phases) {
      if (change.phases.length === 0)
        throw new StripeApiError(
          400,
          "A schedule needs at least one phase.",
          "invalid_request_error",
          "parameter_invalid",
          "phases",
        );
      const currentStart = schedule.current_phase?.start_date ?? schedule.phases[0]!.start_date;
      let start = change.phases[0]!.startDate ?? currentStart;
      if (schedule.status === "active" && start !== currentStart)
        throw new StripeApiError(
          400,
          "You can not modify the start date of the current phase.",
          "invalid_request_error",
          "parameter_invalid",
          "phases[0][start_date]",
        );
      phases = change.phases.map((p, i) => {
        if (!this.prices.has(p.price))
          throw missing("price", p.price, `phases[${i}][items][0][price]`, 400);
        if (i > 0 && p.startDate !== undefined && p.startDate !== start)
          throw new StripeApiError(
            400,
            `The start_date of phase ${i} must equal the end_date of the phase before it.`,
            "invalid_request_error",
            "parameter_invalid",
            `phases[${i}][start_date]`,
          );
        let end = p.endDate;
        if (end === undefined) {
          end = start;
          for (let m = 0; m < (p.months ?? 1); m++) end = addMonth(end);
        }
        if (end <= start)
          throw new StripeApiError(
            400,
            `The end_date of phase ${i} must be after its start_date.`,
            "invalid_request_error",
            "parameter_invalid",
            `phases[${i}][end_date]`,
          );
        const phase = phaseOf(
          start,
          end,
          p.price,
          p.quantity,
          p.metadata ?? {},
          p.prorationBehavior ?? "create_prorations",
        );
        start = end;
        return phase;
      });
    }
    if (phases) {
      previous.phases = schedule.phases;
      schedule.phases = phases;
      schedule.current_phase =
        schedule.status === "active"
          ? { start_date: phases[0]!.start_date, end_date: phases[0]!.end_date }
          : null;
    }
    if (change.endBehavior && change.endBehavior !== schedule.end_behavior) {
      previous.end_behavior = schedule.end_behavior;
      schedule.end_behavior = change.endBehavior;
    }
    if (change.metadata) {
      previous.metadata = schedule.metadata;
      schedule.metadata = { ...schedule.metadata, ...change.metadata };
    }
    if (Object.keys(previous).length > 0)
      void this.emit([
        buildEvent("subscription_schedule.updated", schedule, { previous, requestId }),
      ]);
    return schedule;
  }

  /** POST /v1/subscription_schedules/:id/release — the subscription goes on as it is, unscheduled. */
  releaseSchedule(id: string, requestId: string | null): SubscriptionSchedule {
    const schedule = this.schedule(id);
    if (schedule.status !== "active" && schedule.status !== "not_started")
      throw new StripeApiError(
        400,
        `You cannot release a subscription schedule that is currently in the \`${schedule.status}\` status.`,
      );
    const events = this.detachSchedule(schedule, requestId);
    void this.emit(events);
    return schedule;
  }

  private detachSchedule(schedule: SubscriptionSchedule, requestId: string | null): StripeEvent[] {
    const subId = schedule.subscription;
    Object.assign(schedule, {
      status: "released",
      released_at: now(),
      released_subscription: subId,
      subscription: null,
      current_phase: null,
    } satisfies Partial<SubscriptionSchedule>);
    const events = [buildEvent("subscription_schedule.released", schedule, { requestId })];
    const sub = subId ? this.state.subscriptions[subId] : undefined;
    if (sub && sub.schedule === schedule.id) {
      sub.schedule = null;
      events.push(
        buildEvent("customer.subscription.updated", sub, {
          previous: { schedule: schedule.id },
          requestId,
        }),
      );
    }
    return events;
  }

  /**
   * The portal's "Simulate renewal": the current period ends now. The next period starts; a
   * schedule's phase starting then applies its price (a downgrade takes effect), a schedule whose
   * last phase ended releases the subscription; the renewal invoice (with any prorations waiting)
   * is paid. A subscription set to cancel at the period's end is canceled instead.
   */
  renew(id: string): Promise<Delivery[]> {
    const sub = this.subscription(id);
    if (sub.status === "canceled")
      throw new StripeApiError(400, `The subscription ${id} has been canceled.`);
    if (sub.cancel_at_period_end) return this.cancelNow(id).sent;
    const item = sub.items.data[0]!;
    const start = sub.current_period_end;
    const end = addMonth(start);
    const previous: Record<string, unknown> = {
      current_period_start: sub.current_period_start,
      current_period_end: sub.current_period_end,
      latest_invoice: sub.latest_invoice,
      items: structuredClone(sub.items),
    };
    const events: StripeEvent[] = [];
    const schedule = sub.schedule ? this.state.schedules[sub.schedule] : undefined;
    if (schedule && schedule.status === "active") {
      const phase = schedule.phases.find((p) => p.start_date <= start && start < p.end_date);
      if (phase) {
        const price = this.prices.get(phase.items[0]!.price)!;
        item.price = price;
        item.quantity = phase.items[0]!.quantity;
        schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
        if (Object.keys(phase.metadata).length > 0) {
          previous.metadata = sub.metadata;
          sub.metadata = { ...sub.metadata, ...phase.metadata };
        }
      } else if (schedule.end_behavior === "release") {
        events.push(...this.detachSchedule(schedule, null));
      }
    }
    sub.current_period_start = item.current_period_start = start;
    sub.current_period_end = item.current_period_end = end;
    const invoice = this.invoiceFor(sub, newId("in_"), "paid", "subscription_cycle");
    this.state.invoices[invoice.id] = invoice;
    sub.latest_invoice = invoice.id;
    if (sub.status === "past_due") {
      previous.status = sub.status;
      sub.status = "active";
    }
    return this.emit([
      ...events,
      buildEvent("customer.subscription.updated", sub, { previous }),
      buildEvent("invoice.paid", invoice),
    ]);
  }

  /**
   * An invoice of the subscription: the item for the current period (unless `regular` is false:
   * a proration-only invoice) plus the prorations waiting for it, which it takes.
   */
  private invoiceFor(
    sub: Subscription,
    id: string,
    status: "paid" | "open",
    reason: Invoice["billing_reason"],
    opts: { regular?: boolean } = {},
  ): Invoice {
    const item = sub.items.data[0]!;
    const regularAmount = opts.regular === false ? 0 : item.price.unit_amount * item.quantity;
    const prorations = this.state.pendingProrations[sub.id] ?? [];
    delete this.state.pendingProrations[sub.id];
    const prorationLines: InvoiceLine[] = prorations.map((p) => ({
      id: newId("il_"),
      object: "line_item",
      amount: p.amount,
      currency: "eur",
      description: p.description,
      metadata: {},
      parent: {
        type: "subscription_item_details",
        subscription_item_details: {
          invoice_item: newId("ii_"),
          proration: true,
          subscription: sub.id,
          subscription_item: item.id,
        },
      },
      period: p.period,
      pricing: {
        type: "price_details",
        price_details: { price: p.price, product: this.prices.get(p.price)?.product ?? "" },
      },
      quantity: 1,
    }));
    // A credit larger than the charge goes to the customer's balance, not below zero.
    const total = regularAmount + prorations.reduce((a, p) => a + p.amount, 0);
    const amount = Math.max(0, total);
    const customerRecord = this.state.customers[sub.customer];
    if (total < 0 && customerRecord) customerRecord.balance += total;
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
          ...(opts.regular === false
            ? []
            : ([
                {
                  id: newId("il_"),
                  object: "line_item",
                  amount: regularAmount,
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
              ] satisfies InvoiceLine[])),
          ...prorationLines,
        ],
        has_more: false,
        total_count: prorationLines.length + (opts.regular === false ? 0 : 1),
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
      subtotal: total,
      total,
    };
  }
}

function phaseOf(
  start: number,
  end: number,
  price: string,
  quantity: number,
  metadata: Metadata,
  prorationBehavior: SchedulePhase["proration_behavior"],
): SchedulePhase {
  return {
    add_invoice_items: [],
    currency: "eur",
    default_tax_rates: [],
    description: null,
    discounts: [],
    end_date: end,
    items: [{ discounts: [], metadata: {}, plan: price, price, quantity, tax_rates: [] }],
    metadata,
    proration_behavior: prorationBehavior,
    start_date: start,
    trial_end: null,
  };
}
