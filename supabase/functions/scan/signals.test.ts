import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import type { PricePoint } from "../_shared/domain/candles.ts";
import { STRATEGY_IDS } from "../_shared/domain/signals.ts";
import {
  computeScanSignals,
  type SignalCandidate,
  type SignalsStore,
  type StrategySignalRow,
} from "./signals.ts";

const SCANNED_AT = "2026-03-02T12:00:10.000Z";
const CANDIDATE: SignalCandidate = {
  instrumentId: 7,
  symbol: "PEPE/WETH",
  exchange: "Uniswap V2 (Ethereum)",
  exchangeType: "dex",
  price: 0.0000112,
  volume24h: 21873412,
};

class FakeStore implements SignalsStore {
  last: string | null = null;
  inserted: StrategySignalRow[][] = [];
  historyCalls: [number, string][] = [];
  constructor(readonly points: PricePoint[]) {}
  lastComputedAt() {
    return Promise.resolve(this.last);
  }
  oldestSampleAt() {
    const first = this.points[0];
    return Promise.resolve(first ? new Date(first.ts).toISOString() : null);
  }
  candidates(limit: number) {
    assertEquals(limit, 10);
    return Promise.resolve([CANDIDATE]);
  }
  history(id: number, since: string) {
    this.historyCalls.push([id, since]);
    return Promise.resolve(this.points);
  }
  insert(rows: StrategySignalRow[]) {
    this.inserted.push(rows);
    return Promise.resolve();
  }
  outcomeRuns = 0;
  recordOutcomes() {
    this.outcomeRuns++;
    return Promise.resolve(2);
  }
}

/** 3 hours of 10-second samples ending at the scan, falling then turning up. */
function history(): PricePoint[] {
  const end = Date.parse(SCANNED_AT);
  const points: PricePoint[] = [];
  for (let t = end - 3 * 3_600_000, i = 0; t <= end; t += 10_000, i++) {
    const price = 0.00001 * (1 + 0.1 * Math.sin(i / 200) + 0.002 * Math.sin(i));
    points.push({ ts: new Date(t).toISOString(), price, volume: 2e7 + i * 1000 });
  }
  return points;
}

Deno.test("signals: computed on closed 5-minute candles of the movers and stored at once", async () => {
  const store = new FakeStore(history());
  const n = await computeScanSignals(store, SCANNED_AT);
  deepStrictEqual(store.historyCalls, [[7, "2026-03-02T09:00:10.000Z"]]);
  assertEquals(store.inserted.length, 1);
  const rows = store.inserted[0]!;
  assertEquals(n, rows.length);
  assertEquals(store.outcomeRuns, 1, "outcomes of older signals are recorded with each candle");
  deepStrictEqual(rows.map((r) => r.strategy), [...STRATEGY_IDS]);
  for (const r of rows) {
    assertEquals(r.symbol, "PEPE/WETH");
    assertEquals(r.exchange_type, "dex");
    assertEquals(r.timeframe, "5min");
    assertEquals(r.computed_at, SCANNED_AT);
    ok(r.confidence >= 0 && r.confidence <= 1);
    ok(["low", "medium", "high"].includes(r.confidence_tier));
  }
});

Deno.test("signals: once per candle; too little history stores nothing", async () => {
  const store = new FakeStore(history());
  store.last = "2026-03-02T12:00:00.000Z";
  assertEquals(await computeScanSignals(store, SCANNED_AT), 0);
  assertEquals(store.historyCalls.length, 0);
  assertEquals(store.outcomeRuns, 0, "nothing at all until the next candle");

  const young = new FakeStore(history().slice(-30));
  assertEquals(await computeScanSignals(young, SCANNED_AT), 0);
  assertEquals(young.inserted.length, 0);
});

Deno.test("signals: a market younger than 15 closed candles reads no history at all", async () => {
  const bucket = Date.parse("2026-03-02T12:00:00.000Z");
  // The first sample 70 min before the candle: 14 closed candles.
  const young = new FakeStore(
    history().filter((p) => new Date(p.ts).getTime() >= bucket - 70 * 60_000),
  );
  assertEquals(await computeScanSignals(young, SCANNED_AT), 0);
  deepStrictEqual(young.historyCalls, [], "no candidate's history is read");
  assertEquals(young.outcomeRuns, 0);

  // 15 closed candles: the candidates are read (and RSI can be computed).
  const ready = new FakeStore(
    history().filter((p) => new Date(p.ts).getTime() >= bucket - 75 * 60_000),
  );
  ok((await computeScanSignals(ready, SCANNED_AT)) > 0);
  assertEquals(ready.historyCalls.length, 1);

  const empty = new FakeStore([]);
  assertEquals(await computeScanSignals(empty, SCANNED_AT), 0);
  deepStrictEqual(empty.historyCalls, []);
});
