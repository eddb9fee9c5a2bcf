import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import {
  coinbaseSubscriptions,
  parseBinanceMiniTickers,
  parseCoinbaseMessage,
  STREAM_SILENCE_MS,
  StreamBatch,
} from "./streams.ts";

// The documented shape of `!miniTicker@arr` (combined stream): e, E (event time, ms), s, c, o, h,
// l, v (base volume), q (quote volume).
const MINI = JSON.stringify({
  stream: "!miniTicker@arr",
  data: [
    {
      e: "24hrMiniTicker",
      E: 1772452805123,
      s: "BTCUSDT",
      c: "66952.10000000",
      o: "68114.14000000",
      h: "68500.00000000",
      l: "66001.00000000",
      v: "21703.12345000",
      q: "1452368711.52941227",
    },
    {
      e: "24hrMiniTicker",
      E: 1772452805123,
      s: "ETHBTC",
      c: "0.05082",
      o: "0.051",
      h: "0.052",
      l: "0.05",
      v: "1",
      q: "3120",
    },
    { e: "24hrMiniTicker", E: 1772452805123, s: "ADAUSDT", c: "not-a-number", q: "1" },
  ],
});

Deno.test("streams: a !miniTicker@arr message is quotes stamped with the event time E", () => {
  const m = parseBinanceMiniTickers(MINI);
  assertEquals(m.quotes.length, 1);
  assertEquals(m.skipped, 1);
  deepStrictEqual(m.quotes[0], {
    venueKey: "Binance:BTC/USDT",
    symbol: "BTC/USDT",
    exchange: "Binance",
    exchangeType: "cex",
    network: null,
    source: "binance",
    selection: "cex-major",
    poolUrl: "https://www.binance.com/en/trade/BTC_USDT?type=spot",
    price: 66952.1,
    volume24h: 1452368711.5294122,
    ts: "2026-03-02T12:00:05.123Z",
    volume24hUsd: 1452368711.5294122,
  });
  // The raw form (`/ws/!miniTicker@arr`) is the same list without the envelope.
  const raw = JSON.stringify(JSON.parse(MINI).data);
  assertEquals(parseBinanceMiniTickers(raw).quotes.length, 1);
  assertEquals(parseBinanceMiniTickers("not json").quotes.length, 0);
  // The message's venue time: its newest event time E (decision 0079).
  assertEquals(m.at, Date.parse("2026-03-02T12:00:05.123Z"));
  assertEquals(parseBinanceMiniTickers("not json").at, undefined);
});

Deno.test("streams: Coinbase ticker events are quotes at the message's timestamp; heartbeats keep it alive", () => {
  const ticker = JSON.stringify({
    channel: "ticker",
    client_id: "",
    timestamp: "2026-03-02T12:00:05.167359596Z",
    sequence_num: 7,
    events: [{
      type: "update",
      tickers: [
        {
          type: "ticker",
          product_id: "BTC-USD",
          price: "66923.45",
          volume_24_h: "9876.54321098",
          low_24_h: "66001",
          high_24_h: "68500",
          low_52_w: "15460",
          high_52_w: "73800",
          price_percent_chg_24_h: "-1.72",
          best_bid: "66900.00",
          best_bid_quantity: "0.5",
          best_ask: "66923.45",
          best_ask_quantity: "0.2",
        },
        { type: "ticker", product_id: "ETH-BTC", price: "0.05" },
        { type: "ticker", price: "1" },
      ],
    }],
  });
  const m = parseCoinbaseMessage(ticker);
  assertEquals(m.quotes.length, 1);
  assertEquals(m.skipped, 1);
  const q = m.quotes[0]!;
  assertEquals(q.venueKey, "Coinbase:BTC/USD");
  assertEquals(q.ts, "2026-03-02T12:00:05.167Z");
  assertEquals(q.price, 66923.45);
  ok(Math.abs(q.volume24h! - 9876.54321098 * 66923.45) < 1e-3);
  assertEquals(q.spreadPct, 0.035);
  const beat = parseCoinbaseMessage(JSON.stringify({
    channel: "heartbeats",
    client_id: "",
    timestamp: "2026-03-02T12:00:06Z",
    sequence_num: 8,
    events: [{ current_time: "2026-03-02 12:00:06.0 +0000 UTC", heartbeat_counter: 3 }],
  }));
  // A heartbeat carries the venue's time: the stream was alive, and had nothing more, through it.
  deepStrictEqual(beat, {
    quotes: [],
    heartbeat: true,
    skipped: 0,
    at: Date.parse("2026-03-02T12:00:06Z"),
  });
  assertEquals(m.at, Date.parse("2026-03-02T12:00:05.167Z"));
  deepStrictEqual(coinbaseSubscriptions(["BTC-USD"]).map((s) => JSON.parse(s).channel), [
    "heartbeats",
    "ticker",
  ]);
});

Deno.test("streams: a batch keeps the newest quote per instrument; silence ends the stream's turn", () => {
  const batch = new StreamBatch();
  assertEquals(batch.live(0), false);
  const first = parseBinanceMiniTickers(MINI);
  const later = parseBinanceMiniTickers(
    MINI.replaceAll("1772452805123", "1772452806123").replace("66952.10000000", "67000"),
  );
  batch.add(later, 1_000);
  batch.add(first, 1_100); // arrived late, older event time: not kept
  const quotes = batch.take();
  assertEquals(quotes.length, 1);
  assertEquals(quotes[0]!.price, 67000);
  assertEquals(batch.take().length, 0);
  ok(batch.live(1_100 + STREAM_SILENCE_MS - 1));
  assertEquals(batch.live(1_100 + STREAM_SILENCE_MS), false);
  // A heartbeat alone keeps it live.
  batch.add({ quotes: [], heartbeat: true, skipped: 0 }, 10_000);
  ok(batch.live(12_000));
});

Deno.test("streams: a batch's confirmation is the newest venue time of its messages, taken once", () => {
  const batch = new StreamBatch();
  assertEquals(batch.takeThrough(), null);
  const later = parseBinanceMiniTickers(MINI.replaceAll("1772452805123", "1772452806123"));
  batch.add(later, 1_000);
  batch.add(parseBinanceMiniTickers(MINI), 1_100); // an older event arriving late
  // A message without the venue's time (a synthetic heartbeat) confirms nothing.
  batch.add({ quotes: [], heartbeat: true, skipped: 0 }, 1_200);
  assertEquals(batch.takeThrough(), 1772452806123);
  assertEquals(batch.takeThrough(), null);
  // A message that was not a quote nor a heartbeat confirms nothing either.
  batch.add({ quotes: [], heartbeat: false, skipped: 1, at: 1772452807000 }, 1_300);
  assertEquals(batch.takeThrough(), null);
});
