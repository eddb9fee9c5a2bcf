import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { type Clock, limitsFrom, TokenBucket } from "./pacing.ts";

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
