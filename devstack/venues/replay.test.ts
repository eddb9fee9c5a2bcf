// The fake GeckoTerminal pools' replayed past (decision 0086): the venue's own walk, ending at
// each pool's price when the walks began, named as the scan's adapter names the pools, and
// leaving the live walk as it would be without it.
import { afterEach, expect, it } from "vitest";
import { createDexAdapter } from "../../supabase/functions/_shared/market/geckoterminal.ts";
import { type FakeVenues, startFakeVenues } from "./fake-venues.ts";
import { FakeMarket } from "./market.ts";
import { FAKE_DEX_REPLAY_MS, fakeDexHistory } from "./replay.ts";

let venues: FakeVenues | null = null;
afterEach(async () => {
  await venues?.stop();
  venues = null;
});

it("replays every liquid pool's last 31 minutes every 10 s, ending at the price the live walk starts from", () => {
  const t0 = Date.parse("2026-11-27T02:00:00Z");
  const market = new FakeMarket(t0);
  const batch = fakeDexHistory(market);
  expect(batch.stamps).toHaveLength(FAKE_DEX_REPLAY_MS / 10_000 + 1);
  expect(batch.stamps.at(-1)).toBe(new Date(t0).toISOString());
  expect(Date.parse(batch.stamps[1]!) - Date.parse(batch.stamps[0]!)).toBe(10_000);
  expect(batch.instruments.length).toBeGreaterThan(10);
  expect(batch.prices).toHaveLength(batch.instruments.length);
  // Each path ends at the pool's price when the walks began, and it moved before.
  const starts = new Map<string, number>();
  for (const { pools } of market.dex.values()) {
    for (const { row, walk } of pools) {
      const address = (row.attributes as { address?: unknown } | undefined)?.address;
      if (walk && typeof address === "string") starts.set(address.toLowerCase(), walk.price);
    }
  }
  batch.instruments.forEach((instrument, i) => {
    const path = batch.prices[i]!;
    expect(path).toHaveLength(batch.stamps.length);
    const address = instrument.poolUrl!.split("/").at(-1)!.toLowerCase();
    expect(path.at(-1)).toBe(starts.get(address));
    expect(new Set(path).size).toBeGreaterThan(path.length / 2);
    expect(instrument.source).toBe("dex");
  });
  // The live walk is the one a market without a replayed past takes.
  const plain = new FakeMarket(t0);
  market.move(t0 + 1_000);
  plain.move(t0 + 1_000);
  const prices = (m: FakeMarket) =>
    [...m.dex.values()].flatMap(({ pools }) => pools.map((p) => p.walk?.price ?? null));
  expect(prices(market)).toEqual(prices(plain));
});

it("names each pool as the scan's GeckoTerminal adapter does, so the scan continues its history", async () => {
  venues = await startFakeVenues({ tickMs: 0, streamDropEveryMs: 0 });
  const keys = new Set(fakeDexHistory(venues.market).instruments.map((i) => i.venueKey));
  const adapter = createDexAdapter({ baseUrl: venues.env.GECKOTERMINAL_API_URL });
  let read = 0;
  for (let n = 0; n < 5; n++) {
    const { quotes } = await adapter.fetchQuotes();
    for (const q of quotes) {
      expect(keys.has(q.venueKey)).toBe(true);
      read++;
    }
  }
  // Every pool the adapter quotes has a past, and nothing else has one.
  expect(read).toBe(keys.size);
});
