import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { type Channel, type Job, type SendResult } from "./channels.ts";
import { createDeliverApp, type OutboxDb } from "./app.ts";

const KEY = "sb_secret_test_service_key_0123456789";

class FakeOutbox implements OutboxDb {
  queue: Job[] = [];
  completed: { id: number; recipient: string }[] = [];
  failed: { id: number; retryAfter?: number; permanent: boolean }[] = [];
  moved: [string, string][] = [];
  tokens = new Set(["0b7c5d52-5a43-4a4c-9a0e-2f7f3b0e9a11"]);
  claim(_worker: string, max: number): Promise<Job[]> {
    return Promise.resolve(this.queue.splice(0, max));
  }
  completeMany(_worker: string, results: { id: number; recipient: string }[]): Promise<number> {
    this.completed.push(...results);
    return Promise.resolve(results.length);
  }
  fail(id: number, _w: string, _e: string, retryAfter: number | undefined, permanent: boolean) {
    this.failed.push({ id, retryAfter, permanent });
    return Promise.resolve(permanent ? "failed" : "pending");
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

function fixed(results: Record<string, SendResult>, log: string[]): Channel {
  return {
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
