// The outbox's statements alone, without the workers, the gateway or the stand-ins (decision
// 0103): on a temporary PostgreSQL 15 with the migrations, one connection claims, marks and
// completes N own-webhook jobs the way one deliver-alerts worker does (claims of 1,000, waves of
// 256 marks, each wave's completions on the next wave's mark, the last on a call of their own),
// and prints the wall and the backend's CPU time per job, by statement, and what the outbox's
// updates wrote (HOT or not). Variants named in OUTBOX_SQL_VARIANTS run alternately, ROUNDS
// times, so they share the machine's minutes:
//
//   OUTBOX_SQL_JOBS=20000 OUTBOX_SQL_ROUNDS=3 OUTBOX_SQL_VARIANTS=main,ff50 npx tsx tests/bench/outbox-sql.ts
//
// A variant is SQL run before its round (a table setting, a function's new definition); every
// round first puts back the functions as the migrations left them; "main" then puts back the
// completions as the main branch defines them.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { startTempPostgres } from "../support/postgres.ts";

const JOBS = Number(process.env.OUTBOX_SQL_JOBS ?? 20_000);
const ROUNDS = Number(process.env.OUTBOX_SQL_ROUNDS ?? 3);
/**
 * Jobs already sent before each round (OUTBOX_SQL_HISTORY, default none): production's outbox
 * keeps its sent jobs for 30 days, and the statistics then see nearly every row sent.
 */
const HISTORY = Number(process.env.OUTBOX_SQL_HISTORY ?? 0);
const CLAIM = 1000;
const WAVE = 256;
const ROOT_DIR = path.resolve(import.meta.dirname, "../..");
const migration = (name: string) =>
  readFileSync(path.join(ROOT_DIR, "supabase/migrations", name), "utf8");
/** A function as the main branch's schema defines it (`git show main:…`), to compare against. */
function onMain(signature: string): string {
  const schema = execFileSync("git", ["show", "main:supabase/schemas/40-alerts.sql"], {
    cwd: ROOT_DIR,
    encoding: "utf8",
  });
  const start = schema.indexOf(`CREATE FUNCTION ${signature}`);
  if (start < 0) throw new Error(`${signature} is not in main's schema`);
  const end = schema.indexOf("$$;", schema.indexOf("AS $$", start)) + 3;
  return schema.slice(start, end).replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION");
}
const VARIANTS: Record<string, string> = {
  // The completions as on main (before migration 20261203100000).
  main: onMain("public.complete_outbox_batch("),
  // The completions by key (decision 0103), as the migrations leave them.
  bykey: migration("20261203100000_outbox_completions_by_key.sql"),
  ff50: "alter table private.outbox set (fillfactor = 50)",
  ff35: "alter table private.outbox set (fillfactor = 35)",
};
const chosen = (process.env.OUTBOX_SQL_VARIANTS ?? "main").split(",").map((v) => v.trim());
for (const v of chosen) if (!(v in VARIANTS)) throw new Error(`unknown variant ${v}`);

function backendTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(f[11]) + Number(f[12]);
}

const pg = await startTempPostgres();
const tmp = mkdtempSync(path.join(tmpdir(), "outbox-sql-"));
try {
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl: pg.url,
    functions: false,
    quiet: true,
  });
  await stack.stop();
  const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
  await sql`insert into auth.users (id, email)
    select gen_random_uuid(), 'sim-' || lpad(g::text, 7, '0') || '@bench.test'
    from generate_series(1, ${JOBS}::int) g`;
  await sql`update public.profiles p set plan = 'enterprise', subscription_active = true,
      discord_webhook_url = 'https://discord.com/api/webhooks/' || (20000000 + s.n) || '/bench'
    from (select id, row_number() over (order by email) as n from public.profiles
          where email like 'sim-%') s
    where p.id = s.id`;
  await sql`analyze public.profiles`;
  const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const original = await sql<{ def: string }[]>`
    select pg_get_functiondef(p.oid) as def from pg_proc p
    where p.oid in ('public.complete_outbox_batch(text,jsonb)'::regprocedure,
                    'public.claim_outbox(text,integer,integer,text)'::regprocedure,
                    'public.begin_outbox_sends(text,bigint[],jsonb)'::regprocedure)`;
  const hz = 100;
  const results: Record<string, string[]> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    for (const variant of chosen) {
      await sql`delete from private.outbox`;
      await sql`delete from public.alerts_sent`;
      await sql`vacuum private.outbox`;
      await sql`vacuum public.alerts_sent`;
      await sql`alter table private.outbox reset (fillfactor)`;
      await sql`alter table private.outbox set (fillfactor = 75)`;
      for (const { def } of original) await sql.unsafe(def);
      if (VARIANTS[variant]) await sql.unsafe(VARIANTS[variant]);
      const tag = `${variant}-${round}`;
      if (HISTORY > 0) {
        await sql`insert into private.outbox (kind, channel, user_id, dedup_key, payload, status,
            attempts, claimed_by, sent_at, created_at)
          select 'market_alert', 'discord', p.id, 'hist:' || ${tag}::text || ':' || g, '{}', 'sent',
                 1, 'sim-history', now() - interval '1 day', now() - interval '1 day'
          from generate_series(1, ${HISTORY}::int) g
          join (select id, row_number() over (order by id) as n from public.profiles
                where email like 'sim-%') p on p.n = 1 + g % ${JOBS}::int`;
      }
      await sql`with items as (
          select jsonb_agg(jsonb_build_object('instrumentId', g, 'symbol', 'BD' || g || '/USDT',
            'exchange', 'Binance', 'direction', 'pump', 'pct', 25, 'windowMinutes', 30, 'price', 1.25,
            'ts', now()::text) order by g) as j
          from generate_series(1, 20) g),
        message as (
          insert into private.alert_messages (scanned_at, payload)
          select now(), jsonb_build_object('shape', 'digest', 'total', 20, 'items', items.j) from items
          returning id)
        insert into private.outbox (kind, channel, user_id, dedup_key, payload, seq, message_id)
        select 'market_alert', 'discord', p.id, 'bench:' || ${tag}::text || ':' || p.id,
               jsonb_build_object('scannedAt', now()::text, 'unsubscribeToken', gen_random_uuid()::text), 1,
               message.id
        from (select id from public.profiles where email like 'sim-%' order by email) p, message`;
      await sql`analyze private.outbox`;
      const before = await sql<{ upd: string; hot: string }[]>`
        select n_tup_upd as upd, n_tup_hot_upd as hot from pg_stat_all_tables
        where relid = 'private.outbox'::regclass`;
      const spent = { claim: 0, mark: 0, complete: 0 };
      const t0 = performance.now();
      const c0 = backendTicks(pid);
      const worker = `sim-${tag}`;
      // OUTBOX_SQL_EXPLAIN=1: the plans of the first round's second claim, mark and completion,
      // nested statements included, in the cluster's log (auto_explain).
      const explain = process.env.OUTBOX_SQL_EXPLAIN === "1" && round === 1;
      let calls = 0;
      let pending: { id: number; recipient: string }[] = [];
      for (;;) {
        if (explain && ++calls === 2) {
          await sql`load 'auto_explain'`;
          await sql`set auto_explain.log_min_duration = 0`;
          await sql`set auto_explain.log_analyze = on`;
          await sql`set auto_explain.log_buffers = on`;
          await sql`set auto_explain.log_nested_statements = on`;
        }
        if (explain && calls === 3) await sql`set auto_explain.log_min_duration = -1`;
        let t = performance.now();
        const jobs = await sql<{ id: string; target: string }[]>`
          select id, target from public.claim_outbox(${worker}, ${CLAIM}, 60, 'discord')`;
        spent.claim += performance.now() - t;
        if (jobs.length === 0) break;
        for (let i = 0; i < jobs.length; i += WAVE) {
          const wave = jobs.slice(i, i + WAVE);
          t = performance.now();
          await sql`select * from public.begin_outbox_sends(${worker},
            ${wave.map((j) => Number(j.id))}::bigint[], ${sql.json(pending)}::jsonb)`;
          spent.mark += performance.now() - t;
          pending = wave.map((j) => ({
            id: Number(j.id),
            recipient: `discord:${j.target.split("/").at(-2)}`,
          }));
        }
        t = performance.now();
        await sql`select public.complete_outbox_batch(${worker}, ${sql.json(pending)}::jsonb)`;
        spent.complete += performance.now() - t;
        pending = [];
      }
      const wall = performance.now() - t0;
      const cpu = ((backendTicks(pid) - c0) / hz) * 1000;
      await new Promise((r) => setTimeout(r, 1100));
      await sql`select pg_stat_clear_snapshot()`;
      const after = await sql<{ upd: string; hot: string; kb: string }[]>`
        select n_tup_upd as upd, n_tup_hot_upd as hot, pg_relation_size(relid) / 1024 as kb
        from pg_stat_all_tables where relid = 'private.outbox'::regclass`;
      const upd = Number(after[0].upd) - Number(before[0].upd);
      const hot = Number(after[0].hot) - Number(before[0].hot);
      const perJob = (ms: number) => ((ms * 1000) / JOBS).toFixed(0);
      const line =
        `${tag}: ${JOBS} jobs ${(wall / 1000).toFixed(2)} s, backend CPU ${(cpu / 1000).toFixed(2)} s · ` +
        `µs a job: all ${perJob(wall)} (claim ${perJob(spent.claim)} · mark ${perJob(spent.mark)} · complete ${perJob(spent.complete)}) · ` +
        (HISTORY > 0 ? `after ${HISTORY} sent · ` : "") +
        `updates ${upd}, HOT ${hot} (${((100 * hot) / Math.max(1, upd)).toFixed(0)} %) · heap ${after[0].kb} kB`;
      console.log(line);
      (results[variant] ??= []).push(line);
    }
  }
  await sql.end();
} finally {
  if (process.env.OUTBOX_SQL_EXPLAIN === "1") {
    console.log(readFileSync(path.join(pg.dir, "log"), "utf8"));
  }
  await pg.stop();
  rmSync(tmp, { recursive: true, force: true });
}
