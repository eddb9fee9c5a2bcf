// The token buckets of the shared delivery limits (one Telegram bot, one Resend team) live in the
// database so that every worker together keeps the ceiling (issue 24, decision 0049), on PGlite
// and on PostgreSQL (STACK_DB=postgres).
import { describe, expect, it } from "vitest";
import { serviceClient, signedInUser } from "../support/clients.ts";

const run = Date.now().toString(36);

async function take(name: string, rate: number, burst: number, wanted: number) {
  const { data, error } = await serviceClient().rpc("take_delivery_tokens", {
    name,
    rate,
    burst,
    wanted,
  });
  if (error) throw new Error(`${error.code}: ${error.message}`);
  const row = (Array.isArray(data) ? data[0] : data) as { granted: number; wait_ms: number };
  return { granted: Number(row.granted), waitMs: Number(row.wait_ms) };
}

describe("shared delivery buckets", () => {
  it("grants at most the burst at once, then says how long until the next token", async () => {
    const name = `test:${run}:burst`;
    expect(await take(name, 0.5, 3, 5)).toEqual({ granted: 3, waitMs: 0 });
    const next = await take(name, 0.5, 3, 1);
    expect(next.granted).toBe(0);
    // One token at 0.5 per second: at most 2 s away, and not already there.
    expect(next.waitMs).toBeGreaterThan(0);
    expect(next.waitMs).toBeLessThanOrEqual(2000);
  });

  it("two workers asking at the same time together get no more than the bucket holds", async () => {
    const name = `test:${run}:race`;
    // A token per 100 s: nothing refills while the calls run; the burst of 4 is all there is.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => take(name, 0.01, 4, i % 2 === 0 ? 1 : 2)),
    );
    expect(answers.reduce((sum, a) => sum + a.granted, 0)).toBe(4);
    for (const a of answers.filter((x) => x.granted === 0)) {
      expect(a.waitMs).toBeGreaterThan(0);
    }
  });

  it("refills at its rate", async () => {
    const name = `test:${run}:refill`;
    expect((await take(name, 20, 2, 2)).granted).toBe(2);
    await new Promise((r) => setTimeout(r, 200));
    // 20 per second for 0.2 s refills the burst of 2 (and no more).
    expect((await take(name, 20, 2, 5)).granted).toBe(2);
  });

  it("a 429 pauses the bucket for every worker", async () => {
    const name = `test:${run}:pause`;
    expect((await take(name, 10, 5, 1)).granted).toBe(1);
    const { error } = await serviceClient().rpc("pause_delivery_bucket", {
      name,
      rate: 10,
      seconds: 5,
    });
    expect(error).toBeNull();
    const after = await take(name, 10, 5, 1);
    expect(after.granted).toBe(0);
    // 5 s of the rate are owed before one token is there again.
    expect(after.waitMs).toBeGreaterThan(4000);
    expect(after.waitMs).toBeLessThanOrEqual(5200);
  });

  it("refuses bad input with 22023 and everyone but the service role", async () => {
    const bad = await serviceClient().rpc("take_delivery_tokens", {
      name: "Not A Name",
      rate: 1,
      burst: 1,
      wanted: 1,
    });
    expect(bad.error?.code).toBe("22023");
    const zero = await serviceClient().rpc("take_delivery_tokens", {
      name: `test:${run}:zero`,
      rate: 0,
      burst: 1,
      wanted: 1,
    });
    expect(zero.error?.code).toBe("22023");
    const { client } = await signedInUser();
    const user = await client.rpc("take_delivery_tokens", {
      name: `test:${run}:user`,
      rate: 1000,
      burst: 1000,
      wanted: 1000,
    });
    expect(user.data).toBeNull();
    expect(user.error?.code).toBe("42501");
    const pause = await client.rpc("pause_delivery_bucket", {
      name: `telegram:1`,
      rate: 1,
      seconds: 3600,
    });
    expect(pause.error?.code).toBe("42501");
  });

  async function reserve(
    name: string,
    rate: number,
    burst: number,
    wanted: number,
    horizonMs: number,
  ) {
    const { data, error } = await serviceClient().rpc("reserve_delivery_slots", {
      name,
      rate,
      burst,
      wanted,
      horizon_ms: horizonMs,
    });
    if (error) throw new Error(`${error.code}: ${error.message}`);
    const row = (Array.isArray(data) ? data[0] : data) as { waits_ms: number[]; next_ms: number };
    return { waits: row.waits_ms.map(Number), next: Number(row.next_ms) };
  }

  it("reserves send times at the rate within the horizon, and every worker queues behind them", async () => {
    const name = `test:${run}:slots`;
    // 2 per second, burst 1, 1.2 s ahead: now, +0.5 s, +1 s; the fourth would be at +1.5 s.
    const first = await reserve(name, 2, 1, 10, 1200);
    expect(first.waits).toHaveLength(3);
    expect(first.waits[0]).toBe(0);
    for (let i = 1; i < 3; i++) {
      // Half a second apart (a few ms less when the call itself took some).
      expect(first.waits[i]! - first.waits[i - 1]!).toBeGreaterThanOrEqual(490);
      expect(first.waits[i]! - first.waits[i - 1]!).toBeLessThanOrEqual(510);
    }
    expect(first.next).toBeGreaterThan(1200);
    // Another worker: nothing within its horizon now, its slot comes after the three.
    const second = await reserve(name, 2, 1, 5, 1200);
    expect(second.waits).toEqual([]);
    // Tokens taken one by one wait behind the reserved slots too.
    const taken = await take(name, 2, 1, 1);
    expect(taken.granted).toBe(0);
    expect(taken.waitMs).toBeGreaterThan(1000);
  });

  it("reserve_delivery_slots and release_outbox refuse bad input with 22023 and everyone but the service role", async () => {
    const service = serviceClient();
    const badHorizon = await service.rpc("reserve_delivery_slots", {
      name: `test:${run}:h`,
      rate: 2,
      burst: 1,
      wanted: 1,
      horizon_ms: 600000,
    });
    expect(badHorizon.error?.code).toBe("22023");
    const badWorker = await service.rpc("release_outbox", { worker: "", job_ids: [1] });
    expect(badWorker.error?.code).toBe("22023");
    // Nothing of another worker's is handed back.
    const none = await service.rpc("release_outbox", { worker: `nobody-${run}`, job_ids: [1, 2] });
    expect(none.error).toBeNull();
    expect(none.data).toBe(0);
    const { client } = await signedInUser();
    const user = await client.rpc("reserve_delivery_slots", {
      name: `test:${run}:user`,
      rate: 1000,
      burst: 1000,
      wanted: 1000,
      horizon_ms: 1000,
    });
    expect(user.error?.code).toBe("42501");
    const release = await client.rpc("release_outbox", { worker: "w", job_ids: [1] });
    expect(release.error?.code).toBe("42501");
  });
});
