// Issue 25 (decision 0033), through the Data API on PGlite and PostgreSQL 15: a quote's venue time
// is stored and shown (movers.quoted_at, movers_feed), windows are computed on it and need two
// samples inside them (the 10-second window: a reference between 15 and 5 s before the quote), a
// venue clock ahead of ours beyond 5 s is refused, and one venue that stalls leaves its rows at
// their last quote while another venue's ingests go on.
import { afterAll, describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import { demoUser, serviceClient } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
const T = Date.now() - 60_000;
const at = (ms: number) => new Date(T + ms).toISOString();

function quote(venue: "Binance" | "Coinbase", base: string, price: number, ts: string): Quote {
  const symbol = `${base}${run}/USDT`;
  return {
    venueKey: `${venue}:${symbol}`,
    symbol,
    exchange: venue,
    exchangeType: "cex",
    network: null,
    source: venue === "Binance" ? "binance" : "coinbase",
    selection: venue === "Binance" ? "cex-major" : "coinbase",
    poolUrl: null,
    price,
    volume24h: 1_000_000,
    ts,
  };
}

async function ingest(quotes: Quote[], scannedAt: string) {
  const { data, error } = await serviceClient().rpc("ingest_scan", {
    quotes: quotes as never,
    scanned_at: scannedAt,
  });
  expect(error).toBeNull();
  return data as { instruments: number; skipped: number };
}

async function mover(venue: string, base: string) {
  const { data, error } = await serviceClient()
    .from("movers")
    .select("pct_10sec, pct_5min, price, ts, quoted_at")
    .eq("symbol", `${base}${run}/USDT`)
    .eq("exchange", venue)
    .single();
  expect(error).toBeNull();
  return data!;
}

afterAll(async () => {
  await serviceClient().from("instruments").delete().like("symbol", `%${run}/USDT`);
  await serviceClient().from("source_health").delete().in("source", ["binance", "coinbase"]);
});

describe("venue time", () => {
  it("stores the venue's time of a quote and serves it as quoted_at", async () => {
    // A sample 20 minutes ago at 1, then Binance's quote at 100 stamped 1.5 s before the ingest
    // ran: a 9,900 % move, so the entry is among the window's strongest 100.
    await ingest([quote("Binance", "VT", 1, at(-20 * 60_000))], at(-20 * 60_000));
    const result = await ingest([quote("Binance", "VT", 100, at(-1_500))], at(0));
    expect(result).toMatchObject({ instruments: 1, skipped: 0 });
    const row = await mover("Binance", "VT");
    expect(Date.parse(row.quoted_at!)).toBe(T - 1_500);
    expect(Date.parse(row.ts)).toBe(T);

    const { client } = await demoUser("enterprise@demo.local");
    const feed = await client.rpc("movers_feed", { window_minutes: 30 });
    expect(feed.error).toBeNull();
    const entry = feed.data!.find((e) => e.symbol === `VT${run}/USDT`);
    expect(entry).toBeDefined();
    expect(Number(entry!.pct)).toBe(9900);
    expect(Date.parse(entry!.quoted_at!)).toBe(T - 1_500);
    expect(Date.parse(entry!.ts!)).toBe(T);

    const instrument = await serviceClient()
      .from("instruments")
      .select("id")
      .eq("venue_key", `Binance:VT${run}/USDT`)
      .single();
    const history = await serviceClient()
      .from("price_history")
      .select("ts")
      .eq("instrument_id", instrument.data!.id)
      .order("ts");
    expect(history.error).toBeNull();
    expect(history.data!.map((h) => Date.parse(h.ts))).toEqual([T - 20 * 60_000, T - 1_500]);
  });

  it("refuses a quote stamped more than 5 s after the ingest (a venue clock ahead of ours)", async () => {
    const result = await ingest(
      [quote("Binance", "FUT", 3, at(10_000)), quote("Binance", "NEAR", 3, at(4_000))],
      at(0),
    );
    expect(result).toMatchObject({ instruments: 1, skipped: 1 });
    const { data } = await serviceClient()
      .from("movers")
      .select("symbol")
      .in("symbol", [`FUT${run}/USDT`, `NEAR${run}/USDT`]);
    expect(data!.map((m) => m.symbol)).toEqual([`NEAR${run}/USDT`]);
  });

  it("computes the 10-second window only from two samples within 15 s, on the venue's clock", async () => {
    // TWO: samples 20 s apart → no 10-second percent. TEN: 12 s apart → a 10-second percent.
    await ingest(
      [quote("Binance", "TWO", 10, at(-20_000)), quote("Binance", "TEN", 10, at(-12_000))],
      at(-11_000),
    );
    await ingest([quote("Binance", "TWO", 11, at(0)), quote("Binance", "TEN", 11, at(0))], at(500));
    expect((await mover("Binance", "TWO")).pct_10sec).toBeNull();
    expect(Number((await mover("Binance", "TEN")).pct_10sec)).toBe(10);
    // The windows look back from the quote's time, not from the ingest's: the reference at
    // T - 12 s is 12 s before the quote even though the ingest ran 0.5 s later.
    expect((await mover("Binance", "TEN")).pct_5min).toBeNull();
  });

  it("a venue that stalls keeps its last quote while another venue's ingests go on", async () => {
    await ingest([quote("Binance", "STALL", 5, at(0)), quote("Coinbase", "LIVE", 5, at(0))], at(0));
    // Binance stops answering; Coinbase is ingested every 2 s on its own.
    for (const k of [2, 4, 6]) {
      await ingest([quote("Coinbase", "LIVE", 5 + k / 10, at(k * 1_000))], at(k * 1_000 + 200));
      const health = await serviceClient().rpc("record_source_health", {
        reports: [
          {
            source: "coinbase",
            state: "ok",
            quotes: 1,
            cadenceSeconds: 2,
            lastQuoteAt: at(k * 1_000),
          },
          {
            source: "binance",
            state: "failing",
            quotes: 0,
            failure: "timeout",
            message: "no answer within 8000 ms",
            cadenceSeconds: 2,
          },
        ] as never,
        scanned_at: at(k * 1_000 + 200),
      });
      expect(health.error).toBeNull();
    }
    const live = await mover("Coinbase", "LIVE");
    expect(Date.parse(live.quoted_at!)).toBe(T + 6_000);
    expect(Number(live.price)).toBeCloseTo(5.6);
    // The 10-second window: the sample at T is 6 s old, inside (T+6 - 15 s, T+6 - 5 s].
    expect(Number(live.pct_10sec)).toBe(12);
    const stalled = await mover("Binance", "STALL");
    expect(Date.parse(stalled.quoted_at!)).toBe(T);
    expect(Date.parse(stalled.ts)).toBe(T);

    const { data } = await serviceClient()
      .from("source_health")
      .select("source, state, cadence_seconds, last_quote_at")
      .in("source", ["binance", "coinbase"])
      .order("source");
    expect(data).toHaveLength(2);
    expect(data![0]).toMatchObject({ source: "binance", state: "failing" });
    expect(Number(data![1]!.cadence_seconds)).toBe(2);
    expect(Date.parse(data![1]!.last_quote_at!)).toBe(T + 6_000);
  });
});
