// The stand-in's state: kept in memory and written to DATA_DIR/stripe.json after every change,
// so customers and subscriptions survive a restart of the stack.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { StackError } from "../errors.ts";
import type {
  Customer,
  Invoice,
  PendingProration,
  PortalSession,
  SessionRecord,
  StripeEvent,
  Subscription,
  SubscriptionSchedule,
} from "./objects.ts";

export interface StripeState {
  version: 1;
  customers: Record<string, Customer>;
  checkoutSessions: Record<string, SessionRecord>;
  subscriptions: Record<string, Subscription>;
  invoices: Record<string, Invoice>;
  portalSessions: Record<string, PortalSession>;
  schedules: Record<string, SubscriptionSchedule>;
  /** Prorations per subscription, billed on its next invoice. */
  pendingProrations: Record<string, PendingProration[]>;
  /** The latest events, newest last (GET /v1/events/:id). */
  events: StripeEvent[];
}

const MAX_EVENTS = 200;

const empty = (): StripeState => ({
  version: 1,
  customers: {},
  checkoutSessions: {},
  subscriptions: {},
  invoices: {},
  portalSessions: {},
  schedules: {},
  pendingProrations: {},
  events: [],
});

export class StripeStore {
  readonly state: StripeState;

  constructor(readonly file: string) {
    this.state = empty();
    if (!existsSync(file)) return;
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as Partial<StripeState>;
      if (saved.version !== 1) throw new Error(`unknown version ${String(saved.version)}`);
      Object.assign(this.state, saved);
    } catch (err) {
      // Starting with an empty state would orphan every customer and subscription the database
      // refers to (portal 502, checkout 409 for good): stop, keep the file, name the fix.
      throw new StackError(
        `The Stripe stand-in's state file ${file} is unreadable (${(err as Error).message.split("\n")[0]}). ` +
          "Restore it from a backup, or run `npm run db:reset` to start over with empty data " +
          "(database and stand-in together); nothing was deleted.",
        "STRIPE_STATE_CORRUPT",
      );
    }
  }

  addEvent(event: StripeEvent) {
    this.state.events.push(event);
    if (this.state.events.length > MAX_EVENTS)
      this.state.events.splice(0, this.state.events.length - MAX_EVENTS);
  }

  /** Atomic write: a crash mid-write leaves the previous file intact. */
  save() {
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state, null, 1), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}
