// Scan ingest on the local stack: time of one `public.ingest_scan(quotes, now())` call (with the
// trust scoring of decision 0046: figures, thin mark, flags, confirmation, trust score, the kept
// lists' rank) for 1k, 5k
// and 10k instruments with 3 hours of history (a sample a minute), the same for 10k instruments
// seen for the first time (empty history), the scan of one venue's third of the 10k (issue 25's
// per-venue cadence, decision 0033: the other venues' movers are left as they are), and the
// latency of the movers feed under 50 concurrent readers. The instruments sit on three venues:
// every third a DEX pool (`Bench DEX`), the others alternately on two CEX venues. The stack runs in this process; quotes are sent as one JSON parameter,
// as the scan function sends them through PostgREST.
// The 10k instruments are also scanned as the scan function ingests them (decision 0096): one call
// per venue, the three venues' calls started together on three connections (PostgreSQL; PGlite has
// one connection and runs them one after the other), timed from the first call's start to the
// last call's end. Each instrument is keyed as the adapters key theirs (decision 0017): a pair by
// its exchange (`Bench A:…`), a pool by its network (`ethereum:0x…`), so each venue's calls take
// their own venue lock (decision 0085), as Binance's, Coinbase's and a network's do.
// Where ingest_scan takes a scan_group (decision 0104), the three calls carry the scan function's
// SCAN_GROUP, as every scan call does since 0104's round 2: three per-venue scans whose ticks
// coincide (three invocations) send exactly these calls, as does one scan of three sources. The
// kept lists and the broadcast are done once, by the last call in flight, and the figure (the last
// call's end) includes them.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { SCAN_GROUP } from "../../supabase/functions/_shared/domain/market.ts";
import { linkMigrations } from "./pair-stack.ts";
import { percentile } from "./stats.ts";
import type postgresType from "postgres";

/** One connection per venue (PostgreSQL), or none (PGlite: the stack's one connection). */
export type VenueConnections = ReturnType<typeof postgresType>[] | null;

const SIZES = (process.env.BENCH_INGEST_SIZES ?? "1000,5000,10000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_INGEST_RUNS ?? 7);
const HISTORY_MINUTES = 180;
const READERS = 50;
const READS_PER_READER = 20;
const AIMS = { ms10k: 500, ratio: 12, fullVsEmpty: 2 };
/** The venue of instrument g (0-based): every third a DEX pool, the others on two CEX venues. */
export const VENUE_OF = (g: number) =>
  g % 3 === 0 ? "Bench DEX" : g % 3 === 1 ? "Bench A" : "Bench B";
/** The venue the one-venue scans quote. */
export const ONE_VENUE = "Bench A";
/** The three venues, in the order their calls are started. */
export const VENUES = ["Bench DEX", "Bench A", "Bench B"] as const;

/** The venue key of instrument g, as the adapters key theirs: `exchange:symbol`, `network:pool`. */
export const VENUE_KEY = (prefix: string, g: number) =>
  g % 3 === 0
    ? `ethereum:0xbench${prefix.toLowerCase()}${g + 1}`
    : `${VENUE_OF(g)}:${prefix}${g + 1}/USDT`;

export type Stack = Awaited<ReturnType<typeof startStack>>;

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * N quotes shaped like market.ts `Quote`, every one at `at`; with `venue`, only that venue's
 * share of the N instruments.
 */
export function quotes(prefix: string, n: number, at: Date, round: number, venue?: string): string {
  const ts = at.toISOString();
  const all = Array.from({ length: n }, (_, g) => ({
    // Keyed as the adapters key their quotes (decision 0017).
    venueKey: VENUE_KEY(prefix, g),
    symbol: `${prefix}${g + 1}/USDT`,
    exchange: VENUE_OF(g),
    exchangeType: g % 3 === 0 ? "dex" : "cex",
    network: g % 3 === 0 ? "ethereum" : null,
    source: "simulated",
    selection: g % 3 === 0 ? "dex" : "cex-major",
    poolUrl: g % 3 === 0 ? `https://pool.bench/${prefix}${g + 1}` : null,
    price: 1 + ((g * 7 + round * 13) % 100) / 100,
    volume24h: 1000 + g,
    ts,
    // The liquidity figures the scoring reads (issue 26): a reserve, a name and an age for pools
    // (every 30th thin), a spread for the pairs.
    ...(g % 3 === 0
      ? {
          liquidityUsd: g % 30 === 0 ? 50_000 : 2_000_000 - round * 1_000,
          poolName: `${prefix}${g + 1} / USDT 0.3%`,
          poolCreatedAt: "2026-01-01T00:00:00Z",
        }
      : { spreadPct: 0.05 }),
  }));
  return JSON.stringify(venue ? all.filter((q) => q.exchange === venue) : all);
}

/** How many of N bench instruments sit on `venue`. */
export function countOn(venue: string, n: number): number {
  return Array.from({ length: n }, (_, g) => VENUE_OF(g)).filter((v) => v === venue).length;
}

/**
 * One scan at `at`, the quotes' own time. The quotes go as text (a driver would JSON-encode a
 * string bound to jsonb once more). The scan's time is the quotes' time: with `now()` the scans
 * "10 s apart" ran a second apart, so their quotes were up to a minute ahead of the scan and
 * ingest_scan skipped them all (a venue clock more than 5 s ahead is refused) — those scans
 * measured validation only. A scan that accepts fewer quotes than it was sent fails the bench.
 */
export async function ingest(stack: Stack, body: string, at: Date, n: number): Promise<number> {
  const t0 = performance.now();
  const [row] = await stack.db.query<{ r: { instruments: number } }>(
    `select public.ingest_scan($1::text::jsonb, $2) as r`,
    [body, at.toISOString()],
  );
  const ms = performance.now() - t0;
  if (row!.r.instruments !== n) {
    throw new Error(`ingest_scan accepted ${row!.r.instruments} of ${n} quotes`);
  }
  return ms;
}

/**
 * The scan at `at` as the scan function makes it (decision 0096): one `ingest_scan` call per
 * venue with that venue's quotes. With `conns` (PostgreSQL) the three calls start together, each
 * on its own connection; without (PGlite) they run one after the other on the stack's connection.
 * Returns the wall time from the first call's start to the last call's end, and when each call
 * ended (from the first call's start, in the order they ended). Every call must accept all its
 * venue's quotes. With `grouped` (decision 0104) the calls carry SCAN_GROUP, as every scan
 * function call does; `deferred` counts the calls that left the publication to a later one.
 */
export async function ingestVenues(
  stack: Stack,
  conns: VenueConnections,
  prefix: string,
  n: number,
  at: Date,
  round: number,
  grouped = false,
): Promise<{ wall: number; ends: number[]; deferred: number }> {
  const group = grouped ? SCAN_GROUP : null;
  let deferred = 0;
  const bodies = VENUES.map((v) => ({
    v,
    body: quotes(prefix, n, at, round, v),
    n: countOn(v, n),
  }));
  const check = (venue: string, r: { instruments: number; deferred?: boolean }, want: number) => {
    if (r.instruments !== want) {
      throw new Error(`ingest_scan (${venue}) accepted ${r.instruments} of ${want} quotes`);
    }
    if (r.deferred) deferred++;
  };
  // The scan_group argument only where asked (a database without decision 0104 has two).
  const args = group ? `, '${group}'::uuid` : "";
  const ends: number[] = [];
  const t0 = performance.now();
  if (conns) {
    await Promise.all(
      bodies.map(async ({ v, body, n: want }, i) => {
        const [row] = await conns[i]!.unsafe<{ r: { instruments: number; deferred?: boolean } }[]>(
          `select public.ingest_scan($1::text::jsonb, $2::timestamptz${args}) as r`,
          [body, at.toISOString()],
        );
        ends.push(performance.now() - t0);
        check(v, row!.r, want);
      }),
    );
  } else {
    for (const { v, body, n: want } of bodies) {
      const [row] = await stack.db.query<{ r: { instruments: number; deferred?: boolean } }>(
        `select public.ingest_scan($1::text::jsonb, $2${args}) as r`,
        [body, at.toISOString()],
      );
      ends.push(performance.now() - t0);
      check(v, row!.r, want);
    }
  }
  return { wall: performance.now() - t0, ends, deferred };
}

/** Whether ingest_scan takes a scan_group (decision 0104): the scan's calls are then grouped. */
export async function takesScanGroup(stack: Stack): Promise<boolean> {
  const [row] = await stack.db.query<{ ok: boolean }>(
    `select exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                    where n.nspname = 'public' and p.proname = 'ingest_scan'
                      and 'scan_group' = any (p.proargnames)) as ok`,
  );
  return row!.ok;
}

/**
 * The precondition of the scan-shaped figure: the bench's venues fall in three different venue
 * locks (decision 0085: the first part of the venue key), as Binance, Coinbase and a network do.
 */
async function distinctVenueLocks(stack: Stack, prefix: string): Promise<number> {
  const [row] = await stack.db.query<{ n: number }>(
    `select count(distinct hashtext(split_part(venue_key, ':', 1)))::int as n
     from public.instruments where exchange like 'Bench%' and symbol like $1 || '%'`,
    [prefix],
  );
  return row!.n;
}

/**
 * What the stack test `scan-venues-concurrent` checks after its scans at once, on the bench's
 * movers: a full rescore changes nothing and the kept lists agree with a full ranking (rolled
 * back): the same entries (the first 100 rows the feed serves), and each window's kept ranking
 * the start of the full one. A merged ranking is exact down to its cut (decisions 0053, 0068) and
 * may hold fewer than the full ranking's 300 ids; the stack test's few rows never reach the cut.
 */
async function keptListsHold(stack: Stack): Promise<boolean> {
  let same = false;
  await stack.db
    .transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtext('public.ingest_scan'))`);
      const read = () =>
        tx.query<{ window_minutes: number; entries: unknown; ranked: string[] }>(
          `select window_minutes, entries, ranked::text[] from private.movers_top order by window_minutes`,
        );
      const kept = await read();
      const [r] = await tx.query<{ n: number }>(`select private.movers_rescore() as n`);
      await tx.query(`select private.refresh_movers_top()`);
      const full = await read();
      same =
        r!.n === 0 &&
        kept.length === full.length &&
        kept.every((k, i) => {
          const f = full[i]!;
          return (
            k.window_minutes === f.window_minutes &&
            JSON.stringify(k.entries) === JSON.stringify(f.entries) &&
            k.ranked.length >= Math.min(100, f.ranked.length) &&
            k.ranked.every((id, j) => id === f.ranked[j])
          );
        });
      throw new Error("rollback");
    })
    .catch((err: Error) => {
      if (err.message !== "rollback") throw err;
    });
  return same;
}

/**
 * Instruments `prefix1..N` with a sample a minute for the 3 hours before `base` (now by default),
 * in two statements; the paired profiler (ingest-pair.ts) gives every database the same `base`.
 */
export async function seed(
  stack: Stack,
  prefix: string,
  n: number,
  base: Date = new Date(),
): Promise<void> {
  await stack.db.query(
    `insert into public.instruments (venue_key, symbol, exchange, exchange_type, network, source, pool_url)
     select case when (g - 1) % 3 = 0 then 'ethereum:0xbench' || lower($1) || g
                 else case (g - 1) % 3 when 1 then 'Bench A' else 'Bench B' end || ':' || $1 || g || '/USDT' end,
            $1 || g || '/USDT',
            case (g - 1) % 3 when 0 then 'Bench DEX' when 1 then 'Bench A' else 'Bench B' end,
            case when (g - 1) % 3 = 0 then 'dex' else 'cex' end::public.exchange_type,
            case when (g - 1) % 3 = 0 then 'ethereum' end, 'simulated',
            case when (g - 1) % 3 = 0 then 'https://pool.bench/' || $1 || g end
     from generate_series(1, $2::int) g`,
    [prefix, n],
  );
  await stack.db.query(
    `insert into public.price_history (instrument_id, ts, price, volume_24h)
     select i.id, date_trunc('minute', $3::timestamptz) - make_interval(mins => m),
            1 + (i.id % 97) / 100.0 + m / 1000.0, 1000
     from public.instruments i cross join generate_series(1, $2::int) m
     where i.exchange like 'Bench%' and i.symbol like $1 || '%'` +
      // BENCH_SEED_BY_TIME=1 (decision 0099): the samples written minute by minute, every
      // instrument's sample of a minute together, as the scans write them; by default each
      // instrument's 3 hours are written together (its samples on a few neighbouring pages).
      (process.env.BENCH_SEED_BY_TIME === "1" ? ` order by m desc, i.id` : ""),
    [prefix, HISTORY_MINUTES, base.toISOString()],
  );
  await stack.db.query(`analyze public.instruments`);
  // BENCH_INGEST_VACUUM=1 (decision 0099): the seeded history vacuumed (its pages all-visible),
  // as a production table's older samples are; by default analyzed only, and autovacuum passes
  // the 1.8 million seeded rows at a moment of its own.
  await stack.db.query(
    process.env.BENCH_INGEST_VACUUM === "1"
      ? `vacuum (analyze) public.price_history`
      : `analyze public.price_history`,
  );
}

/**
 * Median of RUNS scans after one warm-up; each scan is 10 s after the previous one. Then, with
 * `oneVenue`, RUNS scans (after a warm-up) of ONE_VENUE's instruments only, continuing 10 s apart:
 * the other venues' movers stay as the all-venues scans left them.
 */
async function timeScans(
  stack: Stack,
  prefix: string,
  n: number,
  oneVenue = false,
  conns: VenueConnections = null,
): Promise<{
  all: number;
  one?: { ms: number; quoted: number };
  venues?: { ms: number; ends: number[]; grouped: boolean };
}> {
  const start = Date.now();
  await ingest(stack, quotes(prefix, n, new Date(start), 0), new Date(start), n);
  const times: number[] = [];
  for (let r = 1; r <= RUNS; r++) {
    const at = new Date(start + r * 10_000);
    times.push(await ingest(stack, quotes(prefix, n, at, r), at, n));
  }
  if (!oneVenue) return { all: median(times) };
  const quoted = countOn(ONE_VENUE, n);
  const one: number[] = [];
  for (let r = RUNS + 1; r <= 2 * RUNS + 1; r++) {
    const at = new Date(start + r * 10_000);
    const t = await ingest(stack, quotes(prefix, n, at, r, ONE_VENUE), at, quoted);
    if (r > RUNS + 1) one.push(t); // the first is a warm-up
  }
  // As the scan ingests it: the three venues' calls at once, continuing 10 s apart (after a
  // warm-up), from the state the one-venue scans left.
  const locks = await distinctVenueLocks(stack, prefix);
  if (locks !== VENUES.length) {
    throw new Error(`the bench's ${VENUES.length} venues fall in ${locks} venue locks`);
  }
  const venues: number[] = [];
  // Per place (the first call to end, the second, the last): when it ended.
  const ends: number[][] = VENUES.map(() => []);
  const grouped = await takesScanGroup(stack);
  for (let r = 2 * RUNS + 2; r <= 3 * RUNS + 2; r++) {
    const at = new Date(start + r * 10_000);
    const t = await ingestVenues(stack, conns, prefix, n, at, r, grouped);
    if (r > 2 * RUNS + 2) {
      venues.push(t.wall);
      t.ends.forEach((e, i) => ends[i]!.push(e));
    }
  }
  if (!(await keptListsHold(stack))) {
    throw new Error("after the venues' calls at once the kept lists differ from a full ranking");
  }
  return {
    all: median(times),
    one: { ms: median(one), quoted },
    venues: { ms: median(venues), ends: ends.map(median), grouped },
  };
}

/** Median of RUNS first scans of N instruments never seen before, each on an empty market. */
async function timeEmpty(stack: Stack, n: number): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    await clearMarket(stack);
    const at = new Date();
    const t = await ingest(stack, quotes(`EMPTY${r}-`, n, at, r), at, n);
    if (r > 0) times.push(t); // the first is a warm-up
  }
  return median(times);
}

/** No bench instruments, movers or history left. */
async function clearMarket(stack: Stack): Promise<void> {
  await stack.db.query(`truncate public.price_history`);
  await stack.db.query(`delete from public.instruments where exchange like 'Bench%'`);
}

/** p95 of movers_feed(window) (first 100 rows) as an enterprise subscriber, 50 readers at once. */
async function readers(stack: Stack): Promise<{ p50: number; p95: number; rows: number }> {
  const key = stack.secrets.publishableKey;
  const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: key, "content-type": "application/json" },
    body: JSON.stringify({ email: "enterprise@demo.local", password: DEMO_PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const headers = {
    apikey: key,
    authorization: `Bearer ${access_token}`,
    "content-type": "application/json",
  };
  let rows = 0;
  const read = async (i: number) => {
    const window = [0, 5, 10, 15, 20, 25, 30][i % 7];
    const res = await fetch(`${stack.url}/rest/v1/rpc/movers_feed?limit=100`, {
      method: "POST",
      headers,
      body: JSON.stringify({ window_minutes: window }),
    });
    const data = (await res.json()) as unknown[];
    if (res.status !== 200) throw new Error(`movers_feed failed with ${res.status}`);
    rows = data.length;
  };
  for (let i = 0; i < 5; i++) await read(i);
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: READERS }, async (_, r) => {
      for (let i = 0; i < READS_PER_READER; i++) {
        const t0 = performance.now();
        await read(r + i);
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), rows };
}

export async function benchIngest(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-ingest-"));
  // BENCH_HOLD_OUT=<prefix> (decision 0099): migrate without the migrations whose file name starts
  // with it, for a "before" run paired with an "after" run in the same minutes.
  const holdOut = process.env.BENCH_HOLD_OUT;
  let migrationsDir: string | undefined;
  if (holdOut) {
    migrationsDir = path.join(tmp, "migrations");
    mkdirSync(migrationsDir);
    linkMigrations(migrationsDir, holdOut);
  }
  const stack = await startStack({
    ...defaultOptions({}),
    ...(migrationsDir ? { migrationsDir } : {}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    // No candle rollup or retention job on the same two cores while the scans are timed (their
    // rollup of the 10k instruments' history ran beside the scans: decision 0068).
    cron: false,
    quiet: true,
  });
  // One connection per venue for the scan-shaped figure (PostgreSQL only).
  let conns: VenueConnections = null;
  try {
    if (databaseUrl) {
      const { default: postgres } = await import("postgres");
      conns = VENUES.map(() => postgres(databaseUrl, { max: 1, onnotice: () => {} }));
      for (const c of conns) await c`select 1`;
    }
    const full = new Map<number, number>();
    let feed = { p50: 0, p95: 0, rows: 0 };
    let one: { ms: number; quoted: number } | undefined;
    let venues = { ms: 0, ends: [] as number[], grouped: false };
    for (const n of SIZES) {
      // Each size starts from an empty market, so the history holds exactly N instruments.
      await clearMarket(stack);
      const prefix = `B${n}-`;
      await seed(stack, prefix, n);
      const largestSize = n === Math.max(...SIZES);
      const t = await timeScans(stack, prefix, n, largestSize, conns);
      full.set(n, t.all);
      if (largestSize) {
        one = t.one;
        venues = t.venues!;
        feed = await readers(stack);
      }
    }
    const largest = Math.max(...SIZES);
    const smallest = Math.min(...SIZES);
    const empty = await timeEmpty(stack, largest);
    const fullLargest = full.get(largest)!;
    const ratio = fullLargest / full.get(smallest)!;
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    const mark = (ok: boolean) => (ok ? "ok" : "over");
    return (
      `${label.padEnd(14)} ingest_scan (median of ${RUNS}, ${HISTORY_MINUTES} samples of history each): ` +
      SIZES.map((n) =>
        n === largest
          ? `${n / 1000}k in one call ${ms(full.get(n)!)}`
          : `${n / 1000}k ${ms(full.get(n)!)}`,
      ).join(" · ") +
      ` · ${largest / 1000}k as the scan ingests it (${VENUES.length} venues' calls ` +
      (conns ? "at once, 3 connections" : "one after the other: PGlite has one connection") +
      (venues.grouped ? ", one publication" : "") +
      `) ${ms(venues.ms)}, the calls done at ${venues.ends.map((e) => e.toFixed(0)).join(" / ")} ms ` +
      `(aim ${largest / 1000}k ≤ ${AIMS.ms10k} ms: ` +
      (conns ? mark(venues.ms <= AIMS.ms10k) : "not judged on one connection") +
      `; one call ${mark(fullLargest <= AIMS.ms10k)}) · ` +
      `${largest / 1000}k, one venue's ${one!.quoted.toLocaleString("en")} quoted ${ms(one!.ms)} · ` +
      `${largest / 1000}k/${smallest / 1000}k ${ratio.toFixed(1)} (aim ≤ ${AIMS.ratio}: ${mark(ratio <= AIMS.ratio)}) · ` +
      `${largest / 1000}k new instruments (empty history) ${ms(empty)}, full/empty ${(fullLargest / empty).toFixed(2)}× ` +
      `(aim ≤ ${AIMS.fullVsEmpty}×: ${mark(fullLargest / empty <= AIMS.fullVsEmpty)}) · ` +
      `movers_feed (${feed.rows} rows) under ${READERS} concurrent readers × ${READS_PER_READER}: ` +
      `p50 ${feed.p50.toFixed(1)} ms · p95 ${feed.p95.toFixed(1)} ms`
    );
  } finally {
    await Promise.all((conns ?? []).map((c) => c.end()));
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
