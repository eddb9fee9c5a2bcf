// The cadence load (cadence-load.ts) on its own temporary PostgreSQL 15 cluster with
// pg_stat_statements (track = all), then the statements that took the most time per batch: where a
// batch's time goes when the venues' batches overlap (decision 0094).
//
//   BENCH_CADENCE_SECONDS=30 npx tsx tests/bench/cadence-profile.ts
//
// CADENCE_EXPLAIN_MS=40 also logs the plans (auto_explain, analyze, nested statements) of the
// statements slower than that, and copies the cluster's log to CADENCE_LOG (default: the console
// says where it is). CADENCE_MIGRATIONS_DIR runs it on another migrations folder (a `before`
// with a migration held out).
import { copyFileSync } from "node:fs";
import path from "node:path";
import { startTempPostgres } from "../support/postgres.ts";
import { benchCadenceLoad } from "./cadence-load.ts";

const EXPLAIN_MS = process.env.CADENCE_EXPLAIN_MS;
const pg = await startTempPostgres({
  preload: ["pg_stat_statements", ...(EXPLAIN_MS ? ["auto_explain"] : [])],
});
try {
  const { default: postgres } = await import("postgres");
  const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`alter system set pg_stat_statements.track = 'all'`);
  if (EXPLAIN_MS) {
    await admin.unsafe(
      `alter system set auto_explain.log_min_duration = '${Number(EXPLAIN_MS)}ms'`,
    );
    await admin.unsafe(`alter system set auto_explain.log_analyze = on`);
    await admin.unsafe(`alter system set auto_explain.log_nested_statements = on`);
  }
  await admin.unsafe(`select pg_reload_conf()`);
  await admin.unsafe(`create extension if not exists pg_stat_statements`);
  console.log(await benchCadenceLoad("PostgreSQL 15", pg, process.env.CADENCE_MIGRATIONS_DIR));
  const [{ batches }] = await admin.unsafe<{ batches: number }[]>(
    `select sum(calls)::int as batches from pg_stat_statements where query like 'select public.ingest_scan(%'`,
  );
  const rows = await admin.unsafe<{ ms: number; calls: number; query: string }[]>(
    `select round((total_exec_time / $1)::numeric, 1)::float8 as ms, calls::int,
            regexp_replace(left(query, 100), '\\s+', ' ', 'g') as query
     from pg_stat_statements order by total_exec_time desc limit 18`,
    [batches],
  );
  console.log(`${batches} batches; ms a batch (all venues' batches together):`);
  for (const r of rows) console.log(`  ${String(r.ms).padStart(7)} ms ×${r.calls} ${r.query}`);
  await admin.end();
  if (EXPLAIN_MS) {
    const log = process.env.CADENCE_LOG ?? "/tmp/cadence-explain.log";
    copyFileSync(path.join(pg.dir, "log"), log);
    console.log(`plans: ${log}`);
  }
} finally {
  await pg.stop();
}
