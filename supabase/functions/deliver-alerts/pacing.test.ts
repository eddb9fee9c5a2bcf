import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import {
  type Clock,
  limitsFrom,
  type SharedBuckets,
  SharedTokenBucket,
  TokenBucket,
} from "./pacing.ts";

function fakeClock(): Clock & { t: number } {
  const c = {
    t: 0,
    now: () => c.t,
    sleep: (ms: number) => {
      c.t += ms;
      return Promise.resolve();
    },
  };
  return c;
}

Deno.test("TokenBucket: a burst goes at once, the rest at the sustained rate", async () => {
  const clock = fakeClock();
  const bucket = new TokenBucket(30, 10, clock);
  const at: number[] = [];
  for (let i = 0; i < 100; i++) {
    await bucket.take();
    at.push(clock.t);
  }
  deepStrictEqual(at.slice(0, 10), Array(10).fill(0));
  // 90 more at 30 per second: 3 s, never faster.
  ok(clock.t >= 3000 && clock.t <= 3040, `took ${clock.t} ms`);
  for (let i = 10; i < 100; i++) {
    const inSecond = at.filter((t) => t > at[i]! - 1000 && t <= at[i]!).length;
    ok(inSecond <= 10 + 30, `at most burst + rate in any second (${inSecond})`);
  }
});

Deno.test("TokenBucket: waiting callers are served in order; pause holds everything back", async () => {
  const clock = fakeClock();
  const bucket = new TokenBucket(2, 1, clock);
  const order: number[] = [];
  await Promise.all([1, 2, 3].map((n) => bucket.take().then(() => order.push(n))));
  deepStrictEqual(order, [1, 2, 3]);
  assertEquals(clock.t, 1000);
  bucket.pause(5);
  await bucket.take();
  ok(clock.t >= 6000, `paused until ${clock.t}`);
});

Deno.test("limits: documented defaults, and the settings for the higher sold rates", () => {
  const base = limitsFrom(envFrom({}));
  deepStrictEqual(
    [
      base.telegramPerSecond,
      base.telegramPaidBroadcast,
      base.resendPerSecond,
      base.resendBatchSize,
    ],
    [30, false, 2, 100],
  );
  const paid = limitsFrom(
    envFrom({
      TELEGRAM_PAID_BROADCAST: "true",
      RESEND_RATE_PER_SECOND: "10",
      RESEND_BATCH_SIZE: "500",
    }),
  );
  deepStrictEqual([
    paid.telegramPerSecond,
    paid.telegramPaidBroadcast,
    paid.resendPerSecond,
    paid.resendBatchSize,
  ], [
    1000,
    true,
    10,
    100,
  ]);
  assertEquals(limitsFrom(envFrom({ TELEGRAM_RATE_PER_SECOND: "nope" })).telegramPerSecond, 30);
});

/** The database's take_delivery_tokens / pause_delivery_bucket, on a fake clock. */
function fakeShared(clock: Clock): SharedBuckets & { calls: number } {
  const rows = new Map<string, { tokens: number; at: number }>();
  const shared = {
    calls: 0,
    take(name: string, rate: number, burst: number, wanted: number) {
      shared.calls++;
      const row = rows.get(name) ?? { tokens: burst, at: clock.now() };
      const level = Math.min(burst, row.tokens + ((clock.now() - row.at) / 1000) * rate);
      const granted = Math.max(0, Math.min(wanted, Math.floor(level)));
      rows.set(name, { tokens: level - granted, at: clock.now() });
      return Promise.resolve({
        granted,
        waitMs: granted > 0 ? 0 : Math.ceil(((1 - level) / rate) * 1000),
      });
    },
    pause(name: string, rate: number, seconds: number) {
      const row = rows.get(name) ?? { tokens: 0, at: clock.now() };
      const level = row.tokens + ((clock.now() - row.at) / 1000) * rate;
      rows.set(name, { tokens: Math.min(level, 0) - seconds * rate, at: clock.now() });
      return Promise.resolve();
    },
  };
  return shared;
}

Deno.test("SharedTokenBucket: two workers on one shared limit together keep its rate", async () => {
  const clock = fakeClock();
  const shared = fakeShared(clock);
  const a = new SharedTokenBucket("telegram:1", 30, 10, shared, clock);
  const b = new SharedTokenBucket("telegram:1", 30, 10, shared, clock);
  const at: number[] = [];
  await Promise.all(
    Array.from({ length: 120 }, (_, i) => (i % 2 ? a : b).take().then(() => at.push(clock.t))),
  );
  // 120 messages, a burst of 10, then 30 per second: 110 / 30 s at least, for both together.
  ok(clock.t >= 3600, `took ${clock.t} ms`);
  at.sort((x, y) => x - y);
  for (const t of at) {
    const inSecond = at.filter((u) => u > t - 1000 && u <= t).length;
    ok(inSecond <= 10 + 30, `at most burst + rate in any second (${inSecond})`);
  }
});

Deno.test("SharedTokenBucket: senders waiting at once are served by one call", async () => {
  const clock = fakeClock();
  const shared = fakeShared(clock);
  const bucket = new SharedTokenBucket("telegram:2", 30, 10, shared, clock);
  await Promise.all(Array.from({ length: 10 }, () => bucket.take()));
  assertEquals(shared.calls, 1);
  assertEquals(clock.t, 0);
});

Deno.test("SharedTokenBucket: serves its callers in order; a pause holds every worker back", async () => {
  const clock = fakeClock();
  const shared = fakeShared(clock);
  const a = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  const b = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  const order: number[] = [];
  await Promise.all([1, 2, 3].map((n) => a.take().then(() => order.push(n))));
  deepStrictEqual(order, [1, 2, 3]);
  assertEquals(clock.t, 1000);
  a.pause(5);
  await b.take();
  // The other worker waits out the pause too (5 s owed, then one token at 2 per second).
  ok(clock.t >= 6000, `b went at ${clock.t} ms`);
});

Deno.test("SharedTokenBucket: when the database fails, the worker paces alone and says so", async () => {
  const clock = fakeClock();
  const errors: unknown[] = [];
  const broken: SharedBuckets = {
    take: () => Promise.reject(new Error("take_delivery_tokens failed: connection refused")),
    pause: () => Promise.reject(new Error("pause failed")),
  };
  const bucket = new SharedTokenBucket("telegram:1", 2, 1, broken, clock, (e) => errors.push(e));
  for (let i = 0; i < 3; i++) await bucket.take();
  // Its own bucket: one at once, then 2 per second.
  assertEquals(clock.t, 1000);
  assertEquals(errors.length, 3);
});

/** A clock whose sleeps wake in time order, each when everything else is idle. */
function virtualClock() {
  const timers: { at: number; seq: number; wake: () => void }[] = [];
  let seq = 0;
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: (ms: number) =>
      new Promise<void>((wake) => timers.push({ at: clock.t + Math.max(0, ms), seq: seq++, wake })),
    async run<T>(work: Promise<T>): Promise<T> {
      let done = false;
      work.finally(() => (done = true)).catch(() => {});
      for (let i = 0; !done && i < 100_000; i++) {
        await new Promise((r) => setTimeout(r, 0));
        if (done) break;
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers.shift();
        if (!next) continue;
        clock.t = Math.max(clock.t, next.at);
        next.wake();
      }
      return await work;
    },
  };
  return clock;
}

/** fakeShared with reserve_delivery_slots's rule (the same row, below zero by the slots). */
function fakeSlots(clock: Clock) {
  const rows = new Map<string, { tokens: number; at: number }>();
  const shared = {
    calls: 0,
    take: () => Promise.reject(new Error("the slot path does not take")),
    pause(name: string, rate: number, seconds: number) {
      const row = rows.get(name) ?? { tokens: 0, at: clock.now() };
      const level = row.tokens + ((clock.now() - row.at) / 1000) * rate;
      rows.set(name, { tokens: Math.min(level, 0) - seconds * rate, at: clock.now() });
      return Promise.resolve();
    },
    reserve(name: string, rate: number, burst: number, wanted: number, horizonMs: number) {
      shared.calls++;
      const row = rows.get(name) ?? { tokens: burst, at: clock.now() };
      const level = Math.min(burst, row.tokens + ((clock.now() - row.at) / 1000) * rate);
      const waitsMs: number[] = [];
      let w = 0;
      for (let n = 0;; n++) {
        w = Math.max(0, Math.ceil(((n + 1 - level) / rate) * 1000));
        if (n >= wanted || w > horizonMs) break;
        waitsMs.push(w);
      }
      rows.set(name, { tokens: level - waitsMs.length, at: clock.now() });
      return Promise.resolve({ waitsMs, nextMs: w });
    },
  };
  return shared;
}

Deno.test("SharedTokenBucket: reserved send times keep the rate across workers, in order", async () => {
  const clock = virtualClock();
  const shared = fakeSlots(clock);
  // One Resend team: 2 requests per second, burst 1; two workers with ten batch calls each.
  const a = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  const b = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  const at: number[] = [];
  const order: number[] = [];
  await clock.run(
    Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).take().then(() => {
          at.push(clock.t);
          order.push(i);
        })),
    ),
  );
  // 20 requests at 2 per second, the first at once: the last at 9.5 s, none earlier.
  at.sort((x, y) => x - y);
  assertEquals(at[0], 0);
  assertEquals(at.at(-1), 9500);
  for (let i = 1; i < at.length; i++) ok(at[i]! - at[i - 1]! >= 500, `spacing at ${at[i]}`);
  // Each worker's senders go in the order they asked.
  deepStrictEqual(order.filter((i) => i % 2), [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
  deepStrictEqual(order.filter((i) => i % 2 === 0), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
});

Deno.test("SharedTokenBucket: with reserved send times the database's round trip does not add to the spacing", async () => {
  // The database answers after 75 ms and its answer takes 75 ms back.
  const slow =
    <T extends unknown[], R>(clock: Clock, f: (...a: T) => Promise<R>) =>
    async (...a: T): Promise<R> => {
      await clock.sleep(75);
      const r = await f(...a);
      await clock.sleep(75);
      return r;
    };
  const last = async (reserving: boolean) => {
    const clock = virtualClock();
    const base = reserving ? fakeSlots(clock) : fakeShared(clock);
    const shared: SharedBuckets = {
      take: slow(clock, base.take.bind(base)),
      pause: base.pause.bind(base),
      ...(reserving
        ? { reserve: slow(clock, (base as ReturnType<typeof fakeSlots>).reserve) }
        : {}),
    };
    const bucket = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
    const at: number[] = [];
    await clock.run(
      Promise.all(Array.from({ length: 10 }, () => bucket.take().then(() => at.push(clock.t)))),
    );
    return Math.max(...at);
  };
  // Ten batch calls at 2 per second: 4.5 s after the first; the first answer takes 150 ms.
  const reserved = await last(true);
  ok(reserved >= 4500 && reserved <= 4500 + 150, `reserved: last at ${reserved} ms`);
  // Tokens taken as they come pay a round trip per request beyond the burst.
  const taken = await last(false);
  ok(taken >= 4500 + 9 * 150, `taken: last at ${taken} ms`);
});

Deno.test("SharedTokenBucket: a pause pushes reserved send times of every worker back", async () => {
  const clock = virtualClock();
  const shared = fakeSlots(clock);
  const a = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  const b = new SharedTokenBucket("resend:team", 2, 1, shared, clock);
  await clock.run(a.take());
  a.pause(5);
  await clock.run(b.take());
  // 5 s owed after the first request, then one token at 2 per second.
  ok(clock.t >= 5500, `b went at ${clock.t} ms`);
});
