import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";
import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { reconnectDelay } from "@/lib/reconnect-delay";
import { loadSupabase } from "@/lib/supabase-loader";

/**
 * - `idle`: not enabled, nothing subscribed.
 * - `connecting`: joining for the first time.
 * - `live`: joined; broadcasts arrive.
 * - `reconnecting`: the connection or the channel dropped; rejoining.
 * - `denied`: the server refused the join (policy on `realtime.messages`); no retry.
 */
export type RealtimeStatus = "idle" | "connecting" | "live" | "reconnecting" | "denied";

export type RealtimeBinding = {
  /** Broadcast event name, e.g. `MOVERS_EVENT` or a `ChangeEvent`. */
  event: string;
  /** Receives the message's payload as sent: validate before use. */
  handler: (payload: unknown) => void;
};

export type UseRealtimeChannelOptions = {
  /** Topic without the `realtime:` prefix, from `@domain/realtime` (`moversTopic(5)`, …). */
  topic: string;
  enabled?: boolean;
  bindings: readonly RealtimeBinding[];
  /** Called after a rejoin that followed a drop: refetch what may have been missed meanwhile. */
  onResubscribed?: () => void;
  /**
   * Realtime Presence on the same channel (needs an insert policy for `presence` on the topic):
   * `key` identifies this client in the state, `onSync` receives the whole state on each change.
   * What `track` last sent is tracked again after every rejoin.
   */
  presence?: { key: string; onSync: (state: Record<string, unknown[]>) => void };
};

/**
 * Removals in flight, per topic. realtime-js hands out the existing channel for a topic until its
 * leave completes, so a new subscription to that topic waits for the old one to be gone.
 */
const pendingRemovals = new Map<string, Promise<unknown>>();

function removeChannel(supabase: SupabaseClient, topic: string, channel: RealtimeChannel): void {
  const removal = supabase
    .removeChannel(channel)
    .catch((error: unknown) => console.warn(`[realtime] leaving ${topic} failed`, error))
    .finally(() => {
      if (pendingRemovals.get(topic) === removal) pendingRemovals.delete(topic);
    });
  pendingRemovals.set(topic, removal);
}

/**
 * Subscribes to a private Realtime channel (Broadcast from Database) while mounted and enabled,
 * and keeps it subscribed:
 *
 * - realtime-js rejoins by itself after a connection error or a join timeout (`reconnecting`);
 * - a channel the server closed (e.g. the access token expired) is replaced by a fresh one after
 *   1 s, 2 s, 5 s, 10 s, then every 30 s (±20 %), each join carrying the current session's token;
 * - a join refused as "Unauthorized" is final (`denied`);
 * - `onResubscribed` runs on every rejoin after the channel had been live, so callers can refetch.
 *
 * Handlers and `onResubscribed` may change between renders without resubscribing; only a change of
 * `topic`, `enabled` or the set of event names does. One subscriber per topic at a time:
 * realtime-js shares a topic's channel between callers.
 */
export function useRealtimeChannel({
  topic,
  enabled = true,
  bindings,
  onResubscribed,
  presence,
}: UseRealtimeChannelOptions): {
  status: RealtimeStatus;
  track: (payload: Record<string, unknown>) => void;
} {
  const [state, setState] = useState<{ topic: string; status: RealtimeStatus } | null>(null);
  const channelRef = useRef<RealtimeChannel | null>(null);
  const trackedRef = useRef<Record<string, unknown> | null>(null);
  const presenceKey = presence?.key ?? null;
  const presenceSync = useEffectEvent((state: Record<string, unknown[]>) =>
    presence?.onSync(state),
  );

  // The set of events decides the channel's bindings; as a string it is a stable dependency.
  const eventsKey = JSON.stringify([...new Set(bindings.map((binding) => binding.event))].sort());

  const dispatch = useEffectEvent((event: string, payload: unknown) => {
    for (const binding of bindings) {
      if (binding.event === event) binding.handler(payload);
    }
  });
  const resubscribed = useEffectEvent(() => onResubscribed?.());

  useEffect(() => {
    if (!enabled) return;
    const events = JSON.parse(eventsKey) as string[];
    let disposed = false;
    let current: RealtimeChannel | null = null;
    let client: SupabaseClient | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let attempt = 0;
    let wasLive = false;

    const report = (status: RealtimeStatus) => {
      if (!disposed) setState({ topic, status });
    };

    const retryLater = () => {
      report("reconnecting");
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        void join();
      }, reconnectDelay(attempt));
      attempt += 1;
    };

    const drop = (channel: RealtimeChannel) => {
      if (current === channel) current = null;
      if (channelRef.current === channel) channelRef.current = null;
      if (client) removeChannel(client, topic, channel);
    };

    const join = async () => {
      // supabase-js is loaded on first use (see loadSupabase).
      const supabase = (client ??= await loadSupabase());
      if (disposed) return;
      try {
        await pendingRemovals.get(topic);
        // The join carries the token set here: make it the current session's.
        await supabase.realtime.setAuth();
      } catch (error) {
        console.warn(`[realtime] refreshing the token for ${topic} failed`, error);
      }
      if (disposed) return;

      let channel: RealtimeChannel;
      try {
        channel = supabase.channel(topic, {
          config: { private: true, ...(presenceKey ? { presence: { key: presenceKey } } : {}) },
        });
        if (presenceKey) {
          channel.on("presence", { event: "sync" }, () => {
            if (!disposed && current === channel) presenceSync(channel.presenceState());
          });
        }
        for (const event of events) {
          channel.on("broadcast", { event }, (message: { payload?: unknown }) => {
            if (!disposed && current === channel) dispatch(event, message.payload);
          });
        }
      } catch (error) {
        console.error(`[realtime] cannot set up ${topic}`, error);
        retryLater();
        return;
      }
      current = channel;
      channelRef.current = channel;

      channel.subscribe((status, err) => {
        // Statuses of a channel we already let go of (our own removal reports CLOSED) are ignored.
        if (disposed || current !== channel) return;
        switch (status) {
          case "SUBSCRIBED":
            attempt = 0;
            report("live");
            if (presenceKey && trackedRef.current) void channel.track(trackedRef.current);
            if (wasLive) resubscribed();
            wasLive = true;
            break;
          case "CHANNEL_ERROR":
            if (err?.message.startsWith("Unauthorized")) {
              drop(channel);
              report("denied");
            } else {
              report("reconnecting");
            }
            break;
          case "TIMED_OUT":
            report("reconnecting");
            break;
          case "CLOSED":
            drop(channel);
            retryLater();
            break;
        }
      });
    };

    void join();

    return () => {
      disposed = true;
      clearTimeout(retryTimer);
      if (current) drop(current);
      setState(null);
    };
  }, [topic, enabled, eventsKey, presenceKey]);

  const track = useCallback((payload: Record<string, unknown>) => {
    trackedRef.current = payload;
    const channel = channelRef.current;
    if (channel?.state === "joined") void channel.track(payload);
  }, []);

  if (!enabled) return { status: "idle", track };
  return { status: state?.topic === topic ? state.status : "connecting", track };
}
