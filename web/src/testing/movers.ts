import type { MoverEntry } from "@domain/realtime";

/** A CEX mover of the feed's shape for SPA tests: `SYM<id>/USDT` on Binance, +25 %, trust 50. */
export function moverEntry(
  id: number,
  overrides: Partial<MoverEntry> = {},
  ts: string = new Date().toISOString(),
): MoverEntry {
  return {
    id,
    instrument_id: id,
    symbol: `SYM${id}/USDT`,
    exchange: "Binance",
    exchange_type: "cex",
    network: null,
    source: "binance",
    pool_url: null,
    price: 1.5,
    price_3hour_ago: 1.2,
    pct: 25,
    window_used: 15,
    pct_3hour: null,
    volume_24h: null,
    volume_24h_usd: null,
    liquidity_usd: null,
    spread_pct: null,
    thin: false,
    confirmed_on: [],
    flags: [],
    trust_score: 50,
    asset: `SYM${id}`,
    pool_name: null,
    ts,
    ...overrides,
  };
}
