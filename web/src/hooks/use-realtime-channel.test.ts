import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FakeChannel, supabaseMock } from "@/testing/supabase-mock";
import { useRealtimeChannel, type UseRealtimeChannelOptions } from "./use-realtime-channel";

const TOPIC = "market:movers:5";

/** Lets the hook's pending promises (token refresh, removals) settle. */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
  });
}

/** Moves the fake clock and lets whatever the timers started settle. */
async function elapse(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
  await settle();
}

/** Plays the server: reports a status to the newest channel's subscribe callback. */
function emit(...args: Parameters<FakeChannel["emit"]>) {
  act(() => supabaseMock.lastChannel().emit(...args));
}

async function mount(options: Partial<UseRealtimeChannelOptions> = {}) {
  const initialProps: UseRealtimeChannelOptions = { topic: TOPIC, bindings: [], ...options };
  const hook = renderHook((props: UseRealtimeChannelOptions) => useRealtimeChannel(props), {
    initialProps,
  });
  await settle();
  return hook;
}

/** Mounts, joins and goes live; returns the hook and the live channel. */
async function mountLive(options: Partial<UseRealtimeChannelOptions> = {}) {
  const hook = await mount(options);
  emit("SUBSCRIBED");
  expect(hook.result.current.status).toBe("live");
  return { ...hook, channel: supabaseMock.lastChannel() };
}

beforeEach(() => {
  vi.useFakeTimers();
  // No jitter: every backoff delay is exactly its base value.
  vi.spyOn(Math, "random").mockReturnValue(0.5);
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("useRealtimeChannel", () => {
  it("is idle and subscribes nothing when disabled", async () => {
    const { result } = await mount({ enabled: false });
    expect(result.current.status).toBe("idle");
    expect(supabaseMock.client.channel).not.toHaveBeenCalled();
    expect(supabaseMock.client.realtime.setAuth).not.toHaveBeenCalled();
  });

  it("refreshes the token, then joins a private channel and goes live", async () => {
    const { result } = await mount({
      bindings: [
        { event: "movers", handler: () => {} },
        { event: "INSERT", handler: () => {} },
      ],
    });
    expect(result.current.status).toBe("connecting");

    const { setAuth } = supabaseMock.client.realtime;
    expect(setAuth).toHaveBeenCalledOnce();
    expect(setAuth).toHaveBeenCalledWith();
    expect(setAuth.mock.invocationCallOrder[0]).toBeLessThan(
      supabaseMock.client.channel.mock.invocationCallOrder[0],
    );
    expect(supabaseMock.client.channel).toHaveBeenCalledWith(TOPIC, {
      config: { private: true },
    });
    const channel = supabaseMock.lastChannel();
    expect(channel.events.sort()).toEqual(["INSERT", "movers"]);
    expect(channel.subscribe).toHaveBeenCalledOnce();

    emit("SUBSCRIBED");
    expect(result.current.status).toBe("live");
  });

  it("hands each binding the payloads of its event", async () => {
    const movers = vi.fn();
    const inserts = vi.fn();
    await mountLive({
      bindings: [
        { event: "movers", handler: movers },
        { event: "INSERT", handler: inserts },
      ],
    });

    supabaseMock.lastChannel().broadcast("movers", { window: 5, entries: [] });
    supabaseMock.lastChannel().broadcast("UPDATE", { ignored: true });

    expect(movers).toHaveBeenCalledExactlyOnceWith({ window: 5, entries: [] });
    expect(inserts).not.toHaveBeenCalled();
  });

  it("calls the latest handlers without resubscribing", async () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = await mountLive({ bindings: [{ event: "movers", handler: first }] });

    rerender({ topic: TOPIC, bindings: [{ event: "movers", handler: second }] });
    await settle();
    supabaseMock.lastChannel().broadcast("movers", "payload");

    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledExactlyOnceWith("payload");
    expect(supabaseMock.channels).toHaveLength(1);
    expect(supabaseMock.client.removeChannel).not.toHaveBeenCalled();
  });

  it("resubscribes when the set of events changes", async () => {
    const { rerender } = await mountLive({ bindings: [{ event: "INSERT", handler: () => {} }] });
    const first = supabaseMock.lastChannel();

    rerender({
      topic: TOPIC,
      bindings: [
        { event: "INSERT", handler: () => {} },
        { event: "DELETE", handler: () => {} },
      ],
    });
    await settle();

    expect(supabaseMock.client.removeChannel).toHaveBeenCalledWith(first);
    expect(supabaseMock.channels).toHaveLength(2);
    expect(supabaseMock.lastChannel().events.sort()).toEqual(["DELETE", "INSERT"]);
  });

  describe("after a connection error or a timeout", () => {
    it.each([
      ["CHANNEL_ERROR", new Error("socket closed: 1006")],
      ["TIMED_OUT", undefined],
    ] as const)(
      "%s shows reconnecting and keeps the channel for realtime-js to rejoin",
      async (status, err) => {
        const onResubscribed = vi.fn();
        const { result, channel } = await mountLive({ onResubscribed });

        emit(status, err);
        expect(result.current.status).toBe("reconnecting");
        await elapse(60_000);
        expect(supabaseMock.client.removeChannel).not.toHaveBeenCalled();
        expect(supabaseMock.channels).toEqual([channel]);

        emit("SUBSCRIBED");
        expect(result.current.status).toBe("live");
        expect(onResubscribed).toHaveBeenCalledOnce();
      },
    );

    it("a failed first join is no rejoin: onResubscribed waits for a real one", async () => {
      const onResubscribed = vi.fn();
      const { result } = await mount({ onResubscribed });

      emit("TIMED_OUT");
      expect(result.current.status).toBe("reconnecting");
      emit("SUBSCRIBED");
      expect(result.current.status).toBe("live");
      expect(onResubscribed).not.toHaveBeenCalled();

      emit("CHANNEL_ERROR", new Error("channel error: connection lost"));
      emit("SUBSCRIBED");
      expect(onResubscribed).toHaveBeenCalledOnce();
    });

    it("calls the latest onResubscribed", async () => {
      const first = vi.fn();
      const second = vi.fn();
      const { rerender } = await mountLive({ onResubscribed: first });
      rerender({ topic: TOPIC, bindings: [], onResubscribed: second });

      emit("CHANNEL_ERROR", new Error("socket closed: 1006"));
      emit("SUBSCRIBED");

      expect(first).not.toHaveBeenCalled();
      expect(second).toHaveBeenCalledOnce();
    });
  });

  describe("when the server refuses the join", () => {
    it("shows denied, leaves the channel and never retries", async () => {
      const onResubscribed = vi.fn();
      const { result } = await mount({ onResubscribed });
      const channel = supabaseMock.lastChannel();

      emit(
        "CHANNEL_ERROR",
        new Error("Unauthorized: You do not have permissions to read from this Channel topic"),
      );

      expect(result.current.status).toBe("denied");
      expect(supabaseMock.client.removeChannel).toHaveBeenCalledExactlyOnceWith(channel);
      await elapse(10 * 60_000);
      expect(supabaseMock.channels).toHaveLength(1);
      expect(result.current.status).toBe("denied");
      expect(onResubscribed).not.toHaveBeenCalled();
    });

    it("also when an access that was live is revoked", async () => {
      const { result } = await mountLive();
      emit("CHANNEL_ERROR", new Error("Unauthorized: subscription ended"));
      expect(result.current.status).toBe("denied");
      await elapse(60_000);
      expect(supabaseMock.channels).toHaveLength(1);
    });
  });

  describe("when the server closes the channel", () => {
    it("replaces it with a fresh, re-authorised channel after a backoff", async () => {
      const onResubscribed = vi.fn();
      const { result, channel } = await mountLive({
        bindings: [{ event: "movers", handler: () => {} }],
        onResubscribed,
      });

      emit("CLOSED");
      expect(result.current.status).toBe("reconnecting");
      expect(supabaseMock.client.removeChannel).toHaveBeenCalledExactlyOnceWith(channel);

      await elapse(999);
      expect(supabaseMock.channels).toHaveLength(1);
      await elapse(1);
      expect(supabaseMock.channels).toHaveLength(2);
      expect(supabaseMock.client.realtime.setAuth).toHaveBeenCalledTimes(2);

      const fresh = supabaseMock.lastChannel();
      expect(fresh).not.toBe(channel);
      expect(fresh.topic).toBe(TOPIC);
      expect(fresh.params).toEqual({ config: { private: true } });
      expect(fresh.events).toEqual(["movers"]);
      expect(result.current.status).toBe("reconnecting");

      emit("SUBSCRIBED");
      expect(result.current.status).toBe("live");
      expect(onResubscribed).toHaveBeenCalledOnce();
    });

    it("waits 1 s, 2 s, 5 s, 10 s and then 30 s between attempts", async () => {
      await mountLive();
      const waits = [1_000, 2_000, 5_000, 10_000, 30_000, 30_000];

      for (const [index, wait] of waits.entries()) {
        emit("CLOSED");
        await elapse(wait - 1);
        expect(supabaseMock.channels, `attempt ${index + 1}`).toHaveLength(index + 1);
        await elapse(1);
        expect(supabaseMock.channels, `attempt ${index + 1}`).toHaveLength(index + 2);
      }
    });

    it("starts the backoff over after a successful join", async () => {
      await mountLive();
      emit("CLOSED");
      await elapse(1_000);
      emit("CLOSED");
      await elapse(2_000);
      expect(supabaseMock.channels).toHaveLength(3);

      emit("SUBSCRIBED");
      emit("CLOSED");
      await elapse(1_000);
      expect(supabaseMock.channels).toHaveLength(4);
    });

    it("spreads the delay by ±20 %", async () => {
      vi.mocked(Math.random).mockReturnValue(0);
      await mountLive();

      emit("CLOSED");
      await elapse(799);
      expect(supabaseMock.channels).toHaveLength(1);
      await elapse(1);
      expect(supabaseMock.channels).toHaveLength(2);
    });

    it("keeps reconnecting when the token refresh fails", async () => {
      await mountLive();
      supabaseMock.client.realtime.setAuth.mockRejectedValueOnce(new Error("offline"));

      emit("CLOSED");
      await elapse(1_000);

      expect(supabaseMock.channels).toHaveLength(2);
      expect(console.warn).toHaveBeenCalled();
    });

    it("ignores messages of the closed channel", async () => {
      const handler = vi.fn();
      const { channel } = await mountLive({ bindings: [{ event: "movers", handler }] });
      emit("CLOSED");
      channel.broadcast("movers", "late");
      expect(handler).not.toHaveBeenCalled();
    });
  });

  describe("cleanup", () => {
    it("leaves the channel on unmount and does not come back", async () => {
      const { unmount, channel } = await mountLive();

      unmount();
      await settle();

      expect(supabaseMock.client.removeChannel).toHaveBeenCalledExactlyOnceWith(channel);
      await elapse(60_000);
      expect(supabaseMock.channels).toHaveLength(1);
    });

    it("cancels a pending reconnect on unmount", async () => {
      const { unmount } = await mountLive();
      emit("CLOSED");

      unmount();
      expect(vi.getTimerCount()).toBe(0);
      await elapse(60_000);

      expect(supabaseMock.channels).toHaveLength(1);
      expect(supabaseMock.client.realtime.setAuth).toHaveBeenCalledOnce();
    });

    it("creates no channel when unmounted before the token refresh resolved", async () => {
      const hook = renderHook(() => useRealtimeChannel({ topic: TOPIC, bindings: [] }));
      hook.unmount();
      await settle();

      expect(supabaseMock.client.channel).not.toHaveBeenCalled();
    });

    it("switches channels when the topic changes", async () => {
      const { result, rerender, channel } = await mountLive();

      rerender({ topic: "market:movers:10", bindings: [] });
      expect(result.current.status).toBe("connecting");
      await settle();

      expect(supabaseMock.client.removeChannel).toHaveBeenCalledExactlyOnceWith(channel);
      expect(supabaseMock.lastChannel().topic).toBe("market:movers:10");
      emit("SUBSCRIBED");
      expect(result.current.status).toBe("live");
    });

    it("leaves the channel when disabled and joins again when re-enabled", async () => {
      const onResubscribed = vi.fn();
      const { result, rerender, channel } = await mountLive({ onResubscribed });

      rerender({ topic: TOPIC, bindings: [], enabled: false, onResubscribed });
      await settle();
      expect(result.current.status).toBe("idle");
      expect(supabaseMock.client.removeChannel).toHaveBeenCalledExactlyOnceWith(channel);

      rerender({ topic: TOPIC, bindings: [], enabled: true, onResubscribed });
      expect(result.current.status).toBe("connecting");
      await settle();
      expect(supabaseMock.channels).toHaveLength(2);
      emit("SUBSCRIBED");
      expect(result.current.status).toBe("live");
      // A new subscription, not a rejoin: whoever enabled it fetches anyway.
      expect(onResubscribed).not.toHaveBeenCalled();
    });

    it("waits for the old channel of a topic to be gone before joining it again", async () => {
      const { result, rerender, channel } = await mountLive();
      // realtime-js keeps handing out a channel until its leave is acknowledged.
      let acknowledgeLeave = () => {};
      supabaseMock.client.removeChannel.mockImplementationOnce(
        (leaving) =>
          new Promise<"ok">((resolve) => {
            acknowledgeLeave = () => {
              leaving.removed = true;
              resolve("ok");
            };
          }),
      );

      rerender({ topic: TOPIC, bindings: [], enabled: false });
      rerender({ topic: TOPIC, bindings: [], enabled: true });
      await settle();
      expect(supabaseMock.client.channel).toHaveBeenCalledOnce();

      acknowledgeLeave();
      await settle();
      expect(supabaseMock.channels).toHaveLength(2);
      expect(supabaseMock.lastChannel()).not.toBe(channel);
      emit("SUBSCRIBED");
      expect(result.current.status).toBe("live");
    });
  });
});
