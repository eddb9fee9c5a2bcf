// Issue 25 (decision 0085): scans of different venues run their venue sections (validation,
// instruments, history, the window probes) side by side and their shared section (the movers,
// the rescore by asset, the kept lists) one at a time. On PostgreSQL 15 (PGlite has one
// connection: its scans never overlap), three venues' scans — Binance, Coinbase and a DEX
// network — are held at the shared section's lock together, each holding its own venue's lock,
// then let go in whatever order the server picks. What they store must equal what the same
// scans store one after the other: the moves, the confirmations across venues, the DEX/CEX gap,
// the trust scores; and the kept lists must equal a full ranking of every mover.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type postgresType from "postgres";

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
) {
  const [row] = await db<{ r: { instruments: number; skipped: number } }[]>`
    select public.ingest_scan(${JSON.stringify(quotes(venue, tag, at, i))}::text::jsonb, ${iso(at)}::timestamptz) as r`;
  expect(row!.r).toMatchObject({ skipped: 0 });
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
    for (const tag of [`S${run}`, `C${run}`])
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
    const holder = postgres(postgresUrl!, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    try {
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const hold = holder.begin(async (tx) => {
        await tx`select pg_advisory_xact_lock(hashtext('public.ingest_scan'))`;
        held();
        await released;
      });
      await holding;
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
      release();
      await hold;
      await Promise.all(scans);
    } finally {
      release();
      await Promise.all([...conns, holder].map((c) => c.end()));
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
});
