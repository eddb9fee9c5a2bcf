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
