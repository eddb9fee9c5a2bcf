import { type MoverEntry, type MoversBroadcast } from "@domain/realtime";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { moverEntry } from "@/testing/movers";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { moversKeys } from "@/lib/market-queries";
import { useMoversStream } from "./use-movers-stream";

/** A 5-minute mover of the feed's shape. */
function mover(instrumentId: number, pct = 5): MoverEntry {
  return moverEntry(
    instrumentId,
    { price: 1, price_3hour_ago: null, pct, window_used: 5 },
    "2026-11-21T12:00:00Z",
  );
}

function scan(window: number, entries: MoverEntry[]): MoversBroadcast {
  return { window, scanned_at: "2026-11-21T12:00:10Z", entries };
}

async function renderStream(windowMinutes = 5, enabled = true) {
  const queryClient = createTestQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useMoversStream(windowMinutes, { enabled }), { wrapper });
  await act(async () => {});
  return { ...hook, queryClient };
}

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("useMoversStream", () => {
  it("joins the window's movers topic and reports its status", async () => {
    const { result } = await renderStream(15);
    const channel = supabaseMock.lastChannel();
    expect(channel.topic).toBe("market:movers:15");
    expect(channel.events).toEqual(["movers"]);
    expect(result.current.status).toBe("connecting");

    act(() => channel.emit("SUBSCRIBED"));
    expect(result.current.status).toBe("live");
  });

  it("puts each scan on top of the cached feed", async () => {
    const { queryClient } = await renderStream(5);
    const key = moversKeys.feed(5);
    queryClient.setQueryData(key, [mover(1), mover(2)]);

    act(() => supabaseMock.lastChannel().broadcast("movers", scan(5, [mover(3), mover(1, 9)])));

    expect(queryClient.getQueryData<MoverEntry[]>(key)).toEqual([mover(3), mover(1, 9), mover(2)]);
  });

  it("leaves a feed that was never fetched alone", async () => {
    const { queryClient } = await renderStream(5);
    act(() => supabaseMock.lastChannel().broadcast("movers", scan(5, [mover(1)])));
    expect(queryClient.getQueryData(moversKeys.feed(5))).toBeUndefined();
  });

  it("ignores movers of another window", async () => {
    const { queryClient } = await renderStream(5);
    queryClient.setQueryData(moversKeys.feed(5), [mover(1)]);

    act(() => supabaseMock.lastChannel().broadcast("movers", scan(10, [mover(2)])));

    expect(queryClient.getQueryData(moversKeys.feed(5))).toEqual([mover(1)]);
    expect(console.warn).toHaveBeenCalled();
  });

  it("refetches the feed after a rejoin, not after the first join", async () => {
    const { queryClient } = await renderStream(5);
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const channel = supabaseMock.lastChannel();

    act(() => channel.emit("SUBSCRIBED"));
    expect(invalidate).not.toHaveBeenCalled();

    act(() => channel.emit("CHANNEL_ERROR", new Error("socket closed: 1006")));
    act(() => channel.emit("SUBSCRIBED"));
    expect(invalidate).toHaveBeenCalledExactlyOnceWith({ queryKey: ["movers", 5] });
  });

  it("subscribes nothing when disabled", async () => {
    const { result } = await renderStream(5, false);
    expect(result.current.status).toBe("idle");
    expect(supabaseMock.channels).toHaveLength(0);
  });
});
