// A paired before/after profile of `public.ingest_scan` on one temporary PostgreSQL 15 cluster
// (decision 0068): two databases, "before" migrated without the migrations whose file name starts
// with PAIR_PREFIX and "after" with every migration, the same instruments and history in both,
// then scans sent to the two in turn (the order alternating each round) with the same quotes and
// the same scan time. The machine is shared, so only the ratio of each pair is trusted.
// After every pair the two databases must hold the same movers and the same kept lists: a change
// that alters a result fails the run.
//
//   npx tsx tests/bench/ingest-pair.ts
//   PAIR_PREFIX=20261128170 PAIR_N=10000 PAIR_ROUNDS=7 PAIR_STATEMENTS=1 npx tsx tests/bench/ingest-pair.ts
//
// PAIR_VENUES_AT_ONCE=1 (decision 0096) then scans as the scan function does, one call per venue:
// "before" gets the three venues' calls one after the other, "after" the three at once on three
// connections; with a PAIR_PREFIX no migration has (PAIR_PREFIX=none), the two databases hold the
// same schema and must hold the same movers and kept lists after every round. With a PAIR_PREFIX
// that holds migrations out (decision 0104), both sides get the three calls at once (each side on
// its own three connections), the side going first alternating each round, timed from the first
// call's start to the last call's end; a side whose ingest_scan takes a scan_group gives its
// calls the scan function's SCAN_GROUP, as three per-venue scans' invocations whose ticks
// coincide do (0104, round 2). The first round is a warm-up.
// PAIR_VACUUM=1 vacuums the seeded history in both databases; PAIR_AFTER_SQL gives "after" extra
// statements once migrated (decision 0099).
// PAIR_ONE_VENUE=0 stops after the all-venues scans. PAIR_STATEMENTS=1 adds the statements that took the most time in each database
// (pg_stat_statements, track = all: the statements inside ingest_scan and what it calls).
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pgCronAvailable, startTempPostgres } from "../support/postgres.ts";
import { startPairStack } from "./pair-stack.ts";
import {
  ONE_VENUE,
  VENUES,
  countOn,
  ingest,
  ingestVenues,
  quotes,
  seed,
  type Stack,
  takesScanGroup,
} from "./ingest.ts";
import { percentile } from "./stats.ts";

const PREFIX = process.env.PAIR_PREFIX ?? "20261128170";
const N = Number(process.env.PAIR_N ?? 10_000);
const ROUNDS = Number(process.env.PAIR_ROUNDS ?? 7);
const STATEMENTS = process.env.PAIR_STATEMENTS === "1";
/** Log the plans (auto_explain, analyze, nested statements) of statements slower than this (ms). */
const EXPLAIN_MS = process.env.PAIR_EXPLAIN_MS;

const median = (v: number[]) =>
  percentile(
    [...v].sort((a, b) => a - b),
    50,
  );

/**
 * A digest of what a scan leaves: every bench mover row (but inserted_at, the time of the insert)
 * and every kept list's entries (the demo seed's movers carry the time the database was seeded).
 */
async function digest(stack: Stack): Promise<string> {
  const [row] = await stack.db.query<{ m: string; t: string }>(
    `select (select md5(coalesce(string_agg((to_jsonb(m) - 'inserted_at')::text, '|' order by m.id), '')) from public.movers m where m.exchange like 'Bench%') as m,
            (select md5(coalesce(string_agg(t.window_minutes || ':' || t.entries::text, '|' order by t.window_minutes), ''))
               from private.movers_top t) as t`,
  );
  return `${row!.m}/${row!.t}`;
}

async function statements(stack: Stack, scans: number): Promise<string[]> {
  const rows = await stack.db.query<{ ms: number; calls: number; rows: number; query: string }>(
    `select round((s.total_exec_time / $1)::numeric, 1)::float8 as ms, (s.calls / $1)::int as calls,
            (s.rows / $1)::int as rows, regexp_replace(left(s.query, 110), '\\s+', ' ', 'g') as query
     from public.pg_stat_statements s
     where s.dbid = (select oid from pg_database where datname = current_database())
     order by s.total_exec_time desc limit 14`,
    [scans],
  );
  return rows.map(
    (r) =>
      `  ${String(r.ms).padStart(8)} ms  ×${r.calls} ${String(r.rows).padStart(6)} rows  ${r.query}`,
  );
}

async function main() {
  const pg = await startTempPostgres({
    preload: [
      ...(pgCronAvailable() ? ["pg_cron"] : []),
      "pg_stat_statements",
      ...(EXPLAIN_MS ? ["auto_explain"] : []),
    ],
  });
  const tmp = mkdtempSync(path.join(tmpdir(), "ingest-pair-"));
  const stacks: Stack[] = [];
  const urls: string[] = [];
  try {
    const { default: postgres } = await import("postgres");
    const admin = postgres(pg.url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`alter system set pg_stat_statements.track = 'all'`);
    await admin.unsafe(`select pg_reload_conf()`);
    await admin.end();
    const names = ["before", "after"] as const;
    for (const name of names) {
      const { stack, url } = await startPairStack({
        clusterUrl: pg.url,
        tmp,
        name,
        database: `pair_${name}`,
        skip: name === "before" ? PREFIX : null,
      });
      urls.push(url);
      stacks.push(stack);
      const applied = stack.migrations.applied.filter((f) => f.startsWith(PREFIX));
      console.log(
        `${name}: ${applied.length} migration(s) with prefix ${PREFIX}: ${applied.join(", ")}`,
      );
      await stack.db.query(`create extension if not exists pg_stat_statements schema public`);
      // PAIR_AFTER_SQL (decision 0099): statements given to "after" once migrated, for a
      // candidate not written as a migration (e.g. history-probes.ts' COVERING_KEY).
      if (name === "after" && process.env.PAIR_AFTER_SQL) {
        for (const st of process.env.PAIR_AFTER_SQL.split(/;\s*\n/)) {
          if (st.trim()) await stack.db.query(st);
        }
      }
    }
    const base = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    for (const s of stacks) await seed(s, "P-", N, base);
    // PAIR_VACUUM=1 (decision 0099): the seeded history vacuumed in both (all-visible, as a
    // production table's history older than a minute is under the table's autovacuum settings).
    if (process.env.PAIR_VACUUM === "1") {
      for (const s of stacks) await s.db.query(`vacuum public.price_history`);
    }
    const quoted = countOn(ONE_VENUE, N);
    const times = {
      all: [[], []] as number[][],
      one: [[], []] as number[][],
      venues: [[], []] as number[][],
    };
    // Per side, per place (the first call to end, the second, the last): when it ended.
    const venueEnds = [VENUES.map(() => [] as number[]), VENUES.map(() => [] as number[])];
    const grouped = [await takesScanGroup(stacks[0]!), await takesScanGroup(stacks[1]!)];
    const serialBefore = PREFIX === "none";
    let r = 0;
    const scan = async (kind: "all" | "one" | "venues", record: boolean) => {
      r++;
      const at = new Date(base.getTime() + r * 10_000);
      if (kind === "venues" && serialBefore) {
        // "before" one after the other, "after" at once: both one call per venue.
        await ingestVenues(stacks[0]!, null, "P-", N, at, r);
        await ingestVenues(stacks[1]!, atOnce, "P-", N, at, r);
      } else if (kind === "venues") {
        // Both at once, each on its own three connections, the side going first alternating.
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const t = await ingestVenues(stacks[i]!, sides[i]!, "P-", N, at, r, grouped[i]);
          if (record) {
            times.venues[i]!.push(t.wall);
            t.ends.forEach((e, j) => venueEnds[i]![j]!.push(e));
          }
        }
      } else {
        const body = quotes("P-", N, at, r, kind === "one" ? ONE_VENUE : undefined);
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const t = await ingest(stacks[i]!, body, at, kind === "one" ? quoted : N);
          if (record) times[kind][i]!.push(t);
        }
      }
      const [a, b] = [await digest(stacks[0]!), await digest(stacks[1]!)];
      if (a !== b) {
        const rows = async (st: Stack) =>
          (
            await st.db.query<{ t: string }>(
              `select (to_jsonb(m) - 'inserted_at')::text as t from public.movers m where m.exchange like 'Bench%' order by m.id`,
            )
          ).map((x) => x.t);
        const [ra, rb] = [await rows(stacks[0]!), await rows(stacks[1]!)];
        const diff = ra.map((x, i) => [x, rb[i]]).filter(([x, y]) => x !== y);
        console.log(
          `${ra.length} vs ${rb.length} rows; ${diff.length} differ; first:`,
          diff.slice(0, 2),
        );
        throw new Error(`round ${r} (${kind}): the two databases differ (${a} vs ${b})`);
      }
    };
    const atOnce = VENUES.map(() => postgres(urls[1]!, { max: 1, onnotice: () => {} }));
    const sides = [VENUES.map(() => postgres(urls[0]!, { max: 1, onnotice: () => {} })), atOnce];
    try {
      await scan("all", false);
      if (process.env.PAIR_VENUES_AT_ONCE === "1" && serialBefore) {
        for (let i = 0; i < ROUNDS; i++) await scan("venues", false);
        console.log(
          `${ROUNDS} scans of one call per venue: one after the other ("before") and ${VENUES.length} at once ("after"): identical movers and kept lists after every round`,
        );
        return;
      }
      if (process.env.PAIR_VENUES_AT_ONCE === "1") {
        await scan("venues", false);
        for (const s of stacks) await s.db.query(`select public.pg_stat_statements_reset()`);
        const load0 = loadavg()[0]!;
        for (let i = 0; i < ROUNDS; i++) await scan("venues", true);
        const load1 = loadavg()[0]!;
        const [b, a] = [median(times.venues[0]!), median(times.venues[1]!)];
        const ratios = times.venues[1]!.map((t, i) => t / times.venues[0]![i]!);
        const ends = (i: number) => venueEnds[i]!.map((e) => median(e).toFixed(0)).join(" / ");
        console.log(
          `10k as the scan ingests it (${VENUES.length} venues' calls at once, load ${load0.toFixed(1)} → ${load1.toFixed(1)}): ` +
            `before${grouped[0] ? " (grouped)" : ""} ${b.toFixed(0)} ms (calls done at ${ends(0)}) · ` +
            `after${grouped[1] ? " (grouped)" : ""} ${a.toFixed(0)} ms (calls done at ${ends(1)}) (medians of ${ROUNDS}) · ` +
            `after/before per pair: median ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(" ")}); ` +
            `identical movers and kept lists after every round`,
        );
        if (STATEMENTS) {
          for (const [i, name] of names.entries()) {
            console.log(` ${name} (per scan of three calls):`);
            for (const line of await statements(stacks[i]!, ROUNDS)) console.log(line);
          }
        }
        return;
      }
    } finally {
      await Promise.all([...sides[0]!, ...atOnce].map((c) => c.end()));
    }
    for (const s of stacks) await s.db.query(`select public.pg_stat_statements_reset()`);
    for (let i = 0; i < ROUNDS; i++) await scan("all", true);
    const report = async (kind: "all" | "one", label: string) => {
      const [b, a] = [median(times[kind][0]!), median(times[kind][1]!)];
      const ratios = times[kind][1]!.map((t, i) => t / times[kind][0]![i]!);
      console.log(
        `${label}: before ${b.toFixed(0)} ms · after ${a.toFixed(0)} ms (medians of ${ROUNDS}) · ` +
          `after/before per pair: median ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(" ")})`,
      );
      if (STATEMENTS) {
        for (const [i, name] of names.entries()) {
          console.log(` ${name}:`);
          for (const line of await statements(stacks[i]!, ROUNDS)) console.log(line);
          const kept = await stacks[i]!.db.query<{ w: number; n: number }>(
            `select window_minutes as w, cardinality(ranked) as n from private.movers_top order by 1`,
          );
          console.log(`  kept rankings: ${kept.map((k) => `${k.w}m ${k.n}`).join(", ")}`);
        }
      }
    };
    await report("all", `10k all venues (${N} quoted)`);
    if (process.env.PAIR_ONE_VENUE === "0") return;
    for (const s of stacks) await s.db.query(`select public.pg_stat_statements_reset()`);
    await scan("one", false);
    for (const s of stacks) await s.db.query(`select public.pg_stat_statements_reset()`);
    if (EXPLAIN_MS) {
      const admin2 = postgres(pg.url, { max: 1, onnotice: () => {} });
      await admin2.unsafe(
        `alter system set auto_explain.log_min_duration = '${Number(EXPLAIN_MS)}ms'`,
      );
      await admin2.unsafe(`alter system set auto_explain.log_analyze = on`);
      await admin2.unsafe(`alter system set auto_explain.log_nested_statements = on`);
      await admin2.unsafe(`select pg_reload_conf()`);
      await admin2.end();
    }
    for (let i = 0; i < ROUNDS; i++) await scan("one", true);
    await report("one", `10k one venue (${quoted} quoted)`);
    if (EXPLAIN_MS) {
      const log = path.join(tmp, "explain.log");
      await import("node:fs").then((fs) => fs.copyFileSync(path.join(pg.dir, "log"), log));
      console.log(`plans of the one-venue scans: ${log} (kept: PAIR_KEEP_LOG)`);
      if (process.env.PAIR_KEEP_LOG) {
        await import("node:fs").then((fs) => fs.copyFileSync(log, process.env.PAIR_KEEP_LOG!));
      }
    }
    console.log("identical movers and kept lists after every pair");
  } finally {
    for (const s of stacks) await s.stop();
    await pg.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
