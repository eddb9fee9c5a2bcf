// The Stripe objects the stand-in keeps, in the shapes the API returns (the subset of fields a
// subscription integration reads), and the local price catalogue.
import { randomBytes } from "node:crypto";
import {
  PAID_PLAN_IDS,
  PLAN_PRICES_EUR,
  type PaidPlanId,
} from "../../supabase/functions/_shared/domain/plans.ts";

/**
 * The API version the pinned `stripe` SDK requests (Stripe.API_VERSION); events carry it, as
 * Stripe's do for an endpoint created with that version. A test keeps the two in step.
 */
export const API_VERSION = "2026-10-28.endive";

export type Metadata = Record<string, string>;

export interface Price {
  id: string;
  object: "price";
  active: boolean;
  billing_scheme: "per_unit";
  created: number;
  currency: "eur";
  livemode: false;
  lookup_key: PaidPlanId;
  metadata: Metadata;
  nickname: string;
  product: string;
  recurring: {
    interval: "month";
    interval_count: 1;
    meter: null;
    usage_type: "licensed";
  };
  tax_behavior: "unspecified";
  type: "recurring";
  unit_amount: number;
  unit_amount_decimal: string;
}

export interface Customer {
  id: string;
  object: "customer";
  balance: number;
  created: number;
  currency: string | null;
  default_source: null;
  delinquent: boolean;
  description: string | null;
  email: string | null;
  invoice_prefix: string;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: null;
    footer: null;
    rendering_options: null;
  };
  livemode: false;
  metadata: Metadata;
  name: string | null;
  phone: string | null;
  preferred_locales: string[];
  shipping: null;
  tax_exempt: "none";
  test_clock: null;
}

export interface SubscriptionItem {
  id: string;
  object: "subscription_item";
  created: number;
  current_period_end: number;
  current_period_start: number;
  discounts: string[];
  metadata: Metadata;
  price: Price;
  quantity: number;
  subscription: string;
  tax_rates: [];
}

export type SubscriptionStatus =
  | "incomplete"
  | "incomplete_expired"
  | "trialing"
  | "active"
  | "past_due"
  | "canceled"
  | "unpaid"
  | "paused";

export interface Subscription {
  id: string;
  object: "subscription";
  billing_cycle_anchor: number;
  cancel_at: number | null;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  cancellation_details: {
    comment: string | null;
    feedback: string | null;
    reason: "cancellation_requested" | "payment_failed" | null;
  };
  collection_method: "charge_automatically";
  created: number;
  currency: "eur";
  /** Moved to the items in API 2025-03-31; kept here too for readers of older versions. */
  current_period_end: number;
  current_period_start: number;
  customer: string;
  default_payment_method: null;
  description: string | null;
  discounts: string[];
  ended_at: number | null;
  items: {
    object: "list";
    data: SubscriptionItem[];
    has_more: false;
    total_count: number;
    url: string;
  };
  latest_invoice: string | null;
  livemode: false;
  metadata: Metadata;
  pending_update: null;
  /** The subscription schedule attached to it (a plan change waiting for the period's end). */
  schedule: string | null;
  start_date: number;
  status: SubscriptionStatus;
  test_clock: null;
  trial_end: null;
  trial_start: null;
}

export interface InvoiceLine {
  id: string;
  object: "line_item";
  amount: number;
  currency: "eur";
  description: string;
  metadata: Metadata;
  parent: {
    type: "subscription_item_details";
    subscription_item_details: {
      invoice_item: string | null;
      proration: boolean;
      subscription: string;
      subscription_item: string;
    };
  };
  period: { end: number; start: number };
  pricing: { type: "price_details"; price_details: { price: string; product: string } };
  quantity: number;
}

export interface Invoice {
  id: string;
  object: "invoice";
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  attempt_count: number;
  attempted: boolean;
  billing_reason: "subscription_create" | "subscription_cycle" | "subscription_update";
  collection_method: "charge_automatically";
  created: number;
  currency: "eur";
  customer: string;
  customer_email: string | null;
  hosted_invoice_url: string | null;
  lines: { object: "list"; data: InvoiceLine[]; has_more: false; total_count: number; url: string };
  livemode: false;
  metadata: Metadata;
  next_payment_attempt: number | null;
  number: string;
  parent: {
    type: "subscription_details";
    quote_details: null;
    subscription_details: { metadata: Metadata; subscription: string };
  };
  period_end: number;
  period_start: number;
  status: "draft" | "open" | "paid" | "uncollectible" | "void";
  status_transitions: {
    finalized_at: number | null;
    marked_uncollectible_at: null;
    paid_at: number | null;
    voided_at: null;
  };
  subtotal: number;
  total: number;
}

export interface SchedulePhase {
  add_invoice_items: [];
  currency: "eur";
  default_tax_rates: [];
  description: string | null;
  discounts: [];
  end_date: number;
  items: Array<{
    discounts: [];
    metadata: Metadata;
    plan: string;
    price: string;
    quantity: number;
    tax_rates: [];
  }>;
  metadata: Metadata;
  proration_behavior: "always_invoice" | "create_prorations" | "none";
  start_date: number;
  trial_end: null;
}

/** A subscription schedule (`sub_sched_…`): phases applied to the subscription at their start. */
export interface SubscriptionSchedule {
  id: string;
  object: "subscription_schedule";
  canceled_at: number | null;
  completed_at: number | null;
  created: number;
  current_phase: { end_date: number; start_date: number } | null;
  customer: string;
  end_behavior: "release" | "cancel";
  livemode: false;
  metadata: Metadata;
  phases: SchedulePhase[];
  released_at: number | null;
  released_subscription: string | null;
  status: "not_started" | "active" | "completed" | "released" | "canceled";
  subscription: string | null;
  test_clock: null;
}

/** A proration waiting for the subscription's next invoice (`proration_behavior: create_prorations`). */
export interface PendingProration {
  description: string;
  amount: number;
  price: string;
  period: { start: number; end: number };
}

export interface CheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: "eur";
  customer: string | null;
  customer_creation: "always" | null;
  customer_details: {
    address: null;
    email: string | null;
    name: string | null;
    phone: null;
    tax_exempt: "none";
    tax_ids: [];
  } | null;
  customer_email: string | null;
  expires_at: number;
  invoice: string | null;
  livemode: false;
  locale: string | null;
  metadata: Metadata;
  mode: "subscription";
  payment_intent: null;
  payment_method_types: string[];
  payment_status: "paid" | "unpaid" | "no_payment_required";
  status: "open" | "complete" | "expired";
  subscription: string | null;
  success_url: string | null;
  ui_mode: "hosted";
  url: string | null;
}

/** What a checkout session was created with but does not show (line items are expandable). */
export interface SessionRecord {
  session: CheckoutSession;
  price: string;
  quantity: number;
  subscriptionMetadata: Metadata;
}

export interface PortalSession {
  id: string;
  object: "billing_portal.session";
  configuration: string;
  created: number;
  customer: string;
  flow: null;
  livemode: false;
  locale: string | null;
  on_behalf_of: null;
  return_url: string | null;
  url: string;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: unknown; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A Stripe-looking id: `cus_` + 24 random base-62 characters. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return `${prefix}${out}`;
}

export const now = () => Math.floor(Date.now() / 1000);

/** One calendar month later, clamped to the month's last day (Jan 31 → Feb 28), as Stripe bills. */
export function addMonth(unix: number): number {
  const d = new Date(unix * 1000);
  const day = d.getUTCDate();
  const target = new Date(d);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + 1);
  const last = new Date(
    Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
  ).getUTCDate();
  target.setUTCDate(Math.min(day, last));
  return Math.floor(target.getTime() / 1000);
}

export const PLAN_NAMES: Record<PaidPlanId, string> = {
  basic: "Basic",
  pro: "Pro",
  enterprise: "Enterprise",
};

/** The three monthly prices, under the ids the functions are configured with. */
export function priceCatalogue(ids: Record<PaidPlanId, string>): Map<string, Price> {
  const created = Date.UTC(2025, 0, 1) / 1000;
  return new Map(
    PAID_PLAN_IDS.map((plan): [string, Price] => {
      const amount = PLAN_PRICES_EUR[plan] * 100;
      return [
        ids[plan],
        {
          id: ids[plan],
          object: "price",
          active: true,
          billing_scheme: "per_unit",
          created,
          currency: "eur",
          livemode: false,
          lookup_key: plan,
          metadata: { plan },
          nickname: `MoverScan ${PLAN_NAMES[plan]}`,
          product: `prod_local_${plan}`,
          recurring: { interval: "month", interval_count: 1, meter: null, usage_type: "licensed" },
          tax_behavior: "unspecified",
          type: "recurring",
          unit_amount: amount,
          unit_amount_decimal: String(amount),
        },
      ];
    }),
  );
}

/** "€29.00" */
export function formatAmount(cents: number): string {
  return new Intl.NumberFormat("en-IE", { style: "currency", currency: "EUR" }).format(cents / 100);
}
