// Webhook events as Stripe sends them: a full Event object POSTed as JSON with
// `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`, one endpoint,
// delivered in order, a failed delivery retried with a short backoff (Stripe retries for days).
import { createHmac } from "node:crypto";
import { API_VERSION, newId, now, type StripeEvent } from "./objects.ts";

/** The `Stripe-Signature` header for a payload, computed exactly as Stripe does. */
export function signatureHeader(payload: string, secret: string, timestamp = now()): string {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/** A snapshot event of `object` (copied, so later changes do not alter what was sent). */
export function buildEvent(
  type: string,
  object: unknown,
  opts: { previous?: Record<string, unknown>; requestId?: string | null } = {},
): StripeEvent {
  return {
    id: newId("evt_"),
    object: "event",
    api_version: API_VERSION,
    created: now(),
    data: {
      object: structuredClone(object),
      ...(opts.previous ? { previous_attributes: structuredClone(opts.previous) } : {}),
    },
    livemode: false,
    pending_webhooks: 1,
    request: { id: opts.requestId ?? null, idempotency_key: null },
    type,
  };
}

export interface Delivery {
  event: StripeEvent;
  /** HTTP status of the last attempt, or null when the endpoint could not be reached. */
  status: number | null;
  attempts: number;
  ok: boolean;
}

export interface WebhookSenderOptions {
  url: string;
  secret: string;
  log: (line: string) => void;
  /** Pauses before each retry; its length is the number of retries (default 3). */
  retryDelaysMs?: number[];
  timeoutMs?: number;
}

export class WebhookSender {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly closing = new AbortController();
  private readonly label: string;

  constructor(private readonly opts: WebhookSenderOptions) {
    this.label = new URL(opts.url).pathname.split("/").filter(Boolean).pop() ?? opts.url;
  }

  get url() {
    return this.opts.url;
  }

  /** Queues the events behind earlier ones and resolves when each has been delivered or given up. */
  send(events: StripeEvent[]): Promise<Delivery[]> {
    const run = this.tail.then(async () => {
      const out: Delivery[] = [];
      for (const event of events) out.push(await this.deliver(event));
      return out;
    });
    this.tail = run.catch(() => {});
    return run;
  }

  /** Stops retrying, aborts a delivery in flight and waits for the queue to settle. */
  async close() {
    this.closing.abort();
    await this.tail;
  }

  private async deliver(event: StripeEvent): Promise<Delivery> {
    const body = JSON.stringify(event, null, 2);
    const delays = this.opts.retryDelaysMs ?? [500, 1000, 2000];
    const total = delays.length + 1;
    let status: number | null = null;
    for (let attempt = 1; attempt <= total; attempt++) {
      if (this.closing.signal.aborted) return { event, status, attempts: attempt - 1, ok: false };
      let problem: string;
      try {
        const res = await fetch(this.opts.url, {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "stripe-signature": signatureHeader(body, this.opts.secret),
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          },
          body,
          redirect: "manual",
          signal: AbortSignal.any([
            this.closing.signal,
            AbortSignal.timeout(this.opts.timeoutMs ?? 15_000),
          ]),
        });
        status = res.status;
        await res.arrayBuffer().catch(() => {});
        if (res.ok) {
          this.opts.log(`stripe: ${event.type} → ${this.label} ${status}`);
          return { event, status, attempts: attempt, ok: true };
        }
        problem = String(status);
      } catch (err) {
        status = null;
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        problem = `failed (${cause ?? (err as Error).message})`;
      }
      if (attempt === total || this.closing.signal.aborted) {
        this.opts.log(
          `stripe: ${event.type} → ${this.label} ${problem}; gave up after ${attempt} attempt${attempt > 1 ? "s" : ""}`,
        );
        return { event, status, attempts: attempt, ok: false };
      }
      const wait = delays[attempt - 1]!;
      this.opts.log(
        `stripe: ${event.type} → ${this.label} ${problem}; retry ${attempt} of ${delays.length} in ${wait / 1000} s`,
      );
      await sleep(wait, this.closing.signal);
    }
    return { event, status, attempts: total, ok: false };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
