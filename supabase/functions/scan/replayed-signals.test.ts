// Decision 0090: the scan's replay of a source's past also computes the strategies' signals at
// past points, by the live step's rules (candidates, candles, computeSignals).
import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import { CANDLE_BUCKET_MS, type PricePoint } from "../_shared/domain/candles.ts";
import { MIN_SIGNAL_CANDLES } from "../_shared/domain/signals.ts";
import { createSimulatedAdapter } from "../_shared/market/simulated.ts";
import type { HistoryBatch } from "../_shared/market/types.ts";
import {
  computeScanSignals,
  MOVERS_PCT_WINDOW_MS,
  replayedSignalRows,
  SIGNAL_CANDIDATES,
  SIGNAL_HISTORY_MS,
  type SignalsStore,
  type StrategySignalRow,
} from "./signals.ts";

const T0 = Date.parse("2026-03-02T12:00:10.000Z");
const FROM = T0 - 3 * 3_600_000 - 60_000;
const TO = T0 - 10_000;

Deno.test("replayed signals: one set per 5-minute candle of the replayed past, once enough candles are closed", () => {
  const batch = createSimulatedAdapter().history!({ from: new Date(FROM), to: new Date(TO) });
  const rows = replayedSignalRows(batch, FROM, TO);
  ok(rows.length > 0, "the simulated market's past has signals");
  const keys = new Set(batch.instruments.map((i) => i.venueKey));
  const instants = new Map<number, Set<string>>();
  const seen = new Set<string>();
  for (const r of rows) {
    const t = Date.parse(r.computed_at);
    assertEquals(t % CANDLE_BUCKET_MS, 0, `${r.computed_at} is a candle's start`);
    ok(t > FROM && t <= TO, `${r.computed_at} is inside the replay`);
    ok(
      t - FROM >= MIN_SIGNAL_CANDLES * CANDLE_BUCKET_MS,
      `${r.computed_at} has enough closed candles`,
    );
    ok(keys.has(r.venue_key), r.venue_key);
    const id = `${r.venue_key} ${r.strategy} ${r.computed_at}`;
    ok(!seen.has(id), `one row per instrument, strategy and instant: ${id}`);
    seen.add(id);
    instants.set(t, (instants.get(t) ?? new Set()).add(r.venue_key));
  }
  ok(instants.size >= 10, `signals at ${instants.size} instants`);
  for (const [t, set] of instants) {
    ok(set.size <= 2 * SIGNAL_CANDIDATES, `${new Date(t).toISOString()}: ${set.size} instruments`);
  }
  // Those older than an hour are the ones whose outcome is due at once.
  ok(rows.some((r) => Date.parse(r.computed_at) <= T0 - 3_600_000), "some are an hour old");
});

Deno.test("replayed signals: each is what the live step computes at that instant on the same history", async () => {
  const batch = createSimulatedAdapter().history!({ from: new Date(FROM), to: new Date(TO) });
  const rows = replayedSignalRows(batch, FROM, TO);
  const times = batch.stamps.map((s) => Date.parse(s));
  // Three instants: the first, one in the middle, the last.
  const instants = [...new Set(rows.map((r) => r.computed_at))].sort();
  for (const at of [instants[0]!, instants[instants.length >> 1]!, instants.at(-1)!]) {
    const t = Date.parse(at);
    for (const key of new Set(rows.filter((r) => r.computed_at === at).map((r) => r.venue_key))) {
      const i = batch.instruments.findIndex((x) => x.venueKey === key);
      const points: PricePoint[] = times.flatMap((ts, k) =>
        ts <= t ? [{ ts, price: batch.prices[i]![k]!, volume: batch.volumes[i]![k] ?? null }] : []
      );
      const price = points.at(-1)!.price;
      const live: StrategySignalRow[] = [];
      const store: SignalsStore = {
        lastComputedAt: () => Promise.resolve(null),
        oldestSampleAt: () => Promise.resolve(new Date(times[0]!).toISOString()),
        candidates: () =>
          Promise.resolve([{
            instrumentId: 1,
            symbol: "X",
            exchange: "X",
            exchangeType: "cex" as const,
            price,
            volume24h: null,
          }]),
        history: (_id, since) =>
          Promise.resolve(points.filter((p) => (p.ts as number) >= Date.parse(since))),
        insert: (r) => (live.push(...r), Promise.resolve()),
        recordOutcomes: () => Promise.resolve(0),
      };
      await computeScanSignals(store, at);
      const replayed = rows.filter((r) => r.computed_at === at && r.venue_key === key);
      deepStrictEqual(
        replayed.map((r) => [r.strategy, r.signal, r.confidence, r.price, r.indicator_values]),
        live.map((r) => [r.strategy, r.signal, r.confidence, r.price, r.indicator_values]),
        `${key} at ${at}`,
      );
    }
  }
});

Deno.test("replayed signals: the candidates are the strongest gainers and losers over 30 minutes", () => {
  // 25 instruments over 4 hours, one sample a minute; instrument n moves (n - 12) % a minute
  // in the 30 minutes before the instant, with a wiggle so every strategy has candles.
  const start = T0 - 4 * 3_600_000;
  const stamps: string[] = [];
  for (let t = start; t <= T0; t += 60_000) stamps.push(new Date(t).toISOString());
  const batch: HistoryBatch = {
    instruments: Array.from({ length: 25 }, (_, n) => ({
      venueKey: `cex:test:${n}`,
      symbol: `T${n}/USDT`,
      exchange: "Test",
      exchangeType: "cex" as const,
      network: null,
      source: "simulated" as const,
      poolUrl: null,
    })),
    stamps,
    prices: Array.from({ length: 25 }, (_, n) =>
      stamps.map((s, k) => {
        const t = Date.parse(s);
        const wiggle = 1 + 0.01 * Math.sin(k / 3);
        const minutes = Math.max(0, (t - (T0 - MOVERS_PCT_WINDOW_MS - 60_000)) / 60_000);
        return 100 * wiggle * (1 + ((n - 12) / 100) * minutes / 30);
      })),
    volumes: Array.from({ length: 25 }, () => stamps.map(() => null)),
  };
  const at = Math.floor((T0 - 10_000) / CANDLE_BUCKET_MS) * CANDLE_BUCKET_MS;
  const rows = replayedSignalRows(batch, at - CANDLE_BUCKET_MS, at)
    .filter((r) => Date.parse(r.computed_at) === at);
  const picked = new Set(rows.map((r) => Number(r.venue_key.split(":")[2])));
  deepStrictEqual(
    [...picked].sort((a, b) => a - b),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
  );
  ok(SIGNAL_HISTORY_MS === 3 * 3_600_000);
});
