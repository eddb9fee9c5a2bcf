// The venues' documented rate limits, per client IP, as the fake venues apply them.

/** Binance spot: request weight per IP per minute (fixed one-minute windows). */
export const BINANCE_WEIGHT_LIMIT = 6000;
/** Binance spot REST weights of the market-data calls the fake serves. */
export const BINANCE_ROUTE_WEIGHTS = {
  "/api/v3/ticker/price": { all: 4, one: 2 },
  "/api/v3/ticker/24hr": { all: 80, one: 2 },
  "/api/v3/exchangeInfo": { all: 20, one: 20 },
  "/api/v3/time": { all: 1, one: 1 },
  "/api/v3/ping": { all: 1, one: 1 },
} as const;
/** The first IP ban lasts 2 minutes and doubles for repeat offenders, up to 3 days. */
export const BINANCE_FIRST_BAN_MS = 120_000;
export const BINANCE_MAX_BAN_MS = 3 * 24 * 3600_000;
/** Coinbase Advanced Trade public endpoints: requests per second per IP. */
export const COINBASE_REQUESTS_PER_SECOND = 10;
/** GeckoTerminal's free public API: calls per minute. */
export const GECKOTERMINAL_CALLS_PER_MINUTE = 30;

export type Verdict =
  { status: 200; used: number } | { status: 429 | 418; retryAfterSeconds: number; used: number };

/**
 * Binance's weight budget: a request that would take the IP's weight in the current minute over
 * the limit is answered 429 with `Retry-After` (seconds to the next minute); a request while
 * that Retry-After runs (the client ignored it) bans the IP: 418 with `Retry-After` until the ban
 * ends, 2 minutes the first time and doubling each time after.
 */
export class WeightLimiter {
  #ips = new Map<
    string,
    { minute: number; used: number; backoffUntil: number; banUntil: number; bans: number }
  >();
  constructor(readonly limit = BINANCE_WEIGHT_LIMIT) {}

  /** The weight the IP has used in the minute of `now`. */
  used(ip: string, now: number): number {
    const s = this.#ips.get(ip);
    return s && s.minute === Math.floor(now / 60_000) ? s.used : 0;
  }

  charge(ip: string, weight: number, now: number): Verdict {
    const minute = Math.floor(now / 60_000);
    let s = this.#ips.get(ip);
    if (!s) {
      s = { minute, used: 0, backoffUntil: 0, banUntil: 0, bans: 0 };
      this.#ips.set(ip, s);
    }
    if (s.minute !== minute) {
      s.minute = minute;
      s.used = 0;
    }
    const seconds = (until: number) => Math.max(1, Math.ceil((until - now) / 1000));
    if (now < s.banUntil)
      return { status: 418, retryAfterSeconds: seconds(s.banUntil), used: s.used };
    if (now < s.backoffUntil) {
      const ms = Math.min(BINANCE_FIRST_BAN_MS * 2 ** s.bans, BINANCE_MAX_BAN_MS);
      s.bans++;
      s.banUntil = now + ms;
      s.backoffUntil = 0;
      return { status: 418, retryAfterSeconds: seconds(s.banUntil), used: s.used };
    }
    if (s.used + weight > this.limit) {
      s.backoffUntil = (minute + 1) * 60_000;
      return { status: 429, retryAfterSeconds: seconds(s.backoffUntil), used: s.used };
    }
    s.used += weight;
    return { status: 200, used: s.used };
  }
}

/** At most `limit` requests per IP in any `windowMs`; beyond that 429 until the oldest expires. */
export class SlidingLimiter {
  #ips = new Map<string, number[]>();
  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  charge(ip: string, now: number): Verdict {
    const times = (this.#ips.get(ip) ?? []).filter((t) => t > now - this.windowMs);
    this.#ips.set(ip, times);
    if (times.length >= this.limit) {
      const wait = times[0]! + this.windowMs - now;
      return {
        status: 429,
        retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)),
        used: times.length,
      };
    }
    times.push(now);
    return { status: 200, used: times.length };
  }
}
