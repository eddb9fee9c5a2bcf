// Migration 20261123300000 (decision 0017) on a database that already holds market data: every
// instrument keeps its id, its history and its mover; each gets its venue key (a DEX pool from
// its link's address, a CEX market from exchange and symbol); two old rows that name one pool
// (a DEX renamed) do not stop the migration; and the next scan's quotes find the old rows.
// Runs on PGlite, or on a database of the temporary PostgreSQL 15 when STACK_DB=postgres.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { applyMigrations } from "../../devstack/migrate.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";

const MIGRATION = "20261123300000";
const tmp = mkdtempSync(path.join(tmpdir(), "venue-key-migration-"));
const postgresUrl = inject("stack").postgresUrl;
let stack: Stack;

async function databaseUrl(): Promise<string | undefined> {
  if (!postgresUrl) return undefined;
  const admin = postgres(postgresUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database venue_key_migration`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = "/venue_key_migration";
  return url.toString();
}

const POOL = "0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640";
const RENAMED = "0x172fcd41e0913e95784454622d1c3724f546f849";
const T = Date.parse("2026-06-01T12:00:00Z");
const at = (minutesBefore: number) => new Date(T - minutesBefore * 60_000).toISOString();

beforeAll(async () => {
  // The migrations before this one.
  const before = path.join(tmp, "migrations");
  mkdirSync(before);
  const all = path.join(ROOT, "supabase/migrations");
  for (const f of readdirSync(all)) {
    if (f.endsWith(".sql") && f.slice(0, 14) < MIGRATION) {
      copyFileSync(path.join(all, f), path.join(before, f));
    }
  }
  mkdirSync(path.join(tmp, "data"));
  stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: await databaseUrl(),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    migrationsDir: before,
    seedFile: undefined,
    functions: false,
    cron: false,
    quiet: true,
  });
  const db = stack.db;
  // Market data as the old (symbol, exchange) identity stored it.
  await db.query(
    `insert into public.instruments (symbol, exchange, exchange_type, network, source, pool_url) values
       ('BTC/USDT', 'Binance', 'cex', null, 'binance', 'https://www.binance.com/en/trade/BTC_USDT?type=spot'),
       -- the pool link as GeckoTerminal printed it once, in checksum case
       ('WETH/USDC', 'Uniswap V3 (Ethereum)', 'dex', 'ethereum', 'dex',
        'https://www.geckoterminal.com/eth/pools/${POOL.toUpperCase().replace("0X", "0x")}'),
       -- one pool under two DEX names (a rename of the DEX's text): the newer name has the newer samples
       ('USDT/WBNB', 'Pancakeswap V3 (BSC)', 'dex', 'bsc', 'dex', 'https://www.geckoterminal.com/bsc/pools/${RENAMED}'),
       ('USDT/WBNB', 'PancakeSwap V3 (BSC)', 'dex', 'bsc', 'dex', 'https://www.geckoterminal.com/bsc/pools/${RENAMED}'),
       -- a pool whose link is unknown
       ('OLD/WETH', 'Uniswap V2 (Ethereum)', 'dex', 'ethereum', 'simulated', null),
       -- a Solana pool: base58, case kept
       ('WIF/SOL', 'Raydium (Solana)', 'dex', 'solana', 'dex',
        'https://www.geckoterminal.com/solana/pools/EP2ib6dYdEeqD8MfE2ezHCxX3kP3K2eLKkirfPm5eyMx')`,
  );
  await db.query(
    `insert into public.price_history (instrument_id, ts, price, volume_24h)
     select i.id, s.ts, s.price, 1000
     from public.instruments i
     cross join lateral (values ($1::timestamptz, 1.0), ($2::timestamptz, 1.01), ($3::timestamptz, 1.02)) s (ts, price)
     where not (i.exchange = 'PancakeSwap V3 (BSC)' and s.ts < $3::timestamptz)
       and not (i.exchange = 'Pancakeswap V3 (BSC)' and s.ts = $3::timestamptz)`,
    [at(20), at(10), at(1)],
  );
  await db.query(
    `insert into public.movers (instrument_id, symbol, exchange, exchange_type, network, source, pool_url, price, pct, ts)
     select i.id, i.symbol, i.exchange, i.exchange_type, i.network, i.source, i.pool_url, 1.02, 2, $1
     from public.instruments i`,
    [at(1)],
  );
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

type Row = {
  id: string | number;
  symbol: string;
  exchange: string;
  venue_key: string;
  samples: string | number;
};

describe("migration 20261123300000 on a database with market data", () => {
  it("keys every instrument, keeping its id, history and mover", async () => {
    const db = stack.db;
    const before = await db.query<{
      id: string | number;
      symbol: string;
      exchange: string;
      samples: string | number;
    }>(
      `select i.id, i.symbol, i.exchange,
              (select count(*) from public.price_history h where h.instrument_id = i.id) as samples
       from public.instruments i order by i.id`,
    );
    const movers = await db.query<{ n: string | number }>(
      `select count(*) as n from public.movers`,
    );

    const { applied } = await applyMigrations(db, {
      migrationsDir: path.join(ROOT, "supabase/migrations"),
    });
    expect(applied[0]).toBe(`${MIGRATION}_instrument_venue_key.sql`);

    const after = await db.query<Row>(
      `select i.id, i.symbol, i.exchange, i.venue_key,
              (select count(*) from public.price_history h where h.instrument_id = i.id) as samples
       from public.instruments i order by i.id`,
    );
    expect(
      after.map(({ id, symbol, exchange, samples }) => ({ id, symbol, exchange, samples })),
    ).toEqual(before);
    expect(after.map((r) => r.venue_key)).toEqual([
      "Binance:BTC/USDT",
      `ethereum:${POOL}`,
      // The older name of the renamed pool keeps its own key; the one with the newest sample takes the pool's.
      "Pancakeswap V3 (BSC):USDT/WBNB",
      `bsc:${RENAMED}`,
      "Uniswap V2 (Ethereum):OLD/WETH",
      "solana:EP2ib6dYdEeqD8MfE2ezHCxX3kP3K2eLKkirfPm5eyMx",
    ]);
    expect(await db.query(`select count(*) as n from public.movers`)).toEqual(movers);
  });

  it("lets the next scan's quotes find the stored pools and markets", async () => {
    const db = stack.db;
    const quote = (venueKey: string, symbol: string, exchange: string, type: "cex" | "dex") => ({
      venueKey,
      symbol,
      exchange,
      exchangeType: type,
      network: type === "dex" ? venueKey.split(":")[0] : null,
      source: type === "dex" ? "dex" : "binance",
      price: 1.03,
      volume24h: 1000,
      ts: at(0),
    });
    const [{ result }] = await db.query<{ result: Record<string, number> }>(
      `select public.ingest_scan($1::text::jsonb, $2::timestamptz) as result`,
      [
        JSON.stringify([
          quote("Binance:BTC/USDT", "BTC/USDT", "Binance", "cex"),
          quote(`ethereum:${POOL}`, "WETH/USDC", "Uniswap V3 (Ethereum)", "dex"),
          quote(`bsc:${RENAMED}`, "USDT/WBNB", "PancakeSwap V3 (BSC)", "dex"),
          // the other fee tier of WETH/USDC: a new instrument, not the old row
          quote(
            "ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8",
            "WETH/USDC",
            "Uniswap V3 (Ethereum)",
            "dex",
          ),
        ]),
        at(0),
      ],
    );
    expect(result).toMatchObject({ instruments: 4, skipped: 0 });
    const rows = await db.query<{
      venue_key: string;
      samples: string | number;
      pct_10min: string | null;
    }>(
      `select i.venue_key, (select count(*) from public.price_history h where h.instrument_id = i.id) as samples,
              m.pct_10min::text as pct_10min
       from public.instruments i join public.movers m on m.instrument_id = i.id
       where m.ts = $1::timestamptz order by i.id`,
      [at(0)],
    );
    expect(rows.map((r) => [r.venue_key, Number(r.samples), r.pct_10min])).toEqual([
      ["Binance:BTC/USDT", 4, "1.9802"],
      [`ethereum:${POOL}`, 4, "1.9802"],
      [`bsc:${RENAMED}`, 2, null],
      ["ethereum:0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8", 1, null],
    ]);
  });
});
