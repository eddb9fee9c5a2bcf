// The local stand-in for PostgreSQL's autovacuum, on the embedded PGlite (decision 0119).
//
// PGlite is one backend in one process: it has no autovacuum launcher, so nothing ever vacuums
// or analyses its tables. Without VACUUM the space of deleted and updated rows is never reused
// (only VACUUM records it in the free space map): a table that retention keeps at 10,000 rows
// grows with every row it ever held. Without ANALYZE the planner keeps the statistics of the
// first days (decision 0118 met one of its plans).
//
// Every AUTOVACUUM_INTERVAL_SECONDS (default 60, PostgreSQL's autovacuum_naptime), this runner
// does what the launcher would: it reads the tables' statistics and, by the server's own
// autovacuum settings, vacuums (and analyses) each table whose dead rows, inserts since the last
// vacuum or transaction age pass their threshold, and analyses each table whose changes since
// the last analyse pass theirs. A table with `autovacuum_enabled = false` is left alone, as on a
// server. One table per statement: PGlite's single session waits for each, the way a request
// waits for a lock. On PostgreSQL the server's own autovacuum does all this; the runner is not
// started there.
import type { Tx } from "./database.ts";
import { everyInterval, intervalMsFrom, type IntervalRunner } from "./interval-runner.ts";

export const DEFAULT_AUTOVACUUM_INTERVAL_SECONDS = 60;

/** What one pass did to one table. */
export interface VacuumedTable {
  table: string;
  action: "vacuum" | "analyze";
  ms: number;
}

/** tick() runs one pass now and resolves with what it did (nothing when no table was due). */
export type AutovacuumRunner = IntervalRunner<VacuumedTable[]>;

/** AUTOVACUUM_INTERVAL_SECONDS as milliseconds (default one minute); a bad value falls back. */
export function autovacuumIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  return intervalMsFrom(env.AUTOVACUUM_INTERVAL_SECONDS, DEFAULT_AUTOVACUUM_INTERVAL_SECONDS);
}

/**
 * The tables due, by the rules of PostgreSQL 15's autovacuum (`relation_needs_vacanalyze`):
 * thresholds of `base + scale × reltuples` (a table never vacuumed counts 0 tuples) from the
 * server's settings, and the freeze age. Biggest first, as the dead rows cost most there.
 */
export const DUE_TABLES_SQL = `
  with settings as (
    select current_setting('autovacuum_vacuum_threshold')::float8 as vac_base,
           current_setting('autovacuum_vacuum_scale_factor')::float8 as vac_scale,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 as ins_base,
           current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as ins_scale,
           current_setting('autovacuum_analyze_threshold')::float8 as anl_base,
           current_setting('autovacuum_analyze_scale_factor')::float8 as anl_scale,
           current_setting('autovacuum_freeze_max_age')::float8 as freeze_max_age
  ),
  tables as (
    select format('%I.%I', s.schemaname, s.relname) as name,
           greatest(c.reltuples, 0) as tuples,
           s.n_dead_tup, s.n_ins_since_vacuum, s.n_mod_since_analyze, age(c.relfrozenxid) as xid_age,
           pg_catalog.pg_relation_size(c.oid) as bytes
    from pg_catalog.pg_stat_user_tables s
    join pg_catalog.pg_class c on c.oid = s.relid
    where c.relkind in ('r', 'm')
      and c.relpersistence <> 't'
      and not exists (
        select 1 from unnest(c.reloptions) o
        where lower(o) in ('autovacuum_enabled=false', 'autovacuum_enabled=off',
                           'autovacuum_enabled=0', 'autovacuum_enabled=no'))
  )
  select d.name, d.vacuum, d.analyze
  from (
    select t.name, t.bytes,
           (t.n_dead_tup > st.vac_base + st.vac_scale * t.tuples
            or t.n_ins_since_vacuum > st.ins_base + st.ins_scale * t.tuples
            or t.xid_age > st.freeze_max_age) as vacuum,
           t.n_mod_since_analyze > st.anl_base + st.anl_scale * t.tuples as analyze
    from tables t, settings st
  ) d
  where d.vacuum or d.analyze
  order by d.bytes desc, d.name`;

/** A pass that takes this long says so in the log (PostgreSQL 15 logs autovacuums of 10 min). */
const SLOW_PASS_MS = 1_000;

export function startAutovacuum(opts: {
  db: Tx;
  intervalMs?: number;
  log?: (line: string) => void;
}): AutovacuumRunner {
  const log = opts.log ?? ((l: string) => console.log(l));

  const run = async (): Promise<VacuumedTable[]> => {
    const done: VacuumedTable[] = [];
    const started = performance.now();
    try {
      // The session's counts reach the statistics at its next transaction's end (at most once a
      // second otherwise): the question below sees every change made before this pass.
      await opts.db.query("select pg_catalog.pg_stat_force_next_flush()");
      const due = await opts.db.query<{ name: string; vacuum: boolean; analyze: boolean }>(
        DUE_TABLES_SQL,
      );
      for (const table of due) {
        if (runner.stopped) break;
        const t = performance.now();
        // The name comes from format('%I.%I'): quoted as an identifier by the database.
        const statement = table.vacuum
          ? `vacuum ${table.analyze ? "(analyze) " : ""}${table.name}`
          : `analyze ${table.name}`;
        await opts.db.query(statement);
        done.push({
          table: table.name,
          action: table.vacuum ? "vacuum" : "analyze",
          ms: performance.now() - t,
        });
      }
    } catch (err) {
      if (!runner.stopped) log(`[autovacuum] failed: ${(err as Error).message}`);
    }
    const ms = performance.now() - started;
    if (ms >= SLOW_PASS_MS) {
      const tables = done.map((d) => `${d.action} ${d.table} ${Math.round(d.ms)} ms`).join(", ");
      log(`[autovacuum] a pass took ${(ms / 1000).toFixed(1)} s: ${tables}`);
    }
    return done;
  };

  const runner = everyInterval<VacuumedTable[]>({
    run,
    idle: [],
    intervalMs: opts.intervalMs ?? autovacuumIntervalMs(),
  });
  return runner;
}
