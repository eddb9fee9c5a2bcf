// Alert enqueueing on the local stack (decisions 0020 and 0029): enterprise subscribers with
// e-mail, Discord and Telegram alerts on, and scans in which 20 or 200 instruments cross every
// threshold, at 1,000, 10,000 and 100,000 subscribers (BENCH_ALERT_SIZES, BENCH_ALERT_SYMBOLS).
// Measured per case: `public.enqueue_alerts` (the scan does not wait for it), when the first
// job is ready to be claimed, counted from the start of the scan's ingest (ingest + enqueue: the
// enqueue commits the rules' outcome and the first slice of jobs), and when the last job is
// written (the next slices, `write_alert_jobs`, one after the other as a worker writes them). One line per case, then how each figure grows
// from 1,000 to 10,000 to 100,000 subscribers. Delivery (hand-off) is measured by
// alerts-delivery.ts.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";

const SIZES = (process.env.BENCH_ALERT_SIZES ?? "1000,10000,100000").split(",").map(Number);
const SYMBOLS = (process.env.BENCH_ALERT_SYMBOLS ?? "20,200").split(",").map(Number);
/** Stops growing the subscribers when one enqueue takes longer than this (says so). */
const CASE_LIMIT_MS = Number(process.env.BENCH_ALERT_CASE_LIMIT_MS ?? 120_000);

interface Case {
  users: number;
  symbols: number;
  enqueueMs: number;
  firstJobMs: number;
  allJobsMs: number;
  jobs: number;
}

/**
 * This process's enqueue figures, by backend label and `<subscribers>x<symbols>`: the delivery
 * bench prints them beside its own-webhook case of the same size, whose jobs it writes in one
 * insert before its clock starts, where production writes them in slices (decision 0097).
 */
export const enqueueFigures = new Map<
  string,
  { firstJobMs: number; allJobsMs: number; jobs: number }
>();

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2);
}

/**
 * Prints one line per case as soon as it is measured (a long run shows what it has), and returns
 * the growth lines.
 */
export async function benchAlerts(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-alerts-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    cron: false,
    quiet: true,
  });
  const lines: string[] = [];
  const say = (line: string) => console.log(line);
  const cases: Case[] = [];
  try {
    const db = stack.db;
    // The demo accounts stay out of the count.
    await db.query(
      `update public.profiles set subscription_active = false where email like '%@demo.local'`,
    );
    let users = 0;
    let round = 0;
    let stopped = false;
    for (const size of [...SIZES].sort((a, b) => a - b)) {
      if (stopped) {
        say(
          `alerts ${label}: ${size} subscribers: not measured (a smaller case ran over ${seconds(CASE_LIMIT_MS)} s)`,
        );
        continue;
      }
      // Subscribers: one account each, with its own address, webhook and chat; in batches of
      // 10,000 (PGlite collects a statement's messages in one array).
      for (let from = users + 1; from <= size; from += 10_000) {
        await db.query(
          `insert into auth.users (id, email)
           select gen_random_uuid(), 'bench-alert-' || g || '@bench.test' from generate_series($1::int, $2::int) g`,
          [from, Math.min(size, from + 9_999)],
        );
      }
      // Seeding is not a user's action: without the user triggers, the plan changes send no
      // Realtime notices (as admin-users.ts).
      await db.query("alter table public.profiles disable trigger user");
      await db.query(
        `update public.profiles p set plan = 'enterprise', subscription_active = true, user_threshold = 5,
           selected_window_minutes = 30, email_alert = p.email,
           discord_webhook_url = 'https://discord.com/api/webhooks/' || (10000000 + s.n) || '/bench',
           telegram_chat_id = (-1000000000 - s.n)::text
         from (select id, row_number() over (order by id) as n from public.profiles
               where email like 'bench-alert-%' and plan <> 'enterprise') s
         where p.id = s.id`,
      );
      await db.query("alter table public.profiles enable trigger user");
      users = size;
      await db.query(`analyze public.profiles`);

      for (const symbols of SYMBOLS) {
        round += 1;
        // Each case its own instruments, a day after the last: no cooldown from the case before.
        const now = Date.UTC(2026, 0, 1) + round * 86_400_000;
        const quotes = (price: number, at: Date) =>
          JSON.stringify(
            Array.from({ length: symbols }, (_, g) => ({
              venueKey: `Binance:BA${round}X${g + 1}/USDT`,
              symbol: `BA${round}X${g + 1}/USDT`,
              exchange: "Binance",
              exchangeType: "cex",
              source: "simulated",
              price,
              volume24h: 1_000_000,
              ts: at.toISOString(),
            })),
          );
        const before = new Date(now - 30 * 60_000);
        await db.query(`select public.ingest_scan($1::text::jsonb, $2)`, [
          quotes(1, before),
          before.toISOString(),
        ]);
        const scannedAt = new Date(now).toISOString();
        const t0 = performance.now();
        await db.query(`select public.ingest_scan($1::text::jsonb, $2)`, [
          quotes(1.25, new Date(now)),
          scannedAt,
        ]);
        const tIngest = performance.now();
        const [enq] = await db.query<{ r: { alerts: number; jobs: number; pending?: number } }>(
          `select public.enqueue_alerts($1) as r`,
          [scannedAt],
        );
        const tEnqueued = performance.now();
        // The enqueue committed its first slice of jobs (claimable now); the rest is written in
        // slices as the delivery worker writes them (write_alert_jobs, decision 0074).
        let jobs = enq!.r.jobs;
        let pending = enq!.r.pending ?? 0;
        while (pending > 0) {
          const [slice] = await db.query<{ r: { jobs: number; pending: number } }>(
            `select public.write_alert_jobs(2000) as r`,
          );
          jobs += slice!.r.jobs;
          pending = slice!.r.pending;
        }
        const tWritten = performance.now();
        const [ready] = await db.query<{ n: number }>(
          `select count(*)::int as n from private.outbox where payload ->> 'scannedAt' = to_jsonb($1::timestamptz) #>> '{}'`,
          [scannedAt],
        );
        const c: Case = {
          users,
          symbols,
          enqueueMs: tEnqueued - tIngest,
          firstJobMs: tEnqueued - t0,
          allJobsMs: tWritten - t0,
          jobs,
        };
        cases.push(c);
        enqueueFigures.set(`${label}:${users}x${symbols}`, {
          firstJobMs: c.firstJobMs,
          allJobsMs: c.allJobsMs,
          jobs: c.jobs,
        });
        const expected = users * 3;
        say(
          `alerts ${label}: ${users} subscribers, ${symbols} symbols: enqueue ${seconds(c.enqueueMs)} s, ` +
            `first job ready ${seconds(c.firstJobMs)} s after the scan, ` +
            `all jobs written ${seconds(c.allJobsMs)} s after the scan, jobs ${c.jobs}` +
            (c.jobs === expected && ready!.n === expected
              ? ""
              : ` (expected ${expected} jobs, the outbox holds ${ready!.n}: FAILED)`),
        );
        if (c.enqueueMs > CASE_LIMIT_MS) stopped = true;
        // The next case starts from an empty outbox (as a drained one would be).
        await db.query(`delete from private.outbox`);
      }
    }
    for (const size of [1000, 10_000, 100_000].filter((n) => !SIZES.includes(n))) {
      say(
        `alerts ${label}: ${size} subscribers: not measured (BENCH_ALERT_SIZES=${SIZES.join(",")} leaves it out)`,
      );
    }
    // Growth from 1,000 to 10,000 to 100,000 subscribers (linear: ×10 per step).
    for (const symbols of SYMBOLS) {
      const row = cases.filter((c) => c.symbols === symbols).sort((a, b) => a.users - b.users);
      if (row.length < 2) continue;
      const steps = row
        .slice(1)
        .map(
          (c, i) =>
            `${row[i]!.users} → ${c.users} subscribers ×${(c.users / row[i]!.users).toFixed(0)}: ` +
            `enqueue ×${(c.enqueueMs / row[i]!.enqueueMs).toFixed(1)}, first job ×${(c.firstJobMs / row[i]!.firstJobMs).toFixed(1)}, ` +
            `all jobs ×${(c.allJobsMs / row[i]!.allJobsMs).toFixed(1)}`,
        );
      lines.push(`alerts ${label}: ${symbols} symbols, growth: ${steps.join("; ")}`);
    }
    return lines.join("\n");
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchAlerts(
      process.env.DATABASE_URL ? "PostgreSQL 15" : "PGlite",
      process.env.DATABASE_URL,
    ),
  );
}
