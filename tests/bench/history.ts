// Candle history (migration 20261125400000, decision 0035): what the rollup job costs and what the
// candles weigh. 1,000 instruments sampled every 10 s (one scan each); the job runs once a
// minute on a simulated clock, recomputing from its mark (10 minutes back), and the median run is
// reported, with its share per scan (6 scans a minute). Storage: 100 instruments with full
// retention (7 days of 5-minute candles, 90 days of hourly ones), measured with
// pg_total_relation_size (table + primary key + bucket index) and scaled to 1,000.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { percentile } from "./stats.ts";

const INSTRUMENTS = 1000;
const STORAGE_INSTRUMENTS = 100;
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 7);
const SCAN_SECONDS = 10;
/** Aim: the job's share of a scan stays a small part of ingest_scan's 500 ms budget at 10k. */
const AIM_MS_PER_SCAN = 25;

type Stack = Awaited<ReturnType<typeof startStack>>;

async function one<T>(stack: Stack, sql: string, params: unknown[] = []): Promise<T> {
  const rows = await stack.db.query<T>(sql, params);
  return rows[0] as T;
}

export async function benchHistory(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-history-"));
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
  try {
    await stack.db.query(`delete from public.instruments`);
    await stack.db.query(
      `insert into public.instruments (venue_key, symbol, exchange, exchange_type, source)
       select 'Bench:H' || g || '/USDT', 'H' || g || '/USDT', 'Bench', 'cex', 'simulated'
       from generate_series(1, $1::int) g`,
      [INSTRUMENTS],
    );
    // The clock: T0 is a whole hour; samples every 10 s from T0 − 20 min to T0 + RUNS + 1 min.
    const { t0 } = await one<{ t0: string }>(
      stack,
      `select (to_timestamp(floor(extract(epoch from now()) / 3600) * 3600) - interval '1 hour')::text as t0`,
    );
    await stack.db.query(
      `insert into public.price_history (instrument_id, ts, price, volume_24h)
       select i.id, $1::timestamptz + make_interval(secs => s * ${SCAN_SECONDS}),
              1 + (i.id % 97) / 100.0 + (s % 37) / 1000.0, 1000 + s
       from public.instruments i cross join generate_series(-120, $2::int) s`,
      [t0, (RUNS + 1) * 6],
    );
    await stack.db.query(`analyze public.price_history`);
    // Warm-up: roll the first 20 minutes and set the mark.
    await stack.db.query(
      `select * from private.rollup_candles($1::timestamptz, $1::timestamptz - interval '20 minutes')`,
      [t0],
    );
    const times: number[] = [];
    let written = 0;
    for (let r = 1; r <= RUNS; r++) {
      const s = performance.now();
      const row = await one<{ candles_5m: number }>(
        stack,
        `select * from private.rollup_candles($1::timestamptz + make_interval(mins => $2::int))`,
        [t0, r],
      );
      times.push(performance.now() - s);
      written += Number(row.candles_5m);
    }
    if (written === 0) return `${label.padEnd(14)} candle rollup: failed, the job wrote no candle`;
    times.sort((a, b) => a - b);
    const run = percentile(times, 50);
    const perScan = run / (60 / SCAN_SECONDS);

    // Storage at full retention for STORAGE_INSTRUMENTS, scaled to 1,000.
    await stack.db.query(`truncate public.candles_5m, public.candles_1h`);
    await stack.db.query(
      `insert into public.candles_5m (instrument_id, bucket, open, high, low, close, volume, samples)
       select i.id, to_timestamp(floor(extract(epoch from now()) / 300) * 300) - make_interval(mins => 5 * k),
              1.234567 + k / 1e6, 1.244567, 1.224567, 1.238567 + k / 1e6, 12345.678901, 30
       from (select id from public.instruments order by id limit $1::int) i cross join generate_series(0, 7 * 288 - 1) k`,
      [STORAGE_INSTRUMENTS],
    );
    await stack.db.query(
      `insert into public.candles_1h (instrument_id, bucket, open, high, low, close, volume, samples)
       select i.id, to_timestamp(floor(extract(epoch from now()) / 3600) * 3600) - make_interval(hours => k),
              1.234567 + k / 1e6, 1.244567, 1.224567, 1.238567 + k / 1e6, 148148.144, 360
       from (select id from public.instruments order by id limit $1::int) i cross join generate_series(0, 90 * 24 - 1) k`,
      [STORAGE_INSTRUMENTS],
    );
    await stack.db.query(`vacuum analyze public.candles_5m`);
    await stack.db.query(`vacuum analyze public.candles_1h`);
    const size = await one<{ five: string; hour: string; rows: string }>(
      stack,
      `select pg_total_relation_size('public.candles_5m')::text as five,
              pg_total_relation_size('public.candles_1h')::text as hour,
              ((select count(*) from public.candles_5m) + (select count(*) from public.candles_1h))::text as rows`,
    );
    const scale = 1000 / STORAGE_INSTRUMENTS;
    const mb = (bytes: string) => `${((Number(bytes) * scale) / 1024 / 1024).toFixed(0)} MB`;
    if (!(Number(size.five) > 0 && Number(size.hour) > 0)) {
      return `${label.padEnd(14)} candle rollup: failed, the candle tables' size could not be read`;
    }
    return (
      `${label.padEnd(14)} candle rollup (${INSTRUMENTS.toLocaleString("en")} instruments, a scan every ${SCAN_SECONDS} s, one run a minute, median of ${RUNS}): ` +
      `${run.toFixed(0)} ms per run · ${perScan.toFixed(1)} ms per scan (aim ≤ ${AIM_MS_PER_SCAN} ms: ${perScan <= AIM_MS_PER_SCAN ? "ok" : "over"}) · ` +
      `storage per 1,000 instruments at full retention (${(Number(size.rows) * scale).toLocaleString("en")} candles, measured on ${STORAGE_INSTRUMENTS}): ` +
      `5-minute 7 d ${mb(size.five)} · hourly 90 d ${mb(size.hour)} · total ${mb(String(Number(size.five) + Number(size.hour)))}`
    );
  } catch (err) {
    return `${label.padEnd(14)} candle rollup: failed, ${(err as Error).message}`;
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
