// The fake GeckoTerminal pools' past, stored when the stack starts with FAKE_VENUES (decision
// 0086), as the scan replays the simulated market's last 3 hours into an empty history. Without
// it a pool has no 5-minute figure until it has a sample 150 s old (ingest_scan's window rule):
// on a stack just started its row shows only the rare 10-second figure, enters the list and
// leaves it before its next refresh, and the venues bench waited ~3 minutes for that (0078).
//
// The past is the fake venue's own (`FakeMarket.dexPast`: the same walk, backwards from each
// pool's recorded price, sampled every 10 s), stored through `ingest_backfill` under the
// instrument identity the scan's GeckoTerminal adapter gives each pool (its own parser reads the
// fake's recorded pages), so the scan's first quotes continue those histories. Only the history
// is replayed: every quote on screen after it is a live refresh of the fake server.
import type { HistoryBatch } from "../../supabase/functions/_shared/market/types.ts";
import {
  DEFAULT_DEX_MIN_LIQUIDITY_USD,
  DEX_NETWORKS,
  type DexNetworkId,
  parseGeckoTerminalPools,
} from "../../supabase/functions/_shared/market/geckoterminal.ts";
import type { Tx } from "../database.ts";
import type { FakeMarket } from "./market.ts";

/** The replayed span: the 30-minute window's reference and a minute more. */
export const FAKE_DEX_REPLAY_MS = 31 * 60_000;
/** Pools whose newest sample is younger than this are kept by the scans already (as the scan's). */
export const FAKE_DEX_REPLAY_IDLE_MS = 5 * 60_000;

/** The fake pools' past as the scan's adapter names them, one price per pool per stamp. */
export function fakeDexHistory(
  market: FakeMarket,
  spanMs = FAKE_DEX_REPLAY_MS,
  minLiquidityUsd = DEFAULT_DEX_MIN_LIQUIDITY_USD,
): HistoryBatch {
  const past = market.dexPast(spanMs);
  const batch: HistoryBatch = {
    instruments: [],
    stamps: past.stamps.map((t) => new Date(t).toISOString()),
    prices: [],
    volumes: [],
  };
  const at = new Date(market.startedAt);
  for (const [network, { body, pools }] of market.dex) {
    if (!(network in DEX_NETWORKS)) continue;
    const prices = past.prices.get(network) ?? [];
    pools.forEach(({ row }, i) => {
      const path = prices[i];
      if (!path) return;
      // The adapter's own reading of the pool: the same venueKey, symbol, exchange and floor.
      const [quote] = parseGeckoTerminalPools(
        { data: [row], included: body.included ?? [] },
        network as DexNetworkId,
        at,
        minLiquidityUsd,
      ).quotes;
      if (!quote) return;
      const { price: _p, volume24h, ts: _t, selection: _s, ...instrument } = quote;
      batch.instruments.push(instrument);
      batch.prices.push(path);
      batch.volumes.push(path.map(() => volume24h));
    });
  }
  return batch;
}

/**
 * Stores the fake pools' past unless the database's DEX pools were sampled within
 * `FAKE_DEX_REPLAY_IDLE_MS` (a stack restarted on the same data keeps its own history).
 */
export async function replayFakeDexHistory(
  db: Tx,
  market: FakeMarket,
  opts: { spanMs?: number; minLiquidityUsd?: number } = {},
): Promise<{ instruments: number; samples: number; ms: number } | null> {
  const t0 = performance.now();
  const [newest] = await db.query<{ ts: string | Date | null }>(
    `select max(h.ts) as ts from public.price_history h
       join public.instruments i on i.id = h.instrument_id
      where i.source = 'dex'`,
  );
  const last = newest?.ts ? new Date(newest.ts).getTime() : Number.NaN;
  if (Number.isFinite(last) && market.startedAt - last < FAKE_DEX_REPLAY_IDLE_MS) return null;
  const batch = fakeDexHistory(market, opts.spanMs, opts.minLiquidityUsd);
  if (batch.instruments.length === 0) return null;
  const [row] = await db.query<{ r: { instruments: number; samples: number } | string }>(
    // As text: a driver that types the parameter jsonb would encode the string as a JSON string.
    "select public.ingest_backfill($1::text::jsonb, $2::timestamptz) as r",
    [JSON.stringify(batch), new Date(market.startedAt).toISOString()],
  );
  const r = typeof row!.r === "string" ? JSON.parse(row!.r) : row!.r;
  return {
    instruments: Number(r.instruments),
    samples: Number(r.samples),
    ms: Math.round(performance.now() - t0),
  };
}
