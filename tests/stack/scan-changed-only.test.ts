// Issue 26 (decision 0053, amended): a scan rescores only the assets it touched and merges only
// the movers it changed into the kept top lists. On PGlite and PostgreSQL 15, through the Data
// API: a mover the scan did not quote keeps its move, trust score and place; a mover it quoted
// is re-ranked; a mover it did not quote but whose asset moved on another venue is rescored.
// (pgTAP 07-scan compares the merged lists with a full ranking of every mover.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Quote } from "../../supabase/functions/_shared/domain/market.ts";
import { demoUser, serviceClient } from "../support/clients.ts";

const run = Date.now().toString(36).toUpperCase();
const T = Date.now() - 60_000;
const START = T - 20 * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const asset = (tag: string) => `${tag}${run}`;

function cex(venue: "Binance" | "Coinbase", tag: string, price: number, volume: number): Quote {
  const symbol = `${asset(tag)}/USDT`;
  return {
    venueKey: `${venue}:${symbol}`,
    symbol,
    exchange: venue,
    exchangeType: "cex",
    network: null,
    source: venue === "Binance" ? "binance" : "coinbase",
    selection: venue === "Binance" ? "cex-major" : "coinbase",
    poolUrl: null,
    volume24h: volume,
    volume24hUsd: volume,
    ts: "",
    price,
  };
}

async function ingest(quotes: Quote[], at: number) {
  const { data, error } = await serviceClient().rpc("ingest_scan", {
    quotes: quotes.map((q) => ({ ...q, ts: iso(at) })) as never,
    scanned_at: iso(at),
  });
  expect(error).toBeNull();
  expect(data).toMatchObject({ instruments: quotes.length, skipped: 0 });
}

interface Entry {
  symbol: string;
  exchange: string;
  pct: number;
  ts: string;
  trust_score: number;
  confirmed_on: string[];
}

/** This run's rows of the 30-minute list, in the feed's order. */
async function feed(): Promise<Entry[]> {
  const { client } = await demoUser("enterprise@demo.local");
  const { data, error } = await client.rpc("movers_feed", { window_minutes: 30 });
  expect(error).toBeNull();
  return (data ?? [])
    .filter((e) => e.symbol.includes(run))
    .map((e) => ({
      symbol: e.symbol,
      exchange: e.exchange,
      pct: Number(e.pct),
      ts: e.ts,
      trust_score: e.trust_score,
      confirmed_on: e.confirmed_on,
    }));
}

const key = (e: Entry) => `${e.exchange} ${e.symbol.split(run)[0]}`;
const find = (list: Entry[], exchange: string, tag: string) => {
  const found = list.find((e) => e.exchange === exchange && e.symbol === `${asset(tag)}/USDT`);
  expect(found, `${tag} on ${exchange}`).toBeDefined();
  return found!;
};

let afterFirst: Entry[] = [];

beforeAll(async () => {
  // KEEP rises ~+500 % on Binance and Coinbase (each confirms the other), MOVE +300 % on Binance.
  await ingest(
    [
      cex("Binance", "KEEP", 1, 2_000_000),
      cex("Coinbase", "KEEP", 1, 2_000_000),
      cex("Binance", "MOVE", 1, 2_000_000),
    ],
    START,
  );
  await ingest(
    [
      cex("Binance", "KEEP", 6, 3_000_000),
      cex("Coinbase", "KEEP", 5.8, 3_000_000),
      cex("Binance", "MOVE", 4, 3_000_000),
    ],
    T,
  );
  afterFirst = await feed();
});

afterAll(async () => {
  await serviceClient().from("instruments").delete().like("symbol", `%${run}/%`);
});

describe("a scan changes only what it quoted", () => {
  it("starts from KEEP on Binance, KEEP on Coinbase, then MOVE, the KEEP rows confirmed", () => {
    expect(afterFirst.map(key)).toEqual(["Binance KEEP", "Coinbase KEEP", "Binance MOVE"]);
    expect(find(afterFirst, "Binance", "KEEP").confirmed_on).toEqual(["Coinbase"]);
  });

  it("re-ranks a quoted mover and keeps an unquoted one's move, score and place", async () => {
    // Only MOVE is quoted: +800 % now, above both KEEP rows.
    await ingest([cex("Binance", "MOVE", 9, 4_000_000)], T + 10_000);
    const now = await feed();
    expect(now.map(key)).toEqual(["Binance MOVE", "Binance KEEP", "Coinbase KEEP"]);
    expect(find(now, "Binance", "MOVE").pct).toBe(800);
    for (const exchange of ["Binance", "Coinbase"]) {
      // The unquoted rows are the same rows as before the scan, not re-scored differently.
      expect(find(now, exchange, "KEEP")).toEqual(find(afterFirst, exchange, "KEEP"));
    }
  });

  it("rescores a mover it did not quote when its asset moved on another venue", async () => {
    const before = find(await feed(), "Binance", "KEEP");
    // Coinbase's KEEP falls back to where it started: Binance's KEEP (not quoted) loses its
    // confirmation and 15 points, and keeps its own move and place among this run's rows.
    await ingest([cex("Coinbase", "KEEP", 1, 4_000_000)], T + 20_000);
    const now = await feed();
    const keep = find(now, "Binance", "KEEP");
    expect(keep.confirmed_on).toEqual([]);
    expect(keep.trust_score).toBe(before.trust_score - 15);
    expect(keep.pct).toBe(before.pct);
    expect(keep.ts).toBe(before.ts);
    // Coinbase's KEEP (0 %) left its place: below Binance's, if it is still in the 100.
    expect(now.map(key).slice(0, 2)).toEqual(["Binance MOVE", "Binance KEEP"]);
  });
});
