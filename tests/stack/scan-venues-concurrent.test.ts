// Issue 25 (decision 0085): scans of different venues run their venue sections (validation,
// instruments, history, the window probes) side by side and their shared section (the movers,
// the rescore by asset, the kept lists) one at a time. On PostgreSQL 15 (PGlite has one
// connection: its scans never overlap), three venues' scans — Binance, Coinbase and a DEX
// network — are held at the shared section's lock together, each holding its own venue's lock,
// then let go in whatever order the server picks. What they store must equal what the same
// scans store one after the other: the moves, the confirmations across venues, the DEX/CEX gap,
// the trust scores; and the kept lists must equal a full ranking of every mover.
// Decision 0104: the calls of one scan (one scan_group) publish the kept lists and the broadcast
// once, at the last call in flight; a call of the scan that fails leaves the others' rows owed,
// and the scan function's empty ingest publishes them. Round 2: every scan call carries one
// group (the scan function's SCAN_GROUP), so per-venue scans whose ticks coincide are grouped
// too; a call waits only for a call in flight (written or waiting), within 1 s or 6 calls.
// Decision 0111: each call writes its venue's movers in its venue section; a shared section never
// waits for a row a call in flight holds: the rescore leaves the row's asset owed to the next
// shared section, and the stale delete leaves the row (it is being quoted again).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type postgresType from "postgres";
import { SCAN_GROUP } from "../../supabase/functions/_shared/domain/market.ts";

const postgresUrl = inject("stack").postgresUrl;
const run = Date.now().toString(36).toUpperCase();
const T1 = Date.now() - 60_000;
const T0 = T1 - 6 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

type Venue = "binance" | "coinbase" | "dex";
/** Prices per asset (before the tag) at T0 and T1; a venue without the asset has none. */
const PRICES: Record<string, Partial<Record<Venue, [number, number]>>> = {
  // Up on all three venues: each row is confirmed on the two others.
  UP: { binance: [1, 1.1], coinbase: [1, 1.1], dex: [1, 1.1] },
  // Flat on the CEX, the pool 20 % above it: the pool carries dex_cex_gap.
  GAP: { binance: [2, 2], dex: [2.4, 2.4] },
  // The pool falls, the pair rises: neither confirms the other.
  SPLIT: { binance: [5, 5.5], dex: [5, 4.5] },
  // Down on Coinbase alone.
  DOWN: { coinbase: [3, 2.7] },
};

function quotes(venue: Venue, tag: string, at: number, i: 0 | 1): object[] {
  return Object.entries(PRICES)
    .filter(([, p]) => p[venue])
    .map(([name, p]) => {
      const symbol = `${name}${tag}/USDT`;
      const price = p[venue]![i];
      if (venue === "dex") {
        return {
          venueKey: `ethereum:0xconc${name.toLowerCase()}${tag.toLowerCase()}`,
          symbol,
          exchange: "Uniswap V3 (Ethereum)",
          exchangeType: "dex",
          network: "ethereum",
          source: "geckoterminal",
          poolUrl: null,
          price,
          volume24h: 500_000,
          volume24hUsd: 500_000,
          liquidityUsd: 2_000_000,
          ts: iso(at),
        };
      }
      const exchange = venue === "binance" ? "Binance" : "Coinbase";
      return {
        venueKey: `${exchange}:${symbol}`,
        symbol,
        exchange,
        exchangeType: "cex",
        network: null,
        source: venue,
        poolUrl: null,
        price,
        volume24h: 3_000_000,
        volume24hUsd: 3_000_000,
        ts: iso(at),
      };
    });
}

const VENUES: Venue[] = ["binance", "coinbase", "dex"];
let sql: ReturnType<typeof postgresType>;

async function ingest(
  db: ReturnType<typeof postgresType>,
  venue: Venue,
  tag: string,
  at: number,
  i: 0 | 1,
  group: string | null = null,
) {
  const [row] = await db<
    { r: { instruments: number; skipped: number; broadcasts: number; deferred?: boolean } }[]
  >`
    select public.ingest_scan(${JSON.stringify(quotes(venue, tag, at, i))}::text::jsonb, ${iso(at)}::timestamptz,
                              ${group}::uuid) as r`;
  expect(row!.r).toMatchObject({ skipped: 0 });
  return row!.r;
}

/**
 * Runs `body` in a transaction on a connection of its own and keeps that transaction open, with
 * the locks `body` took, until `release` (which may be called more than once).
 */
async function holdTransaction(
  url: string,
  body: (tx: postgresType.TransactionSql) => Promise<unknown>,
) {
  const { default: postgres } = await import("postgres");
  const holder = postgres(url, { max: 1, onnotice: () => {} });
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  const done = holder.begin(async (tx) => {
    await body(tx);
    held();
    await released;
  });
  await holding;
  return {
    release: async () => {
      release();
      await done;
      await holder.end();
    },
  };
}

/** Holds advisory lock `key` (one or two keys) on its own connection until released. */
function holdLock(url: string, key: string) {
  return holdTransaction(url, (tx) => tx.unsafe(`select pg_advisory_xact_lock(${key})`));
}

/**
 * Holds the scan group's lock shared on its own connection, as a call of the group in flight
 * does; `written`: its transaction has an id (it wrote), else it has none and waits for nothing
 * (as a call that committed and has not yet released its locks).
 */
function holdGroup(url: string, written: boolean) {
  return holdTransaction(url, async (tx) => {
    await tx`select pg_advisory_xact_lock_shared(hashtext('public.ingest_scan:group'), hashtext(${SCAN_GROUP}))`;
    if (written) await tx`select txid_current()`;
  });
}

async function owedRow() {
  const [row] = await sql<{ n: number; calls: number }[]>`
    select count(*)::int as n, coalesce(max(calls), 0)::int as calls from private.movers_publication_owed`;
  return row!;
}

/** The pids waiting for advisory lock `objid` (objsubid 1: the shared section's lock). */
async function waitingAt(objid: string, count: number) {
  let pids: number[] = [];
  for (let t = 0; t < 300 && pids.length < count; t++) {
    pids = (
      await sql.unsafe<{ pid: number }[]>(
        `select pid from pg_locks where locktype = 'advisory' and not granted and objid = (${objid}::bigint & 4294967295)::oid`,
      )
    ).map((r) => r.pid);
    if (pids.length < count) await new Promise((r) => setTimeout(r, 100));
  }
  return pids;
}

/** The tag's movers, the tag taken out of their names: what a scan decided for each row. */
async function movers(tag: string) {
  return sql<Record<string, unknown>[]>`
    select m.exchange, replace(m.symbol, ${tag}, '') as symbol, replace(m.asset, ${tag}, '') as asset,
           m.price::text, m.price_3hour_ago::text, m.pct::text, m.pct_10sec::text, m.pct_5min::text,
           m.pct_10min::text, m.pct_30min::text, m.volume_24h_usd::text, m.liquidity_usd::text, m.thin,
           m.flags, m.confirmed_on, m.trust_score, m.ts, m.quoted_at
    from public.movers m where m.asset like ${"%" + tag}
    order by m.exchange, m.symbol`;
}

/** The kept lists as stored, then as a full ranking gives them (rolled back), under the scans' lock. */
async function keptAndFull() {
  let kept: unknown[] = [];
  let full: unknown[] = [];
  let rescored = -1;
  await sql
    .begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext('public.ingest_scan'))`;
      const read = () =>
        tx`select window_minutes, entries, ranked from private.movers_top order by window_minutes`;
      kept = await read();
      const [r] = await tx<{ n: number }[]>`select private.movers_rescore() as n`;
      rescored = r!.n;
      await tx`select private.refresh_movers_top()`;
      full = await read();
      throw new Error("rollback");
    })
    .catch((err: Error) => {
      if (err.message !== "rollback") throw err;
    });
  return { kept, full, rescored };
}

describe.runIf(postgresUrl)("scans of different venues at once (PostgreSQL)", () => {
  beforeAll(async () => {
    const { default: postgres } = await import("postgres");
    sql = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    // The same first scans for both runs: every row gets its history before T1.
    for (const tag of [
      `S${run}`,
      `C${run}`,
      `G${run}`,
      `F${run}`,
      `B${run}`,
      `D${run}`,
      `K${run}`,
      `R${run}`,
    ])
      for (const v of VENUES) await ingest(sql, v, tag, T0, 0);
  });
  afterAll(async () => {
    await sql?.end();
  });

  it("store what the same scans store one after the other", async () => {
    const { default: postgres } = await import("postgres");
    // One after the other.
    for (const v of VENUES) await ingest(sql, v, `S${run}`, T1, 1);

    // At once: a fourth connection holds the shared section's lock while the three scans start.
    const conns = VENUES.map(() => postgres(postgresUrl!, { max: 1, onnotice: () => {} }));
    const holder = await holdLock(postgresUrl!, "hashtext('public.ingest_scan')");
    try {
      const scans = VENUES.map((v, i) => ingest(conns[i]!, v, `C${run}`, T1, 1));
      // All three wait at the shared section, each holding its own venue's lock (the two-key
      // advisory lock, objsubid 2): their venue sections ran side by side.
      let waiting: { pid: number; venues: number }[] = [];
      for (let t = 0; t < 300 && waiting.length < VENUES.length; t++) {
        waiting = await sql<{ pid: number; venues: number }[]>`
          select w.pid, (select count(*)::int from pg_locks v
                         where v.pid = w.pid and v.locktype = 'advisory' and v.objsubid = 2 and v.granted) as venues
          from pg_locks w
          where w.locktype = 'advisory' and not w.granted and w.objsubid = 1
            and w.objid = (hashtext('public.ingest_scan')::bigint & 4294967295)::oid`;
        if (waiting.length < VENUES.length) await new Promise((r) => setTimeout(r, 100));
      }
      expect(waiting).toHaveLength(VENUES.length);
      expect(waiting.map((w) => w.venues)).toEqual([1, 1, 1]);
      await holder.release();
      await Promise.all(scans);
    } finally {
      await holder.release();
      await Promise.all(conns.map((c) => c.end()));
    }

    const serial = await movers(`S${run}`);
    const atOnce = await movers(`C${run}`);
    expect(serial).toHaveLength(8);
    expect(atOnce).toEqual(serial);
    // The cross-venue results were decided (the comparison is not of empty results).
    const row = (exchange: string, symbol: string) =>
      serial.find((r) => r.exchange === exchange && r.symbol === symbol)!;
    expect(row("Binance", "UP/USDT").confirmed_on).toEqual(["Coinbase", "Uniswap V3 (Ethereum)"]);
    expect(row("Uniswap V3 (Ethereum)", "UP/USDT").confirmed_on).toEqual(["Binance", "Coinbase"]);
    expect(row("Uniswap V3 (Ethereum)", "GAP/USDT").flags).toContain("dex_cex_gap");
    expect(row("Binance", "SPLIT/USDT").confirmed_on).toEqual([]);
    expect(row("Coinbase", "DOWN/USDT").confirmed_on).toEqual([]);
    expect(Number(row("Coinbase", "DOWN/USDT").pct_5min)).toBe(-10);

    // The kept lists are those of a full ranking, and a full rescore changes nothing.
    const { kept, full, rescored } = await keptAndFull();
    expect(rescored).toBe(0);
    expect(kept).toEqual(full);
  });

  it("publish the calls of one scan once, at the last call, with the same results (decision 0104)", async () => {
    const { default: postgres } = await import("postgres");
    const conns = VENUES.map(() => postgres(postgresUrl!, { max: 1, onnotice: () => {} }));
    const group = crypto.randomUUID();
    try {
      // The three calls of one scan wait at the shared section together, then go one at a time.
      const holder = await holdLock(postgresUrl!, "hashtext('public.ingest_scan')");
      let results: Awaited<ReturnType<typeof ingest>>[];
      try {
        const scans = VENUES.map((v, i) => ingest(conns[i]!, v, `G${run}`, T1, 1, group));
        expect(await waitingAt("hashtext('public.ingest_scan')", VENUES.length)).toHaveLength(3);
        await holder.release();
        results = await Promise.all(scans);
      } finally {
        await holder.release();
      }
      // The first two left their publication to the one after them; the last published all.
      expect(results.filter((r) => r.deferred)).toHaveLength(2);
      expect(results.filter((r) => r.deferred).map((r) => r.broadcasts)).toEqual([0, 0]);
      expect(results.filter((r) => !r.deferred).map((r) => r.broadcasts)).toEqual([7]);
    } finally {
      await Promise.all(conns.map((c) => c.end()));
    }
    const [owed] = await sql<
      { n: number }[]
    >`select count(*)::int as n from private.movers_publication_owed`;
    expect(owed!.n).toBe(0);
    // The same rows as the scans one after the other, and the kept lists a full ranking's.
    expect(await movers(`G${run}`)).toEqual(await movers(`S${run}`));
    const { kept, full, rescored } = await keptAndFull();
    expect(rescored).toBe(0);
    expect(kept).toEqual(full);
  });

  it("leave no row unpublished when a call of the scan fails; the scan's empty ingest publishes it (decision 0104)", async () => {
    const { default: postgres } = await import("postgres");
    const conns = VENUES.map(() => postgres(postgresUrl!, { max: 1, onnotice: () => {} }));
    const group = crypto.randomUUID();
    try {
      // Coinbase's call of the scan is held in its venue section (its venue's lock), in flight;
      // Binance's call runs through and leaves its publication to it.
      const venueLock = "hashtext('public.ingest_scan:venue'), hashtext('Coinbase')";
      const holder = await holdLock(postgresUrl!, venueLock);
      try {
        const coinbase = ingest(conns[1]!, "coinbase", `F${run}`, T1, 1, group).then(
          () => "done",
          (err: Error) => err.message,
        );
        const [venueObjid] = await sql<{ k: string }[]>`select hashtext('Coinbase')::text as k`;
        const [pid] = await waitingAt(venueObjid!.k, 1);
        expect(pid).toBeTypeOf("number");
        const binance = await ingest(conns[0]!, "binance", `F${run}`, T1, 1, group);
        expect(binance).toMatchObject({ deferred: true, broadcasts: 0 });
        const [owed] = await sql<{ n: number }[]>`
          select cardinality(changed) as n from private.movers_publication_owed`;
        expect(owed!.n).toBeGreaterThan(0);
        // The call fails (a statement timeout, a dropped connection).
        await sql`select pg_cancel_backend(${pid!})`;
        expect(await coinbase).toMatch(/cancel/);
      } finally {
        await holder.release();
      }
      const { kept, full } = await keptAndFull();
      expect(kept).not.toEqual(full);
      // The scan function's fallback: an empty ingest of no group.
      const [row] = await sql<{ r: { broadcasts: number } }[]>`
        select public.ingest_scan('[]'::jsonb, ${iso(T1)}::timestamptz) as r`;
      expect(row!.r.broadcasts).toBe(7);
    } finally {
      await Promise.all(conns.map((c) => c.end()));
    }
    const [owed] = await sql<
      { n: number }[]
    >`select count(*)::int as n from private.movers_publication_owed`;
    expect(owed!.n).toBe(0);
    const { kept, full, rescored } = await keptAndFull();
    expect(rescored).toBe(0);
    expect(kept).toEqual(full);
  });

  it("wait only for a call of the group in flight, within 1 s or 6 calls (decision 0104, round 2)", async () => {
    // A holder of the group's lock that has not written and waits for nothing is not in flight
    // (a call that committed holds its locks a moment longer): the call publishes itself.
    const idle = await holdGroup(postgresUrl!, false);
    try {
      const alone = await ingest(sql, "binance", `B${run}`, T1, 1, SCAN_GROUP);
      expect(alone).toMatchObject({ deferred: false, broadcasts: 7 });
    } finally {
      await idle.release();
    }
    expect((await owedRow()).n).toBe(0);

    const busy = await holdGroup(postgresUrl!, true);
    try {
      // One that has written is in flight: another invocation's call leaves its rows to it.
      const left = await ingest(sql, "coinbase", `B${run}`, T1, 1, SCAN_GROUP);
      expect(left).toMatchObject({ deferred: true, broadcasts: 0 });
      expect(await owedRow()).toEqual({ n: 1, calls: 1 });
      // The bound in time: what was first left more than 1 s ago is published, whatever is in
      // flight.
      await sql`update private.movers_publication_owed set first_owed_at = clock_timestamp() - interval '1.5 seconds'`;
      const late = await ingest(sql, "dex", `B${run}`, T1, 1, SCAN_GROUP);
      expect(late).toMatchObject({ deferred: false, broadcasts: 7 });
      expect((await owedRow()).n).toBe(0);
      // The bound in calls: after 6 calls left theirs, the next publishes.
      const again = await ingest(sql, "binance", `D${run}`, T1, 1, SCAN_GROUP);
      expect(again).toMatchObject({ deferred: true, broadcasts: 0 });
      const fifth = await ingest(sql, "coinbase", `D${run}`, T1, 1, SCAN_GROUP);
      expect(fifth).toMatchObject({ deferred: true });
      expect(await owedRow()).toEqual({ n: 1, calls: 2 });
      await sql`update private.movers_publication_owed set calls = 6`;
      const sixth = await ingest(sql, "dex", `D${run}`, T1, 1, SCAN_GROUP);
      expect(sixth).toMatchObject({ deferred: false, broadcasts: 7 });
      expect((await owedRow()).n).toBe(0);
    } finally {
      await busy.release();
    }
    // Every row published: the kept lists are a full ranking's, the rows the serial scans'.
    expect(await movers(`B${run}`)).toEqual(await movers(`S${run}`));
    expect(await movers(`D${run}`)).toEqual(await movers(`S${run}`));
    const { kept, full, rescored } = await keptAndFull();
    expect(rescored).toBe(0);
    expect(kept).toEqual(full);
  });

  it("never wait in the shared section for a row a call in flight holds; its asset is owed (decision 0111)", async () => {
    const tag = `K${run}`;
    const { default: postgres } = await import("postgres");
    // Binance's UP moves at T1; Coinbase's has not been scanned since T0, so nothing confirms it.
    await ingest(sql, "binance", tag, T1, 1);
    // Stale rows: Binance quoted the Z<run> assets 20 minutes before T1, and never since.
    await ingest(sql, "binance", `Z${run}`, T1 - 20 * 60_000, 0);
    const binanceUp = async () => {
      const [row] = await sql<{ confirmed_on: string[] }[]>`
        select confirmed_on from public.movers where exchange = 'Binance' and asset = ${"UP" + tag}`;
      return row!.confirmed_on;
    };
    expect(await binanceUp()).toEqual([]);
    const staleRows = async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from public.movers where asset like ${"%Z" + run}`;
      return row!.n;
    };
    expect(await staleRows()).toBeGreaterThan(0);
    // A call in flight: it wrote Binance's UP row and the stale rows in its venue section (the
    // kept lists deferred, as ingest_scan defers them) and has not committed (it waits for the
    // shared section, or is still in its venue section).
    const inFlight = await holdTransaction(postgresUrl!, async (tx) => {
      await tx`select set_config('app.movers_top_deferred', 'on', true)`;
      await tx.unsafe(
        `update public.movers set ts = ts where (exchange = 'Binance' and asset = 'UP${tag}') or asset like '%Z${run}'`,
      );
    });
    const coinbase = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    try {
      // Coinbase's UP moves the same way: the rescore of UP must confirm Binance's row by
      // Coinbase, but that row is held. The call goes through without waiting for it (the lock
      // timeout makes a wait an error here; in a scan it would be a deadlock).
      await coinbase`set lock_timeout = '3s'`;
      const r = await ingest(coinbase, "coinbase", tag, T1, 1);
      expect(r).toMatchObject({ movers: 2, stale: 0 });
      const [owed] = await sql<{ assets: string[] }[]>`
        select coalesce(array_agg(asset order by asset), '{}') as assets from private.movers_rescore_owed
        where asset like ${"%" + tag}`;
      expect(owed!.assets).toEqual([`UP${tag}`]);
      expect(await staleRows()).toBeGreaterThan(0);
    } finally {
      await inFlight.release();
      await coinbase.end();
    }
    // The next shared section (here the scan function's empty ingest) takes what is owed: Binance's
    // row is confirmed by Coinbase, and the stale row is gone.
    await sql`select public.ingest_scan('[]'::jsonb, ${iso(T1)}::timestamptz)`;
    expect(await binanceUp()).toEqual(["Coinbase"]);
    expect(await staleRows()).toBe(0);
    const [owed] = await sql<{ n: number }[]>`
      select count(*)::int as n from private.movers_rescore_owed where asset like ${"%" + tag}`;
    expect(owed!.n).toBe(0);
    const { kept, full, rescored } = await keptAndFull();
    expect(rescored).toBe(0);
    expect(kept).toEqual(full);
  });

  it("insert anew a row another call's stale delete removed while the scan was writing it (decision 0111)", async () => {
    const tag = `R${run}`;
    const { default: postgres } = await import("postgres");
    const binance = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    // Another call's shared section deletes Binance's UP row as stale and has not committed.
    const pruner = await holdTransaction(postgresUrl!, (tx) =>
      tx.unsafe(`delete from public.movers where exchange = 'Binance' and asset = 'UP${tag}'`),
    );
    const [{ pid }] = await binance<{ pid: number }[]>`select pg_backend_pid() as pid`;
    let scan: Promise<Awaited<ReturnType<typeof ingest>>>;
    try {
      // Binance's scan read the row, and its update waits for the delete's transaction.
      scan = ingest(binance, "binance", tag, T1, 1);
      let waiting = 0;
      for (let t = 0; t < 300 && waiting === 0; t++) {
        const [row] = await sql<{ n: number }[]>`
          select count(*)::int as n from pg_locks
          where locktype = 'transactionid' and not granted and pid = ${pid}`;
        waiting = row!.n;
        if (waiting === 0) await new Promise((r) => setTimeout(r, 50));
      }
      expect(waiting).toBe(1);
    } finally {
      await pruner.release();
    }
    // The delete committed: the update found no row, and the quote's row is inserted anew.
    expect(await scan.finally(() => binance.end())).toMatchObject({ movers: 3 });
    const [row] = await sql<{ price: string; pct_5min: string }[]>`
      select price::text, pct_5min::text from public.movers where exchange = 'Binance' and asset = ${"UP" + tag}`;
    expect(row).toEqual({ price: "1.1", pct_5min: "10.0000" });
  });
});
