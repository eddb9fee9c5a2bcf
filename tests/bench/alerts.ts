// Alert delivery on the local stack (decision 0020): USERS enterprise subscribers (default
// 10,000) with Discord and Telegram alerts on, one scan in which SYMBOLS instruments (default
// 200) cross every threshold. Measured: the scan's ingest + enqueue_alerts, and the time from the
// scan to the last alert handed to the Discord/Telegram stand-ins, with WORKERS deliver-alerts
// invocations draining the outbox at once; jobs per second. Each user gets one digest per channel
// (200 symbols at once), so the jobs are 2 × USERS.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";

const USERS = Number(process.env.BENCH_ALERT_USERS ?? 10_000);
const SYMBOLS = Number(process.env.BENCH_ALERT_SYMBOLS ?? 200);
const WORKERS = Number(process.env.BENCH_ALERT_WORKERS ?? 4);
const TIMEOUT_MS = Number(process.env.BENCH_ALERT_TIMEOUT_MS ?? 600_000);

export async function benchAlerts(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-alerts-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    cron: false,
    quiet: true,
    alerts: { smtpPort: await freePort(), mailUiPort: await freePort(), chatPort: 0, cron: false },
  });
  try {
    const db = stack.db;
    // Subscribers: one account each, with its own webhook and chat.
    await db.query(
      `insert into auth.users (id, email)
       select gen_random_uuid(), 'bench-alert-' || g || '@bench.test' from generate_series(1, $1::int) g`,
      [USERS],
    );
    await db.query(
      `update public.profiles p set plan = 'enterprise', subscription_active = true, user_threshold = 5,
         selected_window_minutes = 30,
         discord_webhook_url = 'https://discord.com/api/webhooks/' || (10000000 + s.n) || '/bench',
         telegram_chat_id = (-1000000000 - s.n)::text
       from (select id, row_number() over (order by id) as n from public.profiles where email like 'bench-alert-%') s
       where p.id = s.id`,
    );
    // The demo accounts stay out of the count.
    await db.query(
      `update public.profiles set subscription_active = false where email like '%@demo.local'`,
    );
    await db.query(`analyze public.profiles`);

    const now = Date.now();
    const quotes = (price: number, at: Date) =>
      JSON.stringify(
        Array.from({ length: SYMBOLS }, (_, g) => ({
          venueKey: `Binance:BALERT${g + 1}/USDT`,
          symbol: `BALERT${g + 1}/USDT`,
          exchange: "Binance",
          exchangeType: "cex",
          source: "simulated",
          price,
          volume24h: 1000,
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
    const [enq] = await db.query<{ r: { alerts: number; jobs: number } }>(
      `select public.enqueue_alerts($1) as r`,
      [scannedAt],
    );
    const tEnqueued = performance.now();
    const jobs = enq!.r.jobs;

    const deliver = async () => {
      const res = await fetch(`${stack.url}/functions/v1/deliver-alerts`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${stack.secrets.secretKey}`,
          "content-type": "application/json",
        },
        body: "{}",
      });
      if (!res.ok) throw new Error(`deliver-alerts answered ${res.status}`);
      return (await res.json()) as { sent: number; claimed: number };
    };
    const chat = stack.alerts!.chat;
    let sent = 0;
    while (performance.now() - t0 < TIMEOUT_MS) {
      const reports = await Promise.all(Array.from({ length: WORKERS }, deliver));
      sent += reports.reduce((a, r) => a + r.sent, 0);
      if (reports.every((r) => r.claimed === 0)) break;
    }
    const tDone = performance.now();
    const handed = chat.requests().filter((r) => r.status === 200).length;
    const deliverSeconds = (tDone - tEnqueued) / 1000;
    return (
      `${label.padEnd(14)} alerts: ${USERS} subscribers × ${SYMBOLS} crossing symbols → ${jobs} jobs (digests) · ` +
      `ingest ${(tIngest - t0).toFixed(0)} ms · enqueue_alerts ${(tEnqueued - tIngest).toFixed(0)} ms · ` +
      `scan → last alert handed over ${((tDone - t0) / 1000).toFixed(2)} s · ${(sent / deliverSeconds).toFixed(0)} jobs/s ` +
      `(${WORKERS} workers; ${sent} sent, ${handed} received by the stand-ins)`
    );
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchAlerts(process.env.DATABASE_URL ? "PostgreSQL" : "PGlite", process.env.DATABASE_URL),
  );
}
