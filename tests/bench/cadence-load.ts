// Issue 25's load (decision 0033): 3,000 CEX instruments and 2,000 DEX pools at the venues'
// cadences — Binance (2,000 pairs) and Coinbase (1,000) every 2 s, one network's pools of the DEX
// rotation (400 of the 2,000) every 3 s — each venue ingesting on its own with public.ingest_scan
// for 60 s, as the per-venue schedules do. Prints each venue's ingest p50/p95 per batch (aim
// p95 ≤ 300 ms), ticks skipped because that venue's previous ingest still ran, and how busy the
// database and the stack kept the machine's two cores (aim: at most one core, i.e. ≤ 50 %).
// On PostgreSQL it also prints how long the batches waited for the scans' advisory locks
// (pg_stat_activity sampled every 25 ms, decision 0085): the part of a batch's time spent
// behind another venue's batch.
// Where ingest_scan takes a scan_group (decision 0104, round 2), each venue's batches carry the scan
// function's SCAN_GROUP, as the per-venue schedules' scan calls do (Binance's and Coinbase's ticks
// coincide here): a batch in flight beside another leaves the kept lists and the broadcast to it.
// BENCH_CADENCE_GROUP=0 sends them without (the shape before round 2, for a paired run).
import { readdirSync, readFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import type { TempPostgres } from "../support/postgres.ts";
import { SCAN_GROUP } from "../../supabase/functions/_shared/domain/market.ts";
import { takesScanGroup } from "./ingest.ts";
import { percentile } from "./stats.ts";

const SECONDS = Number(process.env.BENCH_CADENCE_SECONDS ?? 60);
const VENUES = [
  { name: "binance", instruments: 2000, batch: 2000, everyMs: 2000, dex: false },
  { name: "coinbase", instruments: 1000, batch: 1000, everyMs: 2000, dex: false },
  { name: "dex", instruments: 2000, batch: 400, everyMs: 3000, dex: true },
] as const;
const CLOCK_TICKS = 100; // USER_HZ on Linux

function quotes(venue: (typeof VENUES)[number], offset: number, at: Date, round: number): string {
  const ts = at.toISOString();
  return JSON.stringify(
    Array.from({ length: venue.batch }, (_, i) => {
      const k = (offset + i) % venue.instruments;
      const symbol = `L${venue.name.toUpperCase()}${k}/USDT`;
      return {
        venueKey: venue.dex ? `ethereum:0xload${venue.name}${k}` : `Load-${venue.name}:${symbol}`,
        symbol,
        exchange: venue.dex ? "Uniswap V3 (Ethereum)" : `Load-${venue.name}`,
        exchangeType: venue.dex ? "dex" : "cex",
        network: venue.dex ? "ethereum" : null,
        source: venue.name,
        selection: venue.dex ? "dex" : venue.name === "coinbase" ? "coinbase" : "cex-major",
        poolUrl: null,
        price: 1 + ((k * 7 + round * 13) % 100) / 1000,
        volume24h: 100_000 + k,
        ts,
      };
    }),
  );
}

/** CPU seconds used so far by the PostgreSQL cluster whose data folder is `dir` (all its processes). */
function postgresCpuSeconds(dir: string): number {
  let postmaster: number | null = null;
  const stats = new Map<number, { ppid: number; cpu: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const cpu = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      stats.set(Number(entry), { ppid: Number(fields[1]), cpu });
      if (postmaster === null) {
        const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
        if (cmd.includes("postgres") && cmd.includes(dir)) postmaster = Number(entry);
      }
    } catch {
      // the process ended meanwhile
    }
  }
  if (postmaster === null) return 0;
  let total = 0;
  for (const [pid, s] of stats) if (pid === postmaster || s.ppid === postmaster) total += s.cpu;
  return total;
}

function processCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * Until `until`, every 25 ms: how many sessions wait for an advisory lock (the scans' locks are
 * the only ones taken here). Returns the summed waiting time in ms (sessions × interval).
 */
async function sampleLockWaits(url: string, until: number): Promise<number> {
  const { default: postgres } = await import("postgres");
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  let waited = 0;
  try {
    let last = performance.now();
    while (performance.now() < until) {
      await new Promise((res) => setTimeout(res, 25));
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and wait_event = 'advisory'`;
      const now = performance.now();
      waited += row!.n * (now - last);
      last = now;
    }
  } finally {
    await sql.end();
  }
  return waited;
}

/** `migrationsDir`: another migrations folder (the profiler's `before`, decision 0094). */
export async function benchCadenceLoad(
  label: string,
  pg?: TempPostgres,
  migrationsDir?: string,
): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-cadence-"));
  let stack: Stack | undefined;
  try {
    stack = await startStack({
      ...defaultOptions({}),
      apiPort: await freePort(),
      dataDir: path.join(tmp, "data"),
      envFile: path.join(tmp, ".env.local"),
      databaseUrl: pg?.url,
      ...(migrationsDir ? { migrationsDir } : {}),
      functions: false,
      cron: false,
      quiet: true,
    });
    const db = stack.db;
    const grouped = process.env.BENCH_CADENCE_GROUP !== "0" && (await takesScanGroup(stack));
    let deferred = 0;
    const ingest = async (body: string, at: Date, group = false): Promise<number> => {
      const t0 = performance.now();
      const [row] = await db.query<{ r: { deferred?: boolean } }>(
        `select public.ingest_scan($1::text::jsonb, $2::timestamptz${group ? `, '${SCAN_GROUP}'::uuid` : ""}) as r`,
        [body, at.toISOString()],
      );
      if (row?.r.deferred) deferred++;
      return performance.now() - t0;
    };
    // Every instrument known and with one sample before the clock starts.
    const start = Date.now() - 20_000;
    for (const venue of VENUES) {
      for (let o = 0; o < venue.instruments; o += venue.batch) {
        await ingest(quotes(venue, o, new Date(start), 0), new Date(start));
      }
    }
    const times = new Map<string, number[]>(VENUES.map((v) => [v.name, []]));
    const skipped = new Map<string, number>(VENUES.map((v) => [v.name, 0]));
    const cpu0 = processCpuSeconds() + (pg ? postgresCpuSeconds(pg.dir) : 0);
    const wall0 = performance.now();
    const until = wall0 + SECONDS * 1000;
    const sampler = pg ? sampleLockWaits(pg.url, until) : Promise.resolve(null);
    await Promise.all(
      VENUES.map(async (venue) => {
        let round = 1;
        let running: Promise<void> | null = null;
        while (performance.now() < until) {
          const tick = performance.now();
          if (running) {
            skipped.set(venue.name, skipped.get(venue.name)! + 1);
          } else {
            const r = round++;
            const offset = (r * venue.batch) % venue.instruments;
            running = ingest(quotes(venue, offset, new Date(), r), new Date(), grouped)
              .then((ms) => void times.get(venue.name)!.push(ms))
              .finally(() => {
                running = null;
              });
          }
          const wait = venue.everyMs - (performance.now() - tick);
          await new Promise((res) => setTimeout(res, Math.max(0, wait)));
        }
        await running;
      }),
    );
    const lockWaitMs = await sampler;
    const wall = (performance.now() - wall0) / 1000;
    const cpu = processCpuSeconds() + (pg ? postgresCpuSeconds(pg.dir) : 0) - cpu0;
    const busy = (100 * cpu) / (wall * 2);
    const all = [...times.values()].flat().sort((a, b) => a - b);
    if (all.length === 0)
      return `${label.padEnd(14)} cadence load: no ingest finished in ${SECONDS} s`;
    const per = VENUES.map((v) => {
      const t = times.get(v.name)!.sort((a, b) => a - b);
      return t.length === 0
        ? `${v.name} no ingest finished`
        : `${v.name} ${v.batch}/${v.everyMs / 1000} s p50 ${percentile(t, 50).toFixed(0)} ms, p95 ${percentile(t, 95).toFixed(0)} ms (${t.length} batches, ${skipped.get(v.name)} ticks skipped)`;
    });
    const p95 = percentile(all, 95);
    return (
      `${label.padEnd(14)} ingest at venue cadence (3,000 CEX + 2,000 pools, ${SECONDS} s): ${per.join("; ")}; ` +
      `all batches p95 ${p95.toFixed(0)} ms (aim ≤ 300 ms: ${p95 <= 300 ? "ok" : "over"}); ` +
      (grouped
        ? `grouped (SCAN_GROUP): ${deferred} of ${all.length} batches left their publication to a batch in flight; `
        : "not grouped; ") +
      (lockWaitMs === null
        ? ""
        : `waiting for the scan locks ${(lockWaitMs / all.length).toFixed(0)} ms a batch (mean); `) +
      `CPU busy ${busy.toFixed(0)} % of 2 cores (database${pg ? " server" : ""} + stack process; aim ≤ 50 %: ${busy <= 50 ? "ok" : "over"})`
    );
  } catch (err) {
    return `${label.padEnd(14)} ingest at venue cadence failed: ${(err as Error).message}`;
  } finally {
    await stack?.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
