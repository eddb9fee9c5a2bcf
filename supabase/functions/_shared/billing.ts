// Billing for the checkout, billing-portal and stripe-webhook functions: settings from the
// environment, the Stripe client, the database port and its Supabase implementation.
import { type Db, serviceClient } from "./clients.ts";
import Stripe from "stripe";
import {
  expandableId,
  pendingPlanChange,
  planForPrice,
  type PlanPrices,
  subscriptionPeriodEnd,
  subscriptionPriceId,
} from "./domain/billing.ts";
import type { PaidPlanId } from "./domain/plans.ts";
import { type Env, requireEnv } from "./env.ts";
import { HttpError } from "./http.ts";
import { type AuthUser, userFromToken, type UserLookup } from "./supabase.ts";

export const BILLING_NOT_CONFIGURED = "billing_not_configured";

export const PRICE_ENV = {
  basic: "STRIPE_PRICE_BASIC",
  pro: "STRIPE_PRICE_PRO",
  enterprise: "STRIPE_PRICE_ENTERPRISE",
} as const satisfies Record<PaidPlanId, string>;

type BillingVar =
  | "STRIPE_SECRET_KEY"
  | "STRIPE_WEBHOOK_SECRET"
  | "SITE_URL"
  | (typeof PRICE_ENV)[PaidPlanId];

/** The named billing settings, or a 500 `billing_not_configured` naming each missing one. */
export function billingEnv<const N extends BillingVar>(
  env: Env,
  names: readonly N[],
): Record<N, string> {
  return requireEnv(env, names, BILLING_NOT_CONFIGURED);
}

export const ALL_PRICE_VARS = Object.values(PRICE_ENV);

export function pricesFrom(vars: Record<(typeof PRICE_ENV)[PaidPlanId], string>): PlanPrices {
  return {
    basic: vars.STRIPE_PRICE_BASIC,
    pro: vars.STRIPE_PRICE_PRO,
    enterprise: vars.STRIPE_PRICE_ENTERPRISE,
  };
}

/** SITE_URL as an origin-like base without a trailing slash (`https://app.example.com`). */
export function siteUrlFrom(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidSetting("SITE_URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidSetting("SITE_URL");
  return value.replace(/\/+$/, "");
}

function invalidSetting(name: string): HttpError {
  return new HttpError(
    500,
    BILLING_NOT_CONFIGURED,
    `The environment variable ${name} is not a valid http(s) URL.`,
  );
}

/**
 * A Stripe client on the fetch HTTP client (Deno). With STRIPE_API_URL set (the local Stripe
 * stand-in, or a test's fake), every call goes to that origin instead of api.stripe.com.
 */
export function createStripe(env: Env): Stripe {
  const { STRIPE_SECRET_KEY } = billingEnv(env, ["STRIPE_SECRET_KEY"]);
  const config: Stripe.StripeConfig = {
    httpClient: Stripe.createFetchHttpClient(),
    // An edge function has a short life: one retry, and no 80 s default timeout.
    maxNetworkRetries: 1,
    timeout: 15_000,
  };
  const apiUrl = env("STRIPE_API_URL")?.trim();
  if (apiUrl) {
    let url: URL;
    try {
      url = new URL(apiUrl);
    } catch {
      throw invalidSetting("STRIPE_API_URL");
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw invalidSetting("STRIPE_API_URL");
    }
    config.protocol = url.protocol === "https:" ? "https" : "http";
    config.host = url.hostname;
    config.port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  }
  return new Stripe(STRIPE_SECRET_KEY, config);
}

/** Web Crypto for verifying webhook signatures (Deno has no Node crypto module by default). */
export const stripeCryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * The event, if `signature` (the Stripe-Signature header) signs exactly `rawBody` with the
 * endpoint's secret within Stripe's 5-minute tolerance; else null.
 */
export async function verifyStripeEvent(
  rawBody: string,
  signature: string,
  secret: string,
): Promise<Stripe.Event | null> {
  try {
    return await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      undefined,
      stripeCryptoProvider,
    );
  } catch (err) {
    console.warn("[billing] webhook signature refused:", (err as Error).message.split("\n")[0]);
    return null;
  }
}

export function isStripeError(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError;
}

/** What the SPA shows when Stripe fails (spec section 8, "Checkout request failure"). */
export function paymentProviderError(): HttpError {
  return new HttpError(
    502,
    "payment_provider_error",
    "Payment system unavailable. Please try again later.",
  );
}

/** Runs a Stripe call; a Stripe failure is logged and becomes a 502 for the caller. */
export async function callStripe<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isStripeError(err)) throw err;
    const e = err as InstanceType<typeof Stripe.errors.StripeError>;
    console.error(`[billing] Stripe ${what} failed:`, e.type, e.statusCode ?? "-", e.message);
    throw paymentProviderError();
  }
}

// ---------------------------------------------------------------------------------------------
// The database port: what the billing functions read and write. Production wires it to
// Supabase with the service role (below); the tests use an in-memory fake.
// ---------------------------------------------------------------------------------------------

/** A subscription as last read from Stripe (a row of public.billing_subscriptions). */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  customerId: string;
  priceId: string;
  plan: PaidPlanId;
  status: string;
  /** ISO timestamp, or null when Stripe reports none. */
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** When this state was read from Stripe (ISO); an older state never replaces a newer one. */
  stripeUpdatedAt: string;
  /** The plan a scheduled change switches to at `pendingPlanAt` (ISO); both null when none. */
  pendingPlan?: PaidPlanId | null;
  pendingPlanAt?: string | null;
}

/**
 * The row to store for a subscription as Stripe reports it (with its schedule expanded, so a
 * waiting downgrade is seen), or null when its price is not sold here or it has no customer.
 */
export function subscriptionRecord(
  subscription: Record<string, unknown>,
  userId: string,
  prices: PlanPrices,
  readAt: Date,
): SubscriptionRecord | null {
  const priceId = subscriptionPriceId(subscription);
  const plan = planForPrice(priceId, prices);
  const customerId = expandableId(subscription.customer);
  if (!priceId || !plan || !customerId || typeof subscription.id !== "string") return null;
  const periodEnd = subscriptionPeriodEnd(subscription);
  const pending = pendingPlanChange(subscription.schedule, plan, periodEnd, prices);
  return {
    id: subscription.id,
    userId,
    customerId,
    priceId,
    plan,
    status: String(subscription.status),
    currentPeriodEnd: periodEnd === null ? null : new Date(periodEnd * 1000).toISOString(),
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    stripeUpdatedAt: readAt.toISOString(),
    pendingPlan: pending?.plan ?? null,
    pendingPlanAt: pending ? new Date(pending.at * 1000).toISOString() : null,
  };
}

/** The user's live subscription as stored (what a plan change starts from). */
export interface LiveSubscription {
  id: string;
  plan: PaidPlanId;
  status: string;
  pendingPlan: PaidPlanId | null;
}

export interface BillingDb extends UserLookup {
  /** The user's Stripe customer id, if they have one. */
  getCustomerId(userId: string): Promise<string | null>;
  /** Records the user's customer; false when the user already has one (a concurrent request). */
  insertCustomer(userId: string, customerId: string): Promise<boolean>;
  /** The user a Stripe customer belongs to. */
  findUserByCustomer(customerId: string): Promise<string | null>;
  /** Whether the user has a subscription Stripe reports as active or trialing. */
  hasLiveSubscription(userId: string): Promise<boolean>;
  /** The user's newest active or trialing subscription, if any. */
  getLiveSubscription(userId: string): Promise<LiveSubscription | null>;
  /**
   * Counts a plan change against the user's limit: 0 when allowed, else the seconds to wait
   * (`public.take_plan_change_slot`).
   */
  takePlanChangeSlot(userId: string): Promise<number>;
  userExists(userId: string): Promise<boolean>;
  /** Whether this webhook event was already processed. */
  hasEvent(eventId: string): Promise<boolean>;
  /** Marks the event processed (a second record of the same id changes nothing). */
  recordEvent(eventId: string, type: string): Promise<void>;
  /**
   * Stores the subscription's state. The database derives the profile from it
   * (trigger `private.sync_profile_subscription`: plan and subscription_active) and keeps the
   * newer of two states (by `stripeUpdatedAt`).
   */
  upsertSubscription(record: SubscriptionRecord): Promise<void>;
}

export type BillingDbFactory = (env: Env) => BillingDb;

function fail(what: string, error: { message: string; code?: string }): never {
  throw new Error(`[billing] ${what}: ${error.code ?? ""} ${error.message}`.trim());
}

/** The port on Supabase with a service-role client (RLS does not apply; the triggers do). */
export function supabaseBillingDb(client: Db): BillingDb {
  return {
    getUser: (token): Promise<AuthUser | null> => userFromToken(client, token),
    async getCustomerId(userId) {
      const { data, error } = await client
        .from("billing_customers")
        .select("stripe_customer_id")
        .eq("user_id", userId)
        .maybeSingle();
      if (error) fail("reading billing_customers", error);
      return (data?.stripe_customer_id as string | undefined) ?? null;
    },
    async insertCustomer(userId, customerId) {
      const { error } = await client
        .from("billing_customers")
        .insert({ user_id: userId, stripe_customer_id: customerId });
      if (!error) return true;
      if (error.code === "23505") return false;
      fail("inserting into billing_customers", error);
    },
    async hasLiveSubscription(userId) {
      const { count, error } = await client
        .from("billing_subscriptions")
        .select("id", { count: "exact", head: true })
        .eq("user_id", userId)
        .in("status", ["active", "trialing"]);
      if (error) fail("reading billing_subscriptions", error);
      return (count ?? 0) > 0;
    },
    async getLiveSubscription(userId) {
      const { data, error } = await client
        .from("billing_subscriptions")
        .select("id, plan, status, pending_plan")
        .eq("user_id", userId)
        .in("status", ["active", "trialing"])
        .order("updated_at", { ascending: false })
        .limit(1)
        .maybeSingle();
      if (error) fail("reading billing_subscriptions", error);
      if (!data || data.plan === "none") return null;
      return {
        id: data.id as string,
        plan: data.plan as PaidPlanId,
        status: data.status as string,
        pendingPlan: (data.pending_plan as PaidPlanId | null) ?? null,
      };
    },
    async takePlanChangeSlot(userId) {
      const { data, error } = await client.rpc("take_plan_change_slot", { target: userId });
      if (error) fail("taking a plan change slot", error);
      return typeof data === "number" ? data : 0;
    },
    async findUserByCustomer(customerId) {
      const { data, error } = await client
        .from("billing_customers")
        .select("user_id")
        .eq("stripe_customer_id", customerId)
        .maybeSingle();
      if (error) fail("reading billing_customers", error);
      return (data?.user_id as string | undefined) ?? null;
    },
    async userExists(userId) {
      const { data, error } = await client
        .from("profiles")
        .select("id")
        .eq("id", userId)
        .maybeSingle();
      if (error) fail("reading profiles", error);
      return data !== null;
    },
    async hasEvent(eventId) {
      const { data, error } = await client
        .from("billing_events")
        .select("id")
        .eq("id", eventId)
        .maybeSingle();
      if (error) fail("reading billing_events", error);
      return data !== null;
    },
    async recordEvent(eventId, type) {
      const { error } = await client
        .from("billing_events")
        .upsert({ id: eventId, type }, { onConflict: "id", ignoreDuplicates: true });
      if (error) fail("recording the event", error);
    },
    async upsertSubscription(r) {
      const { error } = await client.from("billing_subscriptions").upsert({
        id: r.id,
        user_id: r.userId,
        stripe_customer_id: r.customerId,
        price_id: r.priceId,
        plan: r.plan,
        status: r.status,
        current_period_end: r.currentPeriodEnd,
        cancel_at_period_end: r.cancelAtPeriodEnd,
        stripe_updated_at: r.stripeUpdatedAt,
        pending_plan: r.pendingPlan ?? null,
        pending_plan_at: r.pendingPlanAt ?? null,
      }, { onConflict: "id" });
      if (error) fail("storing the subscription", error);
    },
  };
}

/** Without an injected port: Supabase with the service role from the environment. */
export const defaultBillingDb: BillingDbFactory = (env) =>
  supabaseBillingDb(serviceClient(env, BILLING_NOT_CONFIGURED));
