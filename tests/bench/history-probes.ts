// The window look-ups of `public.ingest_scan` on their own, before and after a change of the
// history's indexes (decision 0099): two databases on one temporary PostgreSQL 15 cluster, both
// migrated, "after" then given PROBES_AFTER_SQL (by default the candidate of 0099: the primary key
// carrying the price, for index-only look-ups); the bench's
// instruments and history (ingest.ts `seed`) and one scan in both; then the 10,000 instruments'
// eight window look-ups (the statement `refs` of ingest_scan, the same sub-selects) under
// EXPLAIN (ANALYZE, BUFFERS), alternating the databases, first with the history as the seed and
// the scan left it (autovacuum off on the table), then after a VACUUM; and the history insert of
// one scan's 10,000 samples (rolled back) in each state.
//
//   npx tsx tests/bench/history-probes.ts
//   BENCH_SEED_BY_TIME=1 BENCH_PG_SHARED_BUFFERS=256MB PROBES_ROUNDS=9 npx tsx tests/bench/history-probes.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pgCronAvailable, startTempPostgres } from "../support/postgres.ts";
import { startPairStack } from "./pair-stack.ts";
import { ingest, quotes, seed, type Stack } from "./ingest.ts";
import type postgresType from "postgres";

type Sql = ReturnType<typeof postgresType>;

/** The candidate of decision 0099 (measured, not kept). */
export const COVERING_KEY = `alter table public.price_history drop constraint price_history_pkey;
create unique index price_history_pkey on public.price_history (instrument_id, ts) include (price);
alter table public.price_history add constraint price_history_pkey primary key using index price_history_pkey`;
const AFTER_SQL = process.env.PROBES_AFTER_SQL ?? COVERING_KEY;
const N = Number(process.env.PROBES_N ?? 10_000);
const ROUNDS = Number(process.env.PROBES_ROUNDS ?? 5);

const WINDOWS: [string, string, string][] = [
  ["10 seconds", "15 seconds", "5 seconds"],
  ["5 minutes", "450 seconds", "150 seconds"],
  ["10 minutes", "15 minutes", "5 minutes"],
  ["15 minutes", "1350 seconds", "450 seconds"],
  ["20 minutes", "30 minutes", "10 minutes"],
  ["25 minutes", "2250 seconds", "750 seconds"],
  ["30 minutes", "45 minutes", "15 minutes"],
  ["3 hours", "270 minutes", "90 minutes"],
];

/** The look-ups of ingest_scan's `refs` for the bench's instruments at `at`. */
function probes(at: string): string {
  const cols = WINDOWS.map(
    ([w, far, near], i) => `coalesce(
      (select h.price from public.price_history h where h.instrument_id = b.instrument_id
         and h.ts <= b.ts - interval '${w}' and h.ts >= b.ts - interval '${far}' order by h.ts desc limit 1),
      (select h.price from public.price_history h where h.instrument_id = b.instrument_id
         and h.ts > b.ts - interval '${w}' and h.ts <= b.ts - interval '${near}' order by h.ts limit 1)) as r${i}`,
  );
  return `select b.instrument_id, ${cols.join(",\n")}
    from (select i.id as instrument_id, '${at}'::timestamptz as ts from public.instruments i
          where i.exchange like 'Bench%' order by i.id) b`;
}

interface Plan {
  ms: number;
  hit: number;
  read: number;
  heapFetches: number;
  nodes: string[];
}

function walk(node: Record<string, unknown>, acc: Plan): void {
  if (typeof node["Heap Fetches"] === "number") {
    acc.heapFetches += node["Heap Fetches"] as number;
  }
  const t = node["Node Type"] as string;
  if (t?.includes("Index")) acc.nodes.push(t);
  for (const c of (node["Plans"] as Record<string, unknown>[] | undefined) ?? []) walk(c, acc);
}

async function explain(sql: Sql, q: string, rollback = false): Promise<Plan> {
  let out: Plan | undefined;
  const run = async (tx: Sql) => {
    const [row] = await tx.unsafe(`explain (analyze, buffers, timing off, format json) ${q}`);
    const plan = (row as unknown as { "QUERY PLAN": Record<string, unknown>[] })["QUERY PLAN"][0]!;
    const top = plan["Plan"] as Record<string, unknown>;
    out = {
      ms: plan["Execution Time"] as number,
      hit: top["Shared Hit Blocks"] as number,
      read: top["Shared Read Blocks"] as number,
      heapFetches: 0,
      nodes: [],
    };
    walk(top, out);
  };
  if (rollback) {
    await sql
      .begin(async (tx) => {
        await run(tx as unknown as Sql);
        throw new Error("rollback");
      })
      .catch((e: Error) => {
        if (e.message !== "rollback") throw e;
      });
  } else await run(sql);
  return out!;
}

const count = (v: string[]) =>
  [...new Set(v)].map((t) => `${v.filter((x) => x === t).length}× ${t}`).join(", ");
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function main() {
  const pg = await startTempPostgres({ preload: pgCronAvailable() ? ["pg_cron"] : [] });
  const tmp = mkdtempSync(path.join(tmpdir(), "history-probes-"));
  const stacks: Stack[] = [];
  const { default: postgres } = await import("postgres");
  const conns: Sql[] = [];
  try {
    const names = ["before", "after"] as const;
    for (const name of names) {
      const { stack, url } = await startPairStack({
        clusterUrl: pg.url,
        tmp,
        name,
        database: `probes_${name}`,
        skip: null,
      });
      stacks.push(stack);
      if (name === "after") {
        for (const st of AFTER_SQL.split(/;\s*\n/)) if (st.trim()) await stack.db.query(st);
      }
      // Autovacuum would mark the pages all-visible at a moment of its choosing: off here, the
      // VACUUM below says when.
      await stack.db.query(`alter table public.price_history set (autovacuum_enabled = off)`);
      conns.push(postgres(url, { max: 1, onnotice: () => {} }));
    }
    const base = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    for (const s of stacks) await seed(s, "P-", N, base);
    const at = new Date(base.getTime() + 10_000);
    for (const s of stacks) await ingest(s, quotes("P-", N, at, 1), at, N);
    for (const [i, c] of conns.entries()) {
      const [r] = await c`select pg_size_pretty(pg_relation_size('public.price_history')) as heap,
        pg_size_pretty(pg_relation_size('public.price_history_pkey')) as pkey,
        pg_size_pretty(pg_total_relation_size('public.price_history')) as total`;
      console.log(
        `${names[i]}: history heap ${r!.heap}, primary key ${r!.pkey}, total ${r!.total}`,
      );
    }
    const probeAt = new Date(at.getTime() + 10_000).toISOString();
    const insert = (ts: string) =>
      `insert into public.price_history (instrument_id, ts, price, volume_24h, liquidity_usd)
       select i.id, '${ts}'::timestamptz, 1.5, 1000, null from public.instruments i
       where i.exchange like 'Bench%' on conflict (instrument_id, ts) do nothing`;
    for (const state of ["as seeded and scanned", "after VACUUM"]) {
      if (state === "after VACUUM") {
        for (const c of conns) await c.unsafe(`vacuum public.price_history`);
      }
      const res: Plan[][] = [[], []];
      const ins: number[][] = [[], []];
      const plain: number[][] = [[], []];
      for (let r = 0; r < ROUNDS; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          res[i]!.push(await explain(conns[i]!, probes(probeAt)));
          // The same look-ups without EXPLAIN's instrumentation, timed by the client.
          const t0 = performance.now();
          await conns[i]!.unsafe(
            `select sum(${WINDOWS.map((_, w) => `coalesce(p.r${w}, 0)`).join(" + ")}) from (${probes(probeAt)}) p`,
          );
          plain[i]!.push(performance.now() - t0);
          ins[i]!.push((await explain(conns[i]!, insert(probeAt), true)).ms);
        }
      }
      const [sb] = await conns[0]!`show shared_buffers`;
      console.log(
        `-- ${state}, shared_buffers ${sb!.shared_buffers} (${ROUNDS} rounds, alternating; load ${(
          await import("node:os")
        )
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(" ")})`,
      );
      for (const [i, name] of names.entries()) {
        const p = res[i]!;
        console.log(
          `${name}: look-ups ${med(p.map((x) => x.ms)).toFixed(1)} ms (${p.map((x) => x.ms.toFixed(0)).join(" ")}) · ` +
            `buffers hit ${med(p.map((x) => x.hit))} read ${med(p.map((x) => x.read))} · heap fetches ${med(p.map((x) => x.heapFetches))} · ` +
            `${count(p[0]!.nodes)} · without EXPLAIN ${med(plain[i]!).toFixed(1)} ms (${plain[i]!.map((x) => x.toFixed(0)).join(" ")}) · history insert ${med(ins[i]!).toFixed(1)} ms (${ins[i]!.map((x) => x.toFixed(0)).join(" ")})`,
        );
      }
    }
  } finally {
    for (const c of conns) await c.end();
    for (const s of stacks) await s.stop();
    await pg.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
