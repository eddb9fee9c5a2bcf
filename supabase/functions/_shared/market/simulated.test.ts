import {
  deepStrictEqual,
  notDeepStrictEqual,
  ok,
  strictEqual as assertEquals,
} from "node:assert/strict";
import { EXCHANGE_SELECTIONS, type Quote, selectionOf } from "../domain/market.ts";
import { assetOf, confirmedOn, isThin, moverFlags, type VenueMove } from "../domain/trust.ts";
import {
  createSimulatedAdapter,
  SIM_EVENT_PERIOD_MS,
  SIM_HISTORY_COARSE_MS,
  SIM_HISTORY_FINE_SPAN_MS,
  simulatedEvents,
  simulatedHistory,
  simulatedInstruments,
  simulatedQuotes,
} from "./simulated.ts";

const T0 = Date.parse("2026-03-02T12:00:00.000Z");
const at = (ms: number) => new Date(ms);
const logMove = (a: Quote, b: Quote) => Math.abs(Math.log(b.price / a.price));

Deno.test("simulated: the same time gives the same quotes, within a 10-second bucket too", async () => {
  deepStrictEqual(simulatedQuotes(at(T0 + 1_000)), simulatedQuotes(at(T0 + 1_000)));
  const early = simulatedQuotes(at(T0 + 1_000)).map((q) => q.price);
  const late = simulatedQuotes(at(T0 + 9_999)).map((q) => q.price);
  deepStrictEqual(early, late);
  // Two adapter instances (two workers) agree: no state between scans.
  const now = () => at(T0);
  deepStrictEqual(
    await createSimulatedAdapter().fetchQuotes({ now }),
    await createSimulatedAdapter().fetchQuotes({ now }),
  );
});

Deno.test("simulated: about 300 instruments over the three selections and five networks", () => {
  const quotes = simulatedQuotes(at(T0));
  ok(quotes.length >= 280 && quotes.length <= 340, `${quotes.length} instruments`);
  assertEquals(simulatedInstruments().length, quotes.length);
  for (const selection of EXCHANGE_SELECTIONS) {
    ok(quotes.filter((q) => q.selection === selection).length >= 50, selection);
  }
  const networks = new Set(quotes.filter((q) => q.exchangeType === "dex").map((q) => q.network));
  deepStrictEqual([...networks].sort(), ["arbitrum", "base", "bsc", "ethereum", "solana"]);
  assertEquals(new Set(quotes.map((q) => q.venueKey)).size, quotes.length, "one venue key each");
  // Symbol and exchange identify an instrument, but for pools of one pair on one DEX (issue 26's
  // showcase: two PancakeSwap V3 pools of SFP/WBNB), which their names (fee tiers) tell apart.
  const keys = new Set(quotes.map((q) => `${q.symbol}@${q.exchange}@${q.poolName ?? ""}`));
  assertEquals(keys.size, quotes.length, "symbol, exchange and pool name identify an instrument");
});

Deno.test("simulated: a mover row's exchange, type and source give back each quote's selection", () => {
  for (const q of simulatedQuotes(at(T0))) {
    assertEquals(q.source, "simulated");
    const row = { exchange: q.exchange, exchange_type: q.exchangeType, source: q.source };
    assertEquals(selectionOf(row), q.selection, `${q.symbol} on ${q.exchange}`);
  }
});

Deno.test("simulated: every field is valid and imitates its venue", () => {
  const ts = at(T0 + 4_321);
  for (const q of simulatedQuotes(ts)) {
    assertEquals(q.source, "simulated");
    ok(/^[^/\s]+\/[^/\s]+$/.test(q.symbol), q.symbol);
    ok(Number.isFinite(q.price) && q.price > 0, `${q.symbol} price ${q.price}`);
    ok(q.volume24h !== null && Number.isFinite(q.volume24h) && q.volume24h > 0);
    assertEquals(q.ts, ts.toISOString());
    ok(q.poolUrl?.startsWith("https://"));
    if (q.selection === "cex-major") {
      assertEquals(q.exchange, "Binance");
      assertEquals(q.network, null);
      assertEquals(q.exchangeType, "cex");
      ok(/^https:\/\/www\.binance\.com\/en\/trade\/\w+_\w+\?type=spot$/.test(q.poolUrl!));
    } else if (q.selection === "coinbase") {
      assertEquals(q.exchange, "Coinbase");
      assertEquals(q.network, null);
      ok(/^https:\/\/www\.coinbase\.com\/advanced-trade\/spot\/\w+-\w+$/.test(q.poolUrl!));
    } else {
      assertEquals(q.exchangeType, "dex");
      ok(/^[\w .]+ \((Ethereum|Base|Solana|BSC|Arbitrum)\)$/.test(q.exchange), q.exchange);
      ok(
        /^https:\/\/www\.geckoterminal\.com\/(eth|base|bsc|arbitrum)\/pools\/0x[0-9a-f]{40}$/.test(
          q.poolUrl!,
        ) ||
          /^https:\/\/www\.geckoterminal\.com\/solana\/pools\/[1-9A-HJ-NP-Za-km-z]{44}$/.test(
            q.poolUrl!,
          ),
        q.poolUrl!,
      );
    }
  }
});

Deno.test("simulated: 10 seconds later prices have moved a little", () => {
  const a = simulatedQuotes(at(T0));
  const b = simulatedQuotes(at(T0 + 10_000));
  notDeepStrictEqual(a.map((q) => q.price), b.map((q) => q.price));
  const moves = a.map((q, i) => logMove(q, b[i]!)).sort((x, y) => x - y);
  const median = moves[Math.floor(moves.length / 2)]!;
  ok(median > 0.0003 && median < 0.006, `median 10 s move ${median}`);
  ok(moves[Math.floor(moves.length * 0.95)]! < 0.02, "95 % move less than 2 %");
  // Over a day prices wander but stay in the same order of magnitude.
  const c = simulatedQuotes(at(T0 + 86_400_000));
  for (const [i, q] of a.entries()) ok(logMove(q, c[i]!) < Math.log(3), q.symbol);
});

Deno.test("simulated: one asset moves together on every venue", () => {
  const quotes = simulatedQuotes(at(T0));
  const btc = quotes.filter((q) => q.symbol.startsWith("BTC/")).map((q) => q.price);
  ok(btc.length >= 4);
  ok(Math.max(...btc) / Math.min(...btc) < 1.005, `BTC across venues ${btc}`);
});

Deno.test("simulated: pumps and dumps of 5–40 % happen every 20 minutes and show in the prices", () => {
  const epoch = Math.floor(T0 / SIM_EVENT_PERIOD_MS);
  let checked = 0;
  for (let e = epoch; e < epoch + 72; e++) {
    const events = simulatedEvents(e);
    ok(events.length >= 2 && events.length <= 4);
    for (const ev of events) {
      ok(Math.abs(ev.move) >= 0.05 && Math.abs(ev.move) <= 0.4, `move ${ev.move}`);
      ok(ev.peakMs - ev.startMs >= 60_000 && ev.peakMs - ev.startMs <= 300_000);
      if (Math.abs(ev.move) < 0.2 || checked >= 3) continue;
      // A big event shows: the price at the peak is far from the price at the start.
      const before = simulatedQuotes(at(ev.startMs - 10_000));
      const peak = simulatedQuotes(at(ev.peakMs));
      const later = simulatedQuotes(at(ev.peakMs + 70 * 60_000));
      const i = simulatedInstruments().findIndex((inst) => inst.walk === ev.walk);
      const jump = Math.log(peak[i]!.price / before[i]!.price);
      ok(Math.sign(jump) === Math.sign(ev.move), `${before[i]!.symbol} moved ${jump}`);
      ok(Math.abs(jump) > Math.abs(Math.log(1 + ev.move)) * 0.5, `${before[i]!.symbol} ${jump}`);
      // ...and has decayed an hour after the peak.
      ok(Math.abs(Math.log(later[i]!.price / before[i]!.price)) < Math.abs(jump));
      checked++;
    }
  }
  assertEquals(checked, 3, "a day has at least three big events");
});

Deno.test("simulated: fat tails — at every moment of two days, 5+ movers of 10 % in 15 and 30 minutes; majors rarely move 3 %", () => {
  const prices = new Map<number, number[]>();
  const pricesAt = (ms: number) => {
    let p = prices.get(ms);
    if (!p) prices.set(ms, p = simulatedQuotes(at(ms)).map((q) => q.price));
    return p;
  };
  const instruments = simulatedInstruments();
  const majors = instruments.flatMap((inst, i) =>
    ["BTC/USDT", "ETH/USDT"].includes(inst.symbol) && inst.exchange === "Binance" ? [i] : []
  );
  const dex = instruments.flatMap((inst, i) => (inst.exchangeType === "dex" ? [i] : []));
  const change = (now: number[], then: number[], i: number) => Math.abs(now[i]! / then[i]! - 1);
  const counts: Record<number, number[]> = { 15: [], 30: [] };
  let majorSteps = 0;
  let majorBig = 0;
  let dexBiggest = 0;
  const step = 5 * 60_000;
  for (let t = T0; t < T0 + 48 * 3_600_000; t += step) {
    const now = pricesAt(t);
    for (const minutes of [15, 30]) {
      const then = pricesAt(t - minutes * 60_000);
      counts[minutes]!.push(now.filter((_, i) => change(now, then, i) >= 0.1).length);
    }
    const halfHour = pricesAt(t - 30 * 60_000);
    for (const i of majors) {
      majorSteps++;
      if (change(now, halfHour, i) >= 0.03) majorBig++;
    }
    for (const i of dex) dexBiggest = Math.max(dexBiggest, change(now, halfHour, i));
  }
  // A new subscriber's defaults: the 15-minute window (basic: 30) and a 10 % threshold.
  ok(Math.min(...counts[15]!) >= 5, `fewest 10 % movers in 15 min: ${Math.min(...counts[15]!)}`);
  ok(Math.min(...counts[30]!) >= 5, `fewest 10 % movers in 30 min: ${Math.min(...counts[30]!)}`);
  const median = [...counts[15]!].sort((a, b) => a - b)[counts[15]!.length >> 1]!;
  ok(median >= 10 && median <= 80, `median 10 % movers in 15 min: ${median}`);
  ok(majorBig / majorSteps < 0.1, `BTC/ETH moved 3 % in 30 min ${majorBig} of ${majorSteps} times`);
  ok(dexBiggest >= 0.3 && dexBiggest <= 2, `largest DEX move in 30 min: ${dexBiggest}`);
});

Deno.test("simulated: the replayed past is what the live scans saw, every minute and every 10 s in the last 30 minutes", () => {
  const to = at(T0);
  const from = at(T0 - 3 * 3_600_000 - 60_000);
  const batch = createSimulatedAdapter().history!({ from, to });
  deepStrictEqual(batch, simulatedHistory(from, to));
  const instruments = simulatedInstruments();
  assertEquals(batch.instruments.length, instruments.length);
  assertEquals(batch.prices.length, instruments.length);
  assertEquals(batch.volumes.length, instruments.length);
  const stamps = batch.stamps.map((s) => Date.parse(s));
  assertEquals(stamps[0], T0 - 3 * 3_600_000 - 60_000);
  assertEquals(stamps.at(-1), T0);
  const fineFrom = T0 - SIM_HISTORY_FINE_SPAN_MS;
  for (let k = 1; k < stamps.length; k++) {
    const gap = stamps[k]! - stamps[k - 1]!;
    assertEquals(
      gap,
      stamps[k]! > fineFrom ? 10_000 : SIM_HISTORY_COARSE_MS,
      `gap before ${batch.stamps[k]}`,
    );
  }
  // Minutes from 3 h 1 min to 31 min before, then every 10 s up to T0.
  assertEquals(stamps.length, 151 + 181);
  for (const k of [0, 100, stamps.length - 1]) {
    const live = simulatedQuotes(at(stamps[k]!));
    live.forEach((q, i) => {
      assertEquals(batch.prices[i]![k], q.price);
      assertEquals(batch.volumes[i]![k], q.volume24h);
      deepStrictEqual(batch.instruments[i], {
        venueKey: q.venueKey,
        symbol: q.symbol,
        exchange: q.exchange,
        exchangeType: q.exchangeType,
        network: q.network,
        source: q.source,
        poolUrl: q.poolUrl,
      });
    });
  }
});

Deno.test("simulated: the trust showcase holds at any hour of a day (thin, flags, confirmation, grouping)", () => {
  // Every 20 minutes over a day, skipping the first 30 minutes after each showcase reset.
  let checked = 0;
  let pulled = 0;
  for (let ms = T0; ms < T0 + 24 * 3_600_000; ms += 20 * 60_000) {
    const now = simulatedQuotes(at(ms));
    const then = simulatedQuotes(at(ms - 30 * 60_000));
    const figures = (symbol: string, pool?: string) => {
      const i = now.findIndex((q) =>
        q.symbol === symbol && (pool === undefined || q.poolName === pool)
      );
      ok(i >= 0, `${symbol} ${pool ?? ""}`);
      const [q, p] = [now[i]!, then[i]!];
      return {
        q,
        pct: 100 * (q.price / p.price - 1),
        flags: moverFlags({
          exchangeType: q.exchangeType,
          pct: 100 * (q.price / p.price - 1),
          price: q.price,
          volume24h: q.volume24h,
          volume24hAtStart: p.volume24h,
          volume24hUsd: q.volume24hUsd ?? null,
          liquidityUsd: q.liquidityUsd ?? null,
          liquidityUsdAtStart: p.liquidityUsd ?? null,
          poolCreatedAt: q.poolCreatedAt ?? null,
          cexPrice: null,
        }, at(ms)),
      };
    };
    const sfp = figures("SFP/USDT");
    if (Math.abs(sfp.pct) > 20) continue; // a reset within the window
    checked++;
    const deep = figures("SFP/WBNB", "SFP / WBNB 0.25%");
    const thinPool = figures("SFP/WBNB", "SFP / WBNB 1%");
    // Confirmed: Binance and the deep pool moved the same way by more than 2 %.
    const moves: VenueMove[] = [sfp, deep, thinPool].map((f) => ({
      asset: assetOf(f.q.symbol),
      exchange: f.q.exchange,
      exchangeType: f.q.exchangeType,
      pct: f.pct,
    }));
    deepStrictEqual(confirmedOn(moves[0]!, moves), [deep.q.exchange]);
    deepStrictEqual(confirmedOn(moves[1]!, moves), ["Binance"]);
    // Grouping: one asset, two pools of one DEX told apart by their fee tier.
    assertEquals(deep.q.exchange, thinPool.q.exchange);
    assertEquals(
      isThin("dex", { volume24hUsd: null, liquidityUsd: thinPool.q.liquidityUsd! }),
      true,
    );
    assertEquals(isThin("dex", { volume24hUsd: null, liquidityUsd: deep.q.liquidityUsd! }), false);
    assertEquals(
      isThin("cex", { volume24hUsd: figures("LOWV/USDT").q.volume24hUsd!, liquidityUsd: null }),
      true,
    );
    deepStrictEqual(sfp.flags, []);
    // Each showcase asset resets at its own hour: a window across its reset is left out.
    const wash = figures("WSHX/WBNB");
    if (Math.abs(wash.pct) < 20) deepStrictEqual(wash.flags, ["wash_volume"]);
    const young = figures("NEWB/WBNB");
    if (Math.abs(young.pct) < 20) deepStrictEqual(young.flags, ["young_pool"]);
    // The pulled pool: flagged whenever its reserve halved within the window (it refills every
    // 2 hours), never for anything else.
    const rug = figures("RUGX/WBNB");
    const [liqNow, liqThen] = [
      rug.q.liquidityUsd!,
      then.find((q) => q.symbol === "RUGX/WBNB")!.liquidityUsd!,
    ];
    if (Math.abs(rug.pct) > 20) continue; // its own reset within the window
    deepStrictEqual(rug.flags, liqNow <= liqThen / 2 ? ["pulled_pool"] : []);
    if (rug.flags.length > 0) pulled++;
  }
  ok(checked >= 50, `${checked} checks`);
  ok(pulled >= checked / 2, `pulled pool flagged ${pulled} of ${checked} times`);
});
