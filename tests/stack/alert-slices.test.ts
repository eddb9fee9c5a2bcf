// One scan's alerts for more subscribers than one enqueue slice holds (decision 0074: 1,000
// recipients a slice), end to end on a stack of its own (PGlite, and PostgreSQL with
// STACK_DB=postgres: a fresh database of the suite's cluster): the scan is ingested and enqueued
// through the API as the scan function does it, the enqueue writes the first slice and leaves
// the rest, and two deliver-alerts invocations at once, called until nothing is left, write the
// other slices and send everything to the Discord stand-in. Every subscriber gets the alert
// exactly once; every job is written once and sent once; one alerts_sent row per subscriber.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import ws from "ws";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { freshDatabase } from "../support/postgres.ts";

/** More than one slice (1,000) and more than the worker writes in one call (2,000). */
const SUBSCRIBERS = 2_300;
const minutes = (n: number) => n * 60_000;

const tmp = mkdtempSync(path.join(tmpdir(), "alert-slices-"));
let stack: Stack | null = null;

beforeAll(async () => {
  const dir = path.join(tmp, "stack");
  mkdirSync(dir, { recursive: true });
  stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: await freshDatabase(inject("stack").postgresUrl, "alert_slices"),
    apiPort: await freePort(),
    dataDir: path.join(dir, "data"),
    envFile: path.join(dir, ".env.local"),
    cron: false,
    quiet: true,
    alerts: {
      smtpPort: await freePort(),
      mailUiPort: await freePort(),
      chatPort: await freePort(),
      cron: false,
    },
  });
  const db = stack.db;
  // The demo accounts stay out of it.
  await db.query(
    `update public.profiles set subscription_active = false where email like '%@demo.local'`,
  );
  await db.query(
    `insert into auth.users (id, email)
     select gen_random_uuid(), 'slice-' || lpad(g::text, 5, '0') || '@slices.test'
     from generate_series(1, $1::int) g`,
    [SUBSCRIBERS],
  );
  // Enterprise, Discord only (each their own webhook), 5 % on 30 minutes, pumps and dumps.
  await db.query(
    `update public.profiles p set plan = 'enterprise', subscription_active = true,
       email_alert = null, telegram_chat_id = null,
       discord_webhook_url = 'https://discord.com/api/webhooks/' || (70000000 + s.n) || '/slices',
       selected_window_minutes = 30, user_threshold = 5, alert_directions = 'both'
     from (select id, row_number() over (order by email) as n from public.profiles
           where email like 'slice-%@slices.test') s
     where p.id = s.id`,
  );
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, 60_000);

async function deliver(): Promise<{ claimed: number; written: number; skipped: number }> {
  const res = await fetch(`${stack!.url}/functions/v1/deliver-alerts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${stack!.secrets.secretKey}`,
      "content-type": "application/json",
    },
    body: "{}",
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { claimed: number; written: number; skipped: number };
}

describe("a scan's alerts in several enqueue slices", () => {
  it("writes every slice once and sends every subscriber's alert exactly once", async () => {
    const s = stack!;
    const service = createClient(s.url, s.secrets.secretKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as never },
    });
    const symbol = `SLICE${Date.now().toString(36).toUpperCase()}/USDT`;
    const t = Date.now() - minutes(5);
    const ingest = async (price: number, at: Date) => {
      const { error } = await service.rpc("ingest_scan", {
        quotes: [
          {
            venueKey: `Binance:${symbol}`,
            symbol,
            exchange: "Binance",
            exchangeType: "cex",
            source: "simulated",
            price,
            volume24h: 1_000_000,
            ts: at.toISOString(),
          },
        ],
        scanned_at: at.toISOString(),
      });
      expect(error).toBeNull();
    };
    await ingest(1, new Date(t - minutes(30)));
    await ingest(1.2, new Date(t));
    const { data, error } = await service.rpc("enqueue_alerts", {
      scanned_at: new Date(t).toISOString(),
    });
    expect(error).toBeNull();
    const enqueued = data as { jobs: number; pending?: number };
    // The enqueue wrote the first slice and left the others for the workers.
    expect(enqueued.jobs).toBe(1_000);
    expect(enqueued.pending).toBe(SUBSCRIBERS - 1_000);

    // Two workers at once, as the scan's call and the schedule overlap, until nothing is left.
    let written = 0;
    for (let round = 0; round < 30; round++) {
      const reports = await Promise.all([deliver(), deliver()]);
      written += reports.reduce((n, r) => n + r.written, 0);
      if (reports.every((r) => r.claimed === 0 && r.written === 0)) break;
    }
    expect(written).toBe(SUBSCRIBERS - 1_000);

    const [fanout] = await s.db.query<{ n: number | string }>(
      `select count(*) as n from private.alert_fanout`,
    );
    expect(Number(fanout!.n)).toBe(0);
    const jobs = await s.db.query<{ status: string; n: number | string; users: number | string }>(
      `select status, count(*) as n, count(distinct user_id) as users from private.outbox
       where kind = 'market_alert' group by status`,
    );
    expect(jobs.map((r) => [r.status, Number(r.n), Number(r.users)])).toEqual([
      ["sent", SUBSCRIBERS, SUBSCRIBERS],
    ]);
    const [recorded] = await s.db.query<{ n: number | string; users: number | string }>(
      `select count(*) as n, count(distinct user_id) as users from public.alerts_sent
       where channel = 'discord' and symbol = $1`,
      [symbol],
    );
    expect([Number(recorded!.n), Number(recorded!.users)]).toEqual([SUBSCRIBERS, SUBSCRIBERS]);

    // What arrived: one message per subscriber's webhook, none twice, none refused.
    const arrived = (await s.alerts!.chat.requests("discord")).filter((r) => r.status === 200);
    const perWebhook = new Map<string, number>();
    for (const r of arrived) perWebhook.set(r.target, (perWebhook.get(r.target) ?? 0) + 1);
    expect(arrived).toHaveLength(SUBSCRIBERS);
    expect(perWebhook.size).toBe(SUBSCRIBERS);
    expect([...perWebhook.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
