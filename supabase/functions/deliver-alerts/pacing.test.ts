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
