// Pacing by the services' documented limits (decision 0031): a token bucket per shared limit,
// so the workers never learn a limit from a 429. `take()` resolves when a request may go out;
// callers waiting on one bucket are served in the order they asked.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((r) => setTimeout(r, ms)),
};

export class TokenBucket {
  private tokens: number;
  private last: number;
  private queue: Promise<void> = Promise.resolve();

  /**
   * @param ratePerSecond tokens added per second (the sustained rate)
   * @param burst the bucket's size (requests that may go out at once)
   */
  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1)) {
      throw new Error(`a token bucket needs a positive rate and a burst of at least 1`);
    }
    this.tokens = burst;
    this.last = clock.now();
  }

  private refill(): void {
    const t = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
  }

  /** Milliseconds until `n` tokens are there (0 when they are). */
  private waitFor(n: number): number {
    this.refill();
    return this.tokens >= n ? 0 : Math.ceil(((n - this.tokens) / this.ratePerSecond) * 1000);
  }

  /** Waits for `n` tokens (at most the burst) and takes them. */
  take(n = 1): Promise<void> {
    const need = Math.min(n, this.burst);
    const turn = this.queue.then(async () => {
      for (let wait = this.waitFor(need); wait > 0; wait = this.waitFor(need)) {
        await this.clock.sleep(wait);
      }
      this.tokens -= need;
    });
    this.queue = turn.catch(() => {});
    return turn;
  }

  /** Nothing may go out for `seconds` (the service said so: 429 retry_after). */
  pause(seconds: number): void {
    this.refill();
    this.tokens = Math.min(this.tokens, 0) - seconds * this.ratePerSecond;
  }
}

/** Buckets by key (per chat, per webhook), created on first use and dropped when full again. */
export class BucketMap {
  private readonly buckets = new Map<string, TokenBucket>();
  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
    private readonly clock: Clock = realClock,
  ) {}

  get(key: string): TokenBucket {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 50_000) this.buckets.clear();
      b = new TokenBucket(this.ratePerSecond, this.burst, this.clock);
      this.buckets.set(key, b);
    }
    return b;
  }
}

/** A positive number from the environment, else the default. */
export function rateSetting(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim());
  return value !== undefined && value.trim() !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
}

/**
 * The limits the workers pace themselves by (the README's env table):
 *   TELEGRAM_PAID_BROADCAST=true  Telegram's paid broadcasts (allow_paid_broadcast, up to 1000/s)
 *   TELEGRAM_RATE_PER_SECOND      the bot's overall rate (default 30, or 1000 with paid broadcasts)
 *   RESEND_RATE_PER_SECOND        the Resend team's request rate (default 2; raised on request)
 *   RESEND_BATCH_SIZE             e-mails per POST /emails/batch (1-100, default 100; 1 = no batch)
 */
export interface Limits {
  telegramPerSecond: number;
  telegramPaidBroadcast: boolean;
  /** One chat: 1 message per second; one group: 20 per minute. */
  telegramChatPerSecond: number;
  telegramGroupPerMinute: number;
  resendPerSecond: number;
  resendBatchSize: number;
}

export function limitsFrom(env: (name: string) => string | undefined): Limits {
  const paid = /^(1|true|yes|on)$/i.test(env("TELEGRAM_PAID_BROADCAST")?.trim() ?? "");
  return {
    telegramPaidBroadcast: paid,
    telegramPerSecond: rateSetting(env("TELEGRAM_RATE_PER_SECOND"), paid ? 1000 : 30),
    telegramChatPerSecond: 1,
    telegramGroupPerMinute: 20,
    resendPerSecond: rateSetting(env("RESEND_RATE_PER_SECOND"), 2),
    resendBatchSize: Math.min(
      100,
      Math.max(1, Math.floor(rateSetting(env("RESEND_BATCH_SIZE"), 100))),
    ),
  };
}

/** The database side of a bucket shared by every worker (`take_delivery_tokens`). */
export interface SharedBuckets {
  take(
    name: string,
    rate: number,
    burst: number,
    wanted: number,
  ): Promise<{ granted: number; waitMs: number }>;
  pause(name: string, rate: number, seconds: number): Promise<void>;
  /**
   * Reserves up to `wanted` send times at most `horizonMs` ahead (`reserve_delivery_slots`):
   * the waits in milliseconds from now, ascending, and the wait of the next slot not reserved.
   * Absent: the worker takes tokens as they come (`take`).
   */
  reserve?(
    name: string,
    rate: number,
    burst: number,
    wanted: number,
    horizonMs: number,
  ): Promise<{ waitsMs: number[]; nextMs: number }>;
}

/**
 * How far ahead a worker reserves send times on a shared limit: a worker that dies wastes at
 * most this much of the limit; a reservation call is made about every half of it.
 */
export const SLOT_HORIZON_MS = 1000;

/** What a sender waits on: a bucket in this worker, or one shared by all workers. */
export interface Pacer {
  take(): Promise<void>;
  pause(seconds: number): void;
}

/**
 * A token bucket kept in the database (decision 0049), so that all workers together hold a
 * shared limit (one Telegram bot, one Resend team). Senders that wait at the same time are
 * served by one call that asks for as many tokens as there are of them (at most the burst),
 * in the order they asked; a granted token is used at once, never hoarded. When the database
 * cannot be reached the worker falls back to its own bucket for that call (a 429 then still
 * pauses the service's side): a delay at worst, never a double send.
 */
export class SharedTokenBucket implements Pacer {
  private waiting: { resolve: () => void }[] = [];
  private pumping = false;
  /** The reserved senders' waits, one after the other; the last slot's time. */
  private chain: Promise<void> = Promise.resolve();
  private lastDue = 0;
  private readonly local: TokenBucket;

  constructor(
    readonly name: string,
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly shared: SharedBuckets,
    private readonly clock: Clock = realClock,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.local = new TokenBucket(ratePerSecond, burst, clock);
  }

  take(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push({ resolve });
      if (!this.pumping) {
        this.pumping = true;
        void this.pump();
      }
    });
  }

  private async pump(): Promise<void> {
    // Senders that ask in the same turn (a new claim) are asked for in one call.
    await Promise.resolve();
    while (this.waiting.length > 0) {
      if (this.shared.reserve) await this.reserveSlots(this.shared.reserve.bind(this.shared));
      else await this.takeTokens();
    }
    // In the same turn as the last look at the queue (no await in between): a caller that
    // arrives later starts a new pump.
    this.pumping = false;
  }

  /** Tokens that are there now, one call for all who wait; none: wait and ask again. */
  private async takeTokens(): Promise<void> {
    const wanted = Math.min(this.waiting.length, this.burst);
    let granted: number;
    let waitMs: number;
    try {
      ({ granted, waitMs } = await this.shared.take(
        this.name,
        this.ratePerSecond,
        this.burst,
        wanted,
      ));
    } catch (err) {
      this.onError(err);
      await this.local.take();
      granted = 1;
      waitMs = 0;
    }
    for (const w of this.waiting.splice(0, Math.min(granted, this.waiting.length))) w.resolve();
    if (granted === 0) await this.clock.sleep(Math.max(1, waitMs));
  }

  /**
   * Send times reserved ahead (decision 0066): each waiting sender gets its slot and goes at
   * its time, in the order they asked; the next call is made while the reserved slots still
   * run, so the database's round trip never stands between two requests.
   */
  private async reserveSlots(
    reserve: NonNullable<SharedBuckets["reserve"]>,
  ): Promise<void> {
    const wanted = Math.min(this.waiting.length, 10_000);
    let waitsMs: number[];
    let nextMs: number;
    try {
      ({ waitsMs, nextMs } = await reserve(
        this.name,
        this.ratePerSecond,
        this.burst,
        wanted,
        SLOT_HORIZON_MS,
      ));
    } catch (err) {
      this.onError(err);
      await this.local.take();
      this.waiting.shift()?.resolve();
      return;
    }
    const start = this.clock.now();
    const served = this.waiting.splice(0, Math.min(waitsMs.length, this.waiting.length));
    // One chain of waits for every reservation, so the senders go in order, each at its time or
    // later, and never closer to the one before than their slots are (a late timer delays the
    // ones after it instead of bunching them).
    let at = 0;
    for (const [i, w] of served.entries()) {
      const due = start + waitsMs[i]!;
      const step = Math.max(0, due - Math.max(this.lastDue, start));
      this.lastDue = Math.max(this.lastDue, due);
      at = waitsMs[i]!;
      this.chain = this.chain.then(() => (step > 0 ? this.clock.sleep(step) : undefined)).then(
        () => w.resolve(),
      );
    }
    if (this.waiting.length === 0) return;
    if (served.length === 0) {
      // Nothing within the horizon (a pause): ask again when the next slot comes within it.
      await this.clock.sleep(Math.max(1, nextMs - SLOT_HORIZON_MS));
      return;
    }
    // More are waiting: ask again when half the horizon of reserved slots is left.
    const asked = at - SLOT_HORIZON_MS / 2 - (this.clock.now() - start);
    if (asked > 0) await this.clock.sleep(asked);
  }

  pause(seconds: number): void {
    this.local.pause(seconds);
    this.shared.pause(this.name, this.ratePerSecond, seconds).catch((err) => this.onError(err));
  }
}
