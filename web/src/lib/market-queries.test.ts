import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { supabaseMock } from "@/testing/supabase-mock";
import { marketQueries } from "./market-queries";

describe("marketQueries.history", () => {
  it("reads one instrument through price_history_for, oldest first, numbers parsed", async () => {
    const calls: unknown[] = [];
    supabaseMock.setRpc("price_history_for", (args) => {
      calls.push(args);
      return {
        data: [
          { ts: "2026-03-02T09:00:00+00:00", price: "1000.5", volume_24h: null },
          { ts: "2026-03-02T09:04:50+00:00", price: "1001", volume_24h: "5" },
        ],
        error: null,
      };
    });
    const history = await new QueryClient().fetchQuery(marketQueries.history(7));
    expect(calls).toEqual([{ instrument: 7 }]);
    expect(history).toEqual([
      { ts: "2026-03-02T09:00:00+00:00", price: 1000.5, volume_24h: null },
      { ts: "2026-03-02T09:04:50+00:00", price: 1001, volume_24h: 5 },
    ]);
  });

  it("fails when the database refuses (no active plan)", async () => {
    supabaseMock.setRpc("price_history_for", {
      data: null,
      error: { code: "PT403", message: "Active subscription required" },
    });
    await expect(
      new QueryClient({ defaultOptions: { queries: { retry: false } } }).fetchQuery(
        marketQueries.history(7),
      ),
    ).rejects.toMatchObject({ code: "PT403" });
  });
});
