import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { supabaseMock, type ReadFilter } from "@/testing/supabase-mock";
import { HISTORY_PAGE_ROWS, marketQueries } from "./market-queries";

/** `n` samples a second apart, oldest first. */
function samples(n: number) {
  const start = Date.parse("2026-03-02T09:00:00Z");
  return Array.from({ length: n }, (_, i) => ({
    ts: new Date(start + i * 1000).toISOString(),
    price: (1000 + i).toString(),
    volume_24h: i % 2 === 0 ? null : 5,
  }));
}

/** Answers each read with the page its `.range(from, to)` asks for. */
function paged(rows: ReturnType<typeof samples>, reads: ReadFilter[][]) {
  return (read: { filters: readonly ReadFilter[] }) => {
    reads.push([...read.filters]);
    const range = read.filters.find(([op]) => op === "range");
    const from = Number(range?.[1] ?? 0);
    const to = Number(range?.[2] ?? rows.length - 1);
    return { data: rows.slice(from, to + 1), error: null };
  };
}

describe("marketQueries.history", () => {
  it("reads 3 hours of a scan every 10 s in pages of the Data API's 1,000-row cap, newest included", async () => {
    const rows = samples(1_080);
    const reads: ReadFilter[][] = [];
    supabaseMock.setTable("price_history", paged(rows, reads));
    const history = await new QueryClient().fetchQuery(marketQueries.history(7));

    expect(history).toHaveLength(1_080);
    expect(history.at(-1)).toEqual({ ts: rows.at(-1)!.ts, price: 2079, volume_24h: 5 });
    expect(reads.map((r) => r.find(([op]) => op === "range"))).toEqual([
      ["range", "0", HISTORY_PAGE_ROWS - 1],
      ["range", String(HISTORY_PAGE_ROWS), 2 * HISTORY_PAGE_ROWS - 1],
    ]);
    expect(reads[0]).toContainEqual(["eq", "instrument_id", 7]);
  });

  it("stops after one read when the history fits in a page", async () => {
    const reads: ReadFilter[][] = [];
    supabaseMock.setTable("price_history", paged(samples(12), reads));
    const history = await new QueryClient().fetchQuery(marketQueries.history(7));
    expect(history).toHaveLength(12);
    expect(reads).toHaveLength(1);
  });
});
