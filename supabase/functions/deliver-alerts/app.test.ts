import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { type Channel, type Job, type SendResult } from "./channels.ts";
import { claimSize, createDeliverApp, type OutboxDb } from "./app.ts";
import { limitsFrom } from "./pacing.ts";

const KEY = "sb_secret_test_service_key_0123456789";

class FakeOutbox implements OutboxDb {
  queue: Job[] = [];
  completed: { id: number; recipient: string }[] = [];
  failed: { id: number; retryAfter?: number; permanent: boolean }[] = [];
  moved: [string, string][] = [];
  tokens = new Set(["0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11"]);
  /** What happened, in order: "begin:<ids>", "done:<ids>". */
  events: string[] = [];
  /** Jobs whose claim ended before they were sent. */
  lost = new Set<number>();
  /** The lease of each claim, in order. */
  leases: number[] = [];
  released: number[] = [];
  claim(_worker: string, max: number, lease: number, channel?: string): Promise<Job[]> {
    const mine = this.queue.filter((j) => !channel || j.channel === channel).slice(0, max);
    this.queue = this.queue.filter((j) => !mine.includes(j));
    this.leases.push(lease);
    if (mine.length) this.events.push(`claim:${mine.map((j) => j.id).join(",")}`);
    return Promise.resolve(mine);
  }
  release(_worker: string, ids: number[]): Promise<number> {
    this.released.push(...ids);
    this.events.push(`release:${ids.join(",")}`);
    return Promise.resolve(ids.length);
  }
  beginSends(_w: string, ids: number[], results: { id: number; recipient: string }[]) {
    if (results.length) {
      this.completed.push(...results);
      this.events.push(`done:${results.map((r) => r.id).join(",")}`);
    }
    this.events.push(`begin:${ids.join(",")}`);
    return Promise.resolve(ids.filter((id) => !this.lost.has(id)));
  }
  completeMany(_worker: string, results: { id: number; recipient: string }[]): Promise<number> {
    this.completed.push(...results);
    this.events.push(`done:${results.map((r) => r.id).join(",")}`);
    return Promise.resolve(results.length);
  }
  fail(id: number, _w: string, _e: string, retryAfter: number | undefined, permanent: boolean) {
    this.failed.push({ id, retryAfter, permanent });
    return Promise.resolve(permanent ? "failed" : "pending");
  }
  doubted: number[] = [];
  doubt(id: number) {
    this.doubted.push(id);
    return Promise.resolve(true);
  }
  moveTelegramChat(a: string, b: string) {
    this.moved.push([a, b]);
    return Promise.resolve();
  }
  unsubscribe(token: string) {
    return Promise.resolve(this.tokens.has(token));
  }
}

const job = (id: number, channel: Job["channel"], target: string): Job => ({
  id,
  kind: "market_alert",
  channel,
  attempts: 1,
  payload: { shape: "single", items: [], scannedAt: "2026-11-24T10:00:00Z" },
  target,
  locale: null,
});

function fixed(
  results: Record<string, SendResult>,
  log: string[],
  extra: Partial<Channel> = {},
): Channel {
  return {
    ...extra,
    send(j) {
      log.push(`${j.channel}:${j.target}`);
      return Promise.resolve(results[j.target] ?? { ok: true, recipient: j.target });
    },
  };
}

Deno.test("deliver-alerts: only the service role or SCAN_SECRET may run the worker", async () => {
  const db = new FakeOutbox();
  const app = createDeliverApp({ env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }), db: () => db });
  const noAuth = await app.fetch(new Request("http://local/deliver-alerts", { method: "POST" }));
  assertEquals(noAuth.status, 401);
  assertEquals((await noAuth.json()).error, "unauthorized");
  const get = await app.fetch(new Request("http://local/deliver-alerts"));
  assertEquals(get.status, 405);
});

Deno.test("deliver-alerts: sends, completes in one batch, retries or gives up as the channel says", async () => {
  const db = new FakeOutbox();
  db.queue = [
    job(1, "email", "a@example.com"),
    job(2, "discord", "hook-a"),
    job(3, "telegram", "-100"),
    job(4, "discord", "hook-gone"),
    job(5, "telegram", "-100"),
  ];
  const log: string[] = [];
  const results: Record<string, SendResult> = {
    "hook-gone": { ok: false, error: "Unknown Webhook", permanent: true },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: {
      email: fixed(results, log),
      discord: fixed(results, log),
      telegram: fixed(results, log),
    },
  });
  const res = await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
  assertEquals(res.status, 200);
  const report = await res.json();
  deepStrictEqual([report.claimed, report.sent, report.retried, report.failed], [5, 4, 0, 1]);
  assertEquals(report.skipped, 0);
  deepStrictEqual(db.completed.map((c) => c.id).sort(), [1, 2, 3, 5]);
  deepStrictEqual(db.failed, [{ id: 4, retryAfter: undefined, permanent: true }]);
  // Two jobs to one Telegram chat go one after the other, in claim order.
  deepStrictEqual(log.filter((l) => l.startsWith("telegram")), ["telegram:-100", "telegram:-100"]);
});

Deno.test("deliver-alerts: one-click unsubscribe is POST with a known token", async () => {
  const db = new FakeOutbox();
  const app = createDeliverApp({ env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }), db: () => db });
  const url = "http://local/deliver-alerts/unsubscribe?token=";
  assertEquals(
    (await app.fetch(new Request(`${url}0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11`, { method: "POST" })))
      .status,
    200,
  );
  assertEquals(
    (await app.fetch(new Request(`${url}0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a12`, { method: "POST" })))
      .status,
    404,
  );
  assertEquals((await app.fetch(new Request(`${url}nope`, { method: "POST" }))).status, 400);
  assertEquals(
    (await app.fetch(new Request(`${url}0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11`))).status,
    405,
  );
});

Deno.test("deliver-alerts: a message without an idempotency key is marked before its request, one call per wave", async () => {
  const db = new FakeOutbox();
  db.queue = [
    job(1, "discord", "hook-a"),
    job(2, "discord", "hook-a"),
    job(3, "discord", "hook-b"),
    job(4, "email", "a@example.com"),
    job(5, "discord", "hook-lost"),
  ];
  db.lost.add(5);
  const log: string[] = [];
  const marked = (target: string) =>
    db.events.some((e) => e.startsWith("begin:") && e.slice(6).split(",").includes(target));
  const checking: Channel = {
    send(j) {
      // The job's mark is committed before the request goes out.
      log.push(`${j.id}:${marked(String(j.id))}`);
      return Promise.resolve({ ok: true, recipient: j.target });
    },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: {
      discord: checking,
      telegram: checking,
      // Resend with its Idempotency-Key: nothing to mark.
      email: fixed({}, log, { idempotent: () => true }),
    },
  });
  const res = await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
  const report = await res.json();
  deepStrictEqual([report.claimed, report.sent, report.skipped], [5, 4, 1]);
  deepStrictEqual(log.filter((l) => /^\d/.test(l)).sort(), ["1:true", "2:true", "3:true"]);
  // hook-lost's claim had ended: it is not sent.
  ok(!log.includes("5:true") && !log.includes("5:false"));
  ok(!marked("4"), "the idempotent e-mail is not marked");
  deepStrictEqual(db.completed.map((c) => c.id).sort(), [1, 2, 3, 4]);
  // The first wave marks hook-a's first job, hook-b's and hook-lost's in one call; job 2 waits
  // for job 1 (same webhook) and its mark carries job 1's completion.
  const firstBegin = db.events.find((e) => e.startsWith("begin:"))!;
  deepStrictEqual(firstBegin.slice(6).split(",").map(Number).sort(), [1, 3, 5]);
});

Deno.test("deliver-alerts: Resend's batch call sends many e-mails in one request after marking them", async () => {
  const db = new FakeOutbox();
  db.queue = Array.from({ length: 7 }, (_, i) => job(i + 1, "email", `u${i}@example.com`));
  const batches: number[][] = [];
  const email: Channel = {
    send: () => Promise.reject(new Error("one by one is not expected")),
    batchSize: () => 3,
    sendBatch(jobs) {
      batches.push(jobs.map((j) => j.id));
      return Promise.resolve(jobs.map((j) => ({ ok: true as const, recipient: j.target })));
    },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: { email, discord: fixed({}, []), telegram: fixed({}, []) },
  });
  const report = await (await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  )).json();
  deepStrictEqual([report.claimed, report.sent], [7, 7]);
  deepStrictEqual(batches, [[1, 2, 3], [4, 5, 6], [7]]);
  // Every batch is marked before its request: the first claim (one call's worth, decision 0069)
  // in one call, the two batches claimed ahead (twice that) together in the next.
  const begins = db.events.filter((e) => e.startsWith("begin:"));
  deepStrictEqual(
    begins.map((b) => b.slice(6).split(",").map(Number).sort((x, y) => x - y)),
    [[1, 2, 3], [4, 5, 6, 7]],
  );
});

Deno.test("deliver-alerts: a marked request that got no answer in time is recorded in doubt, not retried", async () => {
  const db = new FakeOutbox();
  db.queue = [job(1, "discord", "hook-slow"), job(2, "telegram", "-7")];
  const results: Record<string, SendResult> = {
    "hook-slow": { ok: false, error: "Discord unreachable: timed out", doubt: true },
    "-7": { ok: false, error: "Telegram unreachable: connection refused", doubt: false },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: {
      email: fixed({}, []),
      discord: fixed(results, []),
      telegram: fixed(results, []),
    },
  });
  const report = await (await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  )).json();
  deepStrictEqual([report.inDoubt, report.retried], [1, 1]);
  deepStrictEqual(db.doubted, [1]);
  deepStrictEqual(db.failed.map((f) => f.id), [2]);
});

Deno.test("deliver-alerts: the next batch is claimed while the current one is sent, never more than one ahead", async () => {
  const db = new FakeOutbox();
  db.queue = Array.from({ length: 7 }, (_, i) => job(i + 1, "discord", `hook-${i + 1}`));
  const discord: Channel = {
    send(j) {
      db.events.push(`sent:${j.id}`);
      return Promise.resolve({ ok: true, recipient: j.target });
    },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    batch: 2,
    leaseSeconds: 30,
    channels: { email: fixed({}, []), discord, telegram: fixed({}, []) },
  });
  const report = await (await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  )).json();
  deepStrictEqual([report.claimed, report.sent, report.released], [7, 7, 0]);
  // Where an event of this kind with exactly these ids happened.
  const at = (e: string) => {
    const [kind, ids] = e.split(":");
    const want = ids!.split(",").sort().join(",");
    return db.events.findIndex((x) =>
      x.startsWith(`${kind}:`) && x.slice(kind!.length + 1).split(",").sort().join(",") === want
    );
  };
  for (const e of ["claim:3,4", "claim:5,6", "claim:7", "done:1,2", "done:3,4", "done:5,6"]) {
    ok(at(e) >= 0, `${e} in ${db.events.join(" ")}`);
  }
  // Batch 2 is claimed before batch 1's first message goes out, batch 3 only after batch 1 is
  // sent and recorded (one batch ahead at most), batch 4 (one job: nothing more due) after batch 3.
  ok(at("claim:3,4") < at("sent:1"), db.events.join(" "));
  ok(at("claim:5,6") > at("done:1,2") && at("claim:5,6") < at("sent:3"), db.events.join(" "));
  ok(at("claim:7") > at("done:3,4") && at("claim:7") < at("sent:5"), db.events.join(" "));
  ok(db.events.filter((e) => e.startsWith("claim:")).length === 4);
  // The batch claimed ahead holds two leases: it waits for the current batch, then is sent.
  deepStrictEqual(db.leases.filter((l) => l === 60), [60, 60, 60]);
  deepStrictEqual(db.completed.map((c) => c.id).sort(), [1, 2, 3, 4, 5, 6, 7]);
});

Deno.test("deliver-alerts: a batch claimed ahead when the budget ends is handed back unsent", async () => {
  const db = new FakeOutbox();
  db.queue = Array.from({ length: 6 }, (_, i) => job(i + 1, "discord", `hook-${i + 1}`));
  let clock = 0;
  const discord: Channel = {
    send(j) {
      db.events.push(`sent:${j.id}`);
      // Each message takes 3 s of the 5 s budget.
      clock += 3_000;
      return Promise.resolve({ ok: true, recipient: j.target });
    },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    batch: 2,
    concurrency: 1,
    budgetMs: 5_000,
    now: () => clock,
    channels: { email: fixed({}, []), discord, telegram: fixed({}, []) },
  });
  const report = await (await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  )).json();
  // Batch 1 (6 s) spent the budget: batch 2, claimed ahead, goes back to the queue unsent.
  deepStrictEqual([report.claimed, report.sent, report.released], [2, 2, 2]);
  deepStrictEqual(db.released, [3, 4]);
  ok(!db.events.includes("sent:3") && !db.events.includes("sent:4"));
  ok(!db.events.some((e) => e.startsWith("begin:") && e.includes("3")));
});

Deno.test("deliver-alerts: Resend claims whole batches, about ten seconds of the team's rate", () => {
  const batched = (n: number): Channel => ({
    send: () => Promise.reject(new Error("unused")),
    batchSize: () => n,
    sendBatch: () => Promise.reject(new Error("unused")),
  });
  const size = (rate: string, batch: number) =>
    claimSize("email", limitsFrom(envFrom({ RESEND_RATE_PER_SECOND: rate })), batched(batch));
  assertEquals(size("2", 100), 1000);
  assertEquals(size("0.5", 100), 500);
  assertEquals(size("2", 30), 600);
  // 2,100 capped at 1,000, then whole batches of 30.
  assertEquals(size("7", 30), 990);
  assertEquals(size("0.01", 100), 100);
});

Deno.test("deliver-alerts: batch calls (Resend) claim one call's worth first, the rest ahead while it is sent", async () => {
  const db = new FakeOutbox();
  db.queue = Array.from({ length: 10 }, (_, i) => job(i + 1, "email", `u${i + 1}@example.com`));
  const email: Channel = {
    send: () => Promise.reject(new Error("batch channel: send() is not used")),
    batchSize: () => 3,
    sendBatch(jobs) {
      db.events.push(`sent:${jobs.map((j) => j.id).join(",")}`);
      return Promise.resolve(jobs.map((j) => ({ ok: true as const, recipient: j.target })));
    },
  };
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: { email, discord: fixed({}, []), telegram: fixed({}, []) },
  });
  const report = await (await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  )).json();
  deepStrictEqual([report.claimed, report.sent], [10, 10]);
  const claims = db.events.filter((e) => e.startsWith("claim:"));
  // The first claim is one batch call (3 jobs), not ten seconds of the team's rate (60 jobs);
  // the next (twice that) is claimed before that first call goes out, the last after it.
  deepStrictEqual(claims, ["claim:1,2,3", "claim:4,5,6,7,8,9", "claim:10"]);
  ok(db.events.indexOf("claim:4,5,6,7,8,9") < db.events.indexOf("sent:1,2,3"), db.events.join(" "));
  ok(db.events.indexOf("claim:10") < db.events.indexOf("sent:4,5,6"), db.events.join(" "));
  deepStrictEqual(db.completed.map((c) => c.id).sort((a, b) => a - b), [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
  ]);
});

Deno.test("deliver-alerts: the slices an enqueue left are written beside the claims, and every job is sent once (decision 0074)", async () => {
  // The enqueue wrote the first slice; three more are waiting (write_alert_jobs).
  const db = new (class extends FakeOutbox {
    slices: Job[][] = [
      [job(11, "discord", "hook-c"), job(12, "email", "c@example.com")],
      [job(21, "discord", "hook-d")],
      [job(31, "telegram", "-300"), job(32, "discord", "hook-e")],
    ];
    writeJobs(maxUsers: number) {
      assertEquals(maxUsers > 0, true);
      const next = this.slices.shift() ?? [];
      // Each slice takes a while, and its jobs are claimable when it commits: the claims and
      // sends go on meanwhile.
      return new Promise<{ jobs: number; pending: number }>((resolve) =>
        setTimeout(() => {
          this.queue.push(...next);
          this.events.push(`write:${next.map((j) => j.id).join(",")}`);
          resolve({ jobs: next.length, pending: this.slices.length });
        }, 20)
      );
    }
  })();
  db.queue = [job(1, "discord", "hook-a"), job(2, "email", "a@example.com")];
  const log: string[] = [];
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: { email: fixed({}, log), discord: fixed({}, log), telegram: fixed({}, log) },
  });
  const res = await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
  const report = await res.json();
  assertEquals(report.written, 5);
  assertEquals(report.sent, 7);
  deepStrictEqual(
    db.completed.map((c) => c.id).sort((a, b) => a - b),
    [1, 2, 11, 12, 21, 31, 32],
  );
  // The first slice's jobs went out before the last slice was written.
  const lastWrite = db.events.indexOf("write:31,32");
  const firstSend = db.events.findIndex((e) =>
    e.startsWith("begin:") && e.slice(6).split(",").includes("1")
  );
  ok(firstSend >= 0 && firstSend < lastWrite, db.events.join(" "));
  // Nothing was sent twice.
  assertEquals(log.length, 7);
});

Deno.test("deliver-alerts: slices another worker holds are left to it, without asking again and again", async () => {
  const db = new (class extends FakeOutbox {
    calls = 0;
    writeJobs() {
      // Another worker holds the pending slices: nothing written, some still pending.
      this.calls++;
      return Promise.resolve({ jobs: 0, pending: 5 });
    }
  })();
  db.queue = [job(1, "discord", "hook-a")];
  const log: string[] = [];
  const app = createDeliverApp({
    env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY }),
    db: () => db,
    channels: { email: fixed({}, log), discord: fixed({}, log), telegram: fixed({}, log) },
  });
  const res = await app.fetch(
    new Request("http://local/deliver-alerts", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
  const report = await res.json();
  assertEquals(report.sent, 1);
  assertEquals(report.written, 0);
  assertEquals(db.calls, 1);
});

Deno.test("deliver-alerts: Discord's own webhooks claim 1,000 and go 256 at once, marked in one call; DELIVERY_CONCURRENCY sets every channel (decision 0082)", async () => {
  const limits = limitsFrom(envFrom({}));
  deepStrictEqual(
    (["discord", "email"] as const).map((c) => claimSize(c, limits, fixed({}, []))),
    [1000, 500],
  );
  async function run(settings: Record<string, string>) {
    const db = new FakeOutbox();
    db.queue = Array.from({ length: 700 }, (_, i) => job(i + 1, "discord", `hook-${i + 1}`));
    let inFlight = 0;
    let most = 0;
    const discord: Channel = {
      async send(j) {
        most = Math.max(most, ++inFlight);
        // An answer a few ticks later: every sender of a wave is in flight together.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        inFlight--;
        return { ok: true, recipient: j.target };
      },
    };
    const app = createDeliverApp({
      env: envFrom({ SUPABASE_SERVICE_ROLE_KEY: KEY, ...settings }),
      db: () => db,
      batch: 300,
      channels: { email: fixed({}, []), discord, telegram: fixed({}, []) },
    });
    const report = await (await app.fetch(
      new Request("http://local/deliver-alerts", {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}` },
      }),
    )).json();
    deepStrictEqual([report.claimed, report.sent], [700, 700]);
    const marks = db.events.filter((e) => e.startsWith("begin:"));
    return { most, largestMark: Math.max(...marks.map((e) => e.slice(6).split(",").length)) };
  }
  // Claims of 100, 200, 300, 100: the 300 go 256 at once, their marks in one round trip.
  deepStrictEqual(await run({}), { most: 256, largestMark: 256 });
  deepStrictEqual(await run({ DELIVERY_CONCURRENCY: "8" }), { most: 8, largestMark: 8 });
});
