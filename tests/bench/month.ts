// A month in an hour (issue 30): 30 simulated days of the scanner's signals and their outcomes,
// alert deliveries (outbox jobs and alerts_sent), the admin audit log, sign-ups, chat and support
// tickets, generated day by day with that day's timestamps, each day closed by the retention job
// "as of" the day's end (private.run_retention(at), decision 0039). It then prints every table's
// rows and bytes at day 1 and day 30, what retention removed, and the p95 of the dashboard's
// signals feed, the support desk, the admin user table, the track record and a group's chat at
// day 1 and day 30, through PostgREST with the SPA's own queries (row-level security applies).
// The default is a quick pass (a few minutes); `--full` uses the simulated market's volume
// (about 29,000 signals a day). The stack runs in this process (PGlite, or PostgreSQL 15 with a
// database URL).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { SupabaseClient } from "@supabase/supabase-js";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { signInDemo } from "./demo-client.ts";
import { mb, timeRequests } from "./stats.ts";

const DAYS = 30;
const DAY_MS = 86_400_000;

interface Volume {
  signals: number;
  alerts: number;
  audit: number;
  signups: number;
  chat: number;
  tickets: number;
  requests: number;
}
const QUICK: Volume = {
  signals: 3_000,
  alerts: 300,
  audit: 40,
  signups: 30,
  chat: 1_000,
  tickets: 20,
  requests: 40,
};
const FULL: Volume = {
  signals: 29_000,
  alerts: 3_000,
  audit: 200,
  signups: 300,
  chat: 10_000,
  tickets: 100,
  requests: 200,
};

type Stack = Awaited<ReturnType<typeof startStack>>;
type TableSize = { rows: number; bytes: number };

/** One simulated day: rows with timestamps in [from, from + 1 day). */
async function simulateDay(stack: Stack, day: number, from: Date, v: Volume): Promise<void> {
  const q = (sql: string, params: unknown[] = []) => stack.db.query(sql, params);
  const at = from.toISOString();
  // Signals over the day, most with an outcome recorded a few hours later.
  await q(
    `insert into public.strategy_signals
       (symbol, exchange, exchange_type, timeframe, strategy, signal, confidence, confidence_tier,
        price, volume_24h, computed_at)
     select 'M' || (g % 400) || '/USDT', (array['Binance','Kraken','Coinbase'])[1 + g % 3], 'cex',
            (enum_range(null::public.timeframe))[1 + g % cardinality(enum_range(null::public.timeframe))],
            (enum_range(null::public.strategy))[1 + g % cardinality(enum_range(null::public.strategy))],
            (enum_range(null::public.signal_direction))[1 + g % cardinality(enum_range(null::public.signal_direction))],
            0.5 + (g % 50) / 100.0,
            (enum_range(null::public.confidence_tier))[1 + g % cardinality(enum_range(null::public.confidence_tier))],
            1 + g % 1000, 1e6, $1::timestamptz + (g::float8 / $2) * interval '1 day'
     from generate_series(0, $2::int - 1) g`,
    [at, v.signals],
  );
  await q(
    `insert into public.strategy_signal_outcomes
       (signal_id, symbol, exchange, strategy, signal, entry_price, exit_price, pct_change,
        was_correct, hours_elapsed, created_at)
     select s.id, s.symbol, s.exchange, s.strategy, s.signal, s.price, s.price * 1.01, 1,
            s.id % 3 <> 0, 4, s.computed_at + interval '4 hours'
     from public.strategy_signals s
     where s.computed_at >= $1::timestamptz and s.computed_at < $1::timestamptz + interval '1 day'
       and s.id % 10 <> 0`,
    [at],
  );
  // Alert deliveries: finished outbox jobs and their delivery records.
  await q(
    `insert into private.outbox (kind, channel, user_id, dedup_key, payload, status, attempts,
                                 next_attempt_at, created_at, sent_at)
     select 'mover_alert', (array['email','discord','telegram'])[1 + g % 3], p.id,
            'month-' || $3::int || '-' || g, '{}'::jsonb,
            (array['sent','sent','sent','failed'])[1 + g % 4], 1, t, t, t + interval '2 seconds'
     from generate_series(0, $2::int - 1) g
     cross join lateral (select $1::timestamptz + (g::float8 / $2) * interval '1 day' as t) ts
     join lateral (select id from public.profiles where email = 'pro@demo.local') p on true`,
    [at, v.alerts, day],
  );
  await q(
    `insert into public.alerts_sent (symbol, exchange, pct, price, ts, recipient, hash, created_at)
     select 'M' || (g % 400) || '/USDT', 'Binance', 12.5, 1, t, 'pro@demo.local',
            'month-' || $3::int || '-' || g, t
     from generate_series(0, $2::int - 1) g
     cross join lateral (select $1::timestamptz + (g::float8 / $2) * interval '1 day' as t) ts`,
    [at, v.alerts, day],
  );
  await q(
    `insert into public.activity_logs (admin_id, action, target_user_email, details, created_at)
     select (select id from public.profiles where email = 'admin@demo.local'), 'update_user',
            'bench-month@bench.test', 'Bench change ' || g,
            $1::timestamptz + (g::float8 / $2) * interval '1 day'
     from generate_series(0, $2::int - 1) g`,
    [at, v.audit],
  );
  // Sign-ups (profiles come from the trigger).
  await q(
    `insert into auth.users (id, email, created_at)
     select gen_random_uuid(), format('month-%s-%s@bench.test', $3::int, g),
            $1::timestamptz + (g::float8 / $2) * interval '1 day'
     from generate_series(0, $2::int - 1) g`,
    [at, v.signups, day],
  );
  // User content, written as of the day (the triggers that stamp now(), broadcast and count
  // writes are off while the past is written).
  await q("alter table public.messages disable trigger user");
  try {
    await q(
      `insert into public.messages (group_id, sender_id, content, created_at, updated_at)
       select m.group_id, m.user_id, 'Month bench message ' || g, t, t
       from generate_series(0, $2::int - 1) g
       cross join lateral (select $1::timestamptz + (g::float8 / $2) * interval '1 day' as t) ts
       join lateral (select group_id, user_id from public.group_members
                     order by group_id, user_id offset (g % (select count(*) from public.group_members)) limit 1) m on true`,
      [at, v.chat],
    );
  } finally {
    await q("alter table public.messages enable trigger user");
  }
  await q("alter table public.support_tickets disable trigger user");
  await q("alter table public.ticket_messages disable trigger user");
  try {
    await q(
      `insert into public.support_tickets (user_id, subject, content, priority, status, created_at, updated_at)
       select u.id, 'Month ticket ' || $3::int || '-' || g, 'A question from the month bench ' || g,
              (array['low','medium','high','urgent'])[1 + g % 4]::public.ticket_priority,
              (array['open','in_progress','resolved','closed'])[1 + g % 4]::public.ticket_status, t, t
       from generate_series(0, $2::int - 1) g
       cross join lateral (select $1::timestamptz + (g::float8 / $2) * interval '1 day' as t) ts
       join lateral (select p.id from public.profiles p
                     where p.email = (array['free@demo.local','basic@demo.local','pro@demo.local','enterprise@demo.local'])[1 + g % 4]) u on true`,
      [at, v.tickets, day],
    );
    await q(
      `insert into public.ticket_messages (ticket_id, sender_id, content, is_admin_reply, created_at)
       select t.id, s.sender, 'Month bench reply', s.admin, t.created_at + interval '1 hour'
       from public.support_tickets t
       cross join lateral (values (t.user_id, false),
         ((select p.id from public.profiles p where p.email = 'admin@demo.local'), true)) s (sender, admin)
       where t.subject like 'Month ticket ' || $1::int || '-%'`,
      [day],
    );
  } finally {
    await q("alter table public.support_tickets enable trigger user");
    await q("alter table public.ticket_messages enable trigger user");
  }
}

async function tableSizes(stack: Stack): Promise<Map<string, TableSize>> {
  const tables = await stack.db.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name
     from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname in ('public', 'private')
     order by 1`,
  );
  const sizes = new Map<string, TableSize>();
  for (const { name } of tables) {
    const [row] = await stack.db.query<{ rows: number; bytes: number }>(
      `select (select count(*) from ${name})::float8 as rows,
              pg_catalog.pg_total_relation_size('${name}')::float8 as bytes`,
    );
    sizes.set(name, { rows: Number(row!.rows), bytes: Number(row!.bytes) });
  }
  return sizes;
}

/** The p95 of a read, after 10 untimed calls. */
async function p95(requests: number, run: () => PromiseLike<{ error: unknown }>): Promise<number> {
  return (await timeRequests("month bench query", requests, 10, run)).p95;
}

const READS = ["signals feed", "desk", "admin user table", "track record", "chat"] as const;
type Read = (typeof READS)[number];

/** The SPA's reads as of `asOf` (the signals card's last hour ends at the simulated day's end). */
async function measure(
  pro: SupabaseClient,
  admin: SupabaseClient,
  group: string,
  asOf: Date,
  requests: number,
): Promise<Record<Read, number>> {
  const since = new Date(asOf.getTime() - 60 * 60 * 1000).toISOString();
  return {
    "signals feed": await p95(requests, () =>
      pro
        .from("strategy_signals")
        .select("id, symbol, exchange, strategy, signal, confidence, computed_at")
        .gte("computed_at", since)
        .lt("computed_at", asOf.toISOString())
        .order("computed_at", { ascending: false })
        .limit(500),
    ),
    desk: await p95(requests, () =>
      admin
        .from("support_tickets")
        .select(
          "id, ticket_number, user_id, subject, status, priority, awaiting_admin, created_at, updated_at, owner:profiles!support_tickets_user_id_fkey(username, email, avatar_url)",
        )
        .order("updated_at", { ascending: false })
        .order("ticket_number", { ascending: false })
        .limit(200),
    ),
    "admin user table": await p95(requests, () => admin.rpc("admin_list_users", {})),
    "track record": await p95(requests, () => pro.rpc("signal_track_record", { period: "30d" })),
    chat: await p95(requests, () =>
      admin
        .from("messages")
        .select("id, sender_id, content, created_at")
        .eq("group_id", group)
        .order("created_at", { ascending: false })
        .limit(50),
    ),
  };
}

export async function benchMonth(
  label: string,
  databaseUrl?: string,
  full = process.argv.includes("--full"),
): Promise<string> {
  const v = full ? FULL : QUICK;
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-month-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    quiet: true,
  });
  const lines: string[] = [];
  const head = `${label.padEnd(14)} month`;
  try {
    const signIn = (email: string) => signInDemo(stack.url, stack.secrets.publishableKey, email);
    const pro = await signIn("pro@demo.local");
    const admin = await signIn("admin@demo.local");
    const adminId = (await admin.auth.getUser()).data.user!.id;
    const [membership] = await stack.db.query<{ group_id: string }>(
      "select group_id from public.group_members where user_id = $1 limit 1",
      [adminId],
    );
    if (!membership) throw new Error("month bench: the demo admin is in no group");
    // Day 1 starts 30 days ago, so day 30 ends now (the track record reads by now()).
    const start = new Date(Date.now() - DAYS * DAY_MS);
    const removed: Record<string, number> = {};
    let day1: { sizes: Map<string, TableSize>; p95: Record<Read, number> } | undefined;
    let last: { sizes: Map<string, TableSize>; p95: Record<Read, number> } | undefined;
    const t0 = performance.now();
    for (let day = 1; day <= DAYS; day++) {
      const from = new Date(start.getTime() + (day - 1) * DAY_MS);
      const end = new Date(from.getTime() + DAY_MS);
      await simulateDay(stack, day, from, v);
      const [row] = await stack.db.query<{ removed: Record<string, number> | string }>(
        "select private.run_retention($1::timestamptz) as removed",
        [end.toISOString()],
      );
      const r = typeof row!.removed === "string" ? JSON.parse(row!.removed) : row!.removed;
      for (const [t, n] of Object.entries(r as Record<string, number>)) {
        removed[t] = (removed[t] ?? 0) + n;
      }
      if (day === 1 || day === DAYS) {
        await stack.db.query("analyze");
        const snapshot = {
          sizes: await tableSizes(stack),
          p95: await measure(pro, admin, membership.group_id, end, v.requests),
        };
        if (day === 1) day1 = snapshot;
        else last = snapshot;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    lines.push(
      `${head} ${full ? "full" : "quick"}: ${DAYS} simulated days in ${seconds.toFixed(0)} s ` +
        `(a day: ${v.signals.toLocaleString("en")} signals, ${v.alerts.toLocaleString("en")} alerts, ` +
        `${v.chat.toLocaleString("en")} chat messages, ${v.tickets} tickets, ${v.signups} sign-ups, ` +
        `${v.audit} audit entries; retention run as of each day's end)`,
    );
    lines.push(`${head} table rows and bytes, day 1 → day ${DAYS}:`);
    for (const [name, end] of last!.sizes) {
      const start1 = day1!.sizes.get(name) ?? { rows: 0, bytes: 0 };
      lines.push(
        `${head}   ${name.padEnd(34)} ${String(start1.rows).padStart(8)} rows ${mb(start1.bytes, 1).padStart(9)}` +
          ` → ${String(end.rows).padStart(8)} rows ${mb(end.bytes, 1).padStart(9)}`,
      );
    }
    const pruned = Object.entries(removed)
      .filter(([, n]) => n > 0)
      .map(([t, n]) => `${t} ${n.toLocaleString("en")}`);
    lines.push(
      `${head} retention removed over the month: ${pruned.length ? pruned.join(", ") : "nothing"}` +
        ` (rules of 30 days and more act from the month's end on; pgTAP 30 checks each rule)`,
    );
    // Nothing the machine writes grows without bound: 34 days after the month (its longest rule
    // but the audit log's), the retention job leaves only what its rules keep longer or for good.
    const after = new Date(start.getTime() + (DAYS + 34) * DAY_MS);
    await stack.db.query("select private.run_retention($1::timestamptz)", [after.toISOString()]);
    const left = await tableSizes(stack);
    const emptied: string[] = [];
    const kept: string[] = [];
    for (const [name, end] of last!.sizes) {
      const grew = end.rows - (day1!.sizes.get(name)?.rows ?? 0);
      if (grew <= 0) continue;
      const now = left.get(name)?.rows ?? 0;
      if (now < end.rows) emptied.push(`${name} ${end.rows} → ${now}`);
      else kept.push(name);
    }
    lines.push(
      `${head} retention as of 34 days after the month: ${emptied.join(", ") || "nothing removed"}` +
        `; kept (user content, accounts, the 90-day audit log): ${kept.join(", ") || "none"}`,
    );
    let worst: { read: Read; ratio: number } | null = null;
    for (const read of READS) {
      const a = day1!.p95[read];
      const b = last!.p95[read];
      const ratio = b / a;
      if (!worst || ratio > worst.ratio) worst = { read, ratio };
      lines.push(
        `${head} p95 ${read.padEnd(16)} day 1 ${a.toFixed(1)} ms · day ${DAYS} ${b.toFixed(1)} ms (×${ratio.toFixed(2)})`,
      );
    }
    lines.push(
      worst!.ratio <= 2
        ? `${head} no p95 more than doubled (worst: ${worst!.read} ×${worst!.ratio.toFixed(2)})`
        : `${head} FAILED: the p95 of ${worst!.read} grew ×${worst!.ratio.toFixed(2)} from day 1 to day ${DAYS}`,
    );
    return lines.join("\n");
  } catch (err) {
    lines.push(`${head} FAILED: ${(err as Error).message}`);
    return lines.join("\n");
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchMonth(
      process.env.DATABASE_URL ? "PostgreSQL 15" : "PGlite",
      process.env.DATABASE_URL,
    ),
  );
}
