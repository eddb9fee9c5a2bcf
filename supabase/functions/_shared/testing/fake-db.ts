// In-memory stand-ins for the database ports (test support only). They keep the rules the
// database enforces: one customer per user, one row per event id, the newer subscription
// state wins, and the profile follows the user's subscriptions (domain/billing.ts, mirrored by
// the trigger private.sync_profile_subscription).
import type { AvatarStore } from "../avatars.ts";
import type { BillingDb, LiveSubscription, SubscriptionRecord } from "../billing.ts";
import { type Account, accountFromSubscriptions } from "../domain/billing.ts";
import type { AuthUser } from "../supabase.ts";

export class FakeUsers {
  readonly byToken = new Map<string, AuthUser>();
  readonly profiles = new Map<string, Account & { avatarUrl: string | null }>();

  add(user: Partial<AuthUser> & { id: string }, token = `token-${user.id}`): string {
    this.byToken.set(token, { email: null, banned: false, ...user });
    this.profiles.set(user.id, { plan: "none", subscriptionActive: false, avatarUrl: null });
    return token;
  }

  getUser(token: string): Promise<AuthUser | null> {
    return Promise.resolve(this.byToken.get(token) ?? null);
  }
}

export class FakeBillingDb extends FakeUsers implements BillingDb {
  readonly customers = new Map<string, string>();
  readonly events = new Map<string, string>();
  readonly subscriptions = new Map<string, SubscriptionRecord>();
  /** Runs just before insertCustomer stores its row (to stage a concurrent request). */
  beforeInsertCustomer: ((userId: string) => void) | null = null;
  /** Makes the next upsertSubscription fail (a database outage). */
  failNextUpsert = false;

  getCustomerId(userId: string) {
    return Promise.resolve(this.customers.get(userId) ?? null);
  }
  insertCustomer(userId: string, customerId: string) {
    this.beforeInsertCustomer?.(userId);
    if (this.customers.has(userId)) return Promise.resolve(false);
    if ([...this.customers.values()].includes(customerId)) {
      return Promise.reject(new Error("duplicate stripe_customer_id"));
    }
    this.customers.set(userId, customerId);
    return Promise.resolve(true);
  }
  findUserByCustomer(customerId: string) {
    const entry = [...this.customers].find(([, c]) => c === customerId);
    return Promise.resolve(entry ? entry[0] : null);
  }
  hasLiveSubscription(userId: string) {
    return Promise.resolve(
      [...this.subscriptions.values()].some(
        (s) => s.userId === userId && (s.status === "active" || s.status === "trialing"),
      ),
    );
  }
  getLiveSubscription(userId: string): Promise<LiveSubscription | null> {
    const live = [...this.subscriptions.values()].find(
      (s) => s.userId === userId && (s.status === "active" || s.status === "trialing"),
    );
    return Promise.resolve(
      live
        ? {
          id: live.id,
          plan: live.plan,
          status: live.status,
          pendingPlan: live.pendingPlan ?? null,
        }
        : null,
    );
  }
  /** Plan changes counted per user, and the limit (as public.take_plan_change_slot: 5 an hour). */
  readonly planChanges = new Map<string, number>();
  planChangeLimit = 5;
  takePlanChangeSlot(userId: string) {
    const used = this.planChanges.get(userId) ?? 0;
    if (used >= this.planChangeLimit) return Promise.resolve(3600);
    this.planChanges.set(userId, used + 1);
    return Promise.resolve(0);
  }
  userExists(userId: string) {
    return Promise.resolve(this.profiles.has(userId));
  }
  hasEvent(eventId: string) {
    return Promise.resolve(this.events.has(eventId));
  }
  recordEvent(eventId: string, type: string) {
    if (!this.events.has(eventId)) this.events.set(eventId, type);
    return Promise.resolve();
  }
  upsertSubscription(record: SubscriptionRecord) {
    if (this.failNextUpsert) {
      this.failNextUpsert = false;
      return Promise.reject(new Error("connection to the database lost"));
    }
    const profile = this.profiles.get(record.userId);
    if (!profile) return Promise.reject(new Error("billing_subscriptions_user_id_fkey"));
    const old = this.subscriptions.get(record.id);
    if (old && record.stripeUpdatedAt < old.stripeUpdatedAt) return Promise.resolve();
    this.subscriptions.set(record.id, { ...record });
    const mine = [...this.subscriptions.values()].filter((s) => s.userId === record.userId);
    Object.assign(profile, accountFromSubscriptions(profile, mine));
    return Promise.resolve();
  }

  profile(userId: string) {
    return this.profiles.get(userId);
  }
}

export class FakeAvatarStore extends FakeUsers implements AvatarStore {
  readonly objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  failProfileUpdate = false;

  upload(path: string, bytes: Uint8Array, contentType: string) {
    if (this.objects.has(path)) return Promise.reject(new Error("The resource already exists"));
    this.objects.set(path, { bytes, contentType });
    return Promise.resolve();
  }
  publicUrl(path: string) {
    return `http://storage.test/storage/v1/object/public/avatars/${path}`;
  }
  setAvatarUrl(userId: string, url: string) {
    if (this.failProfileUpdate) return Promise.reject(new Error("profiles update failed"));
    const profile = this.profiles.get(userId);
    if (profile) profile.avatarUrl = url;
    return Promise.resolve();
  }
  list(folder: string) {
    return Promise.resolve(
      [...this.objects.keys()].filter((p) =>
        p.startsWith(`${folder}/`) && !p.slice(folder.length + 1).includes("/")
      ),
    );
  }
  remove(paths: string[]) {
    for (const p of paths) this.objects.delete(p);
    return Promise.resolve();
  }
}
