// One Realtime connection per function instance for every live stream it serves (decision
// 0026). Streams of the same topic share one channel; the channel is left when its last stream
// ends. The connection is made with the service key because one socket carries the streams of
// many users; each stream is authorised by the database with its caller's token before it is
// attached (and again periodically while it lasts: streams.ts, market.ts), so the rules that
// decide who may read a group, a ticket or a window are the same as everywhere else.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { type Env, requireEnv } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { API_NOT_CONFIGURED } from "./errors.ts";

export interface HubMessage {
  event: string;
  payload: unknown;
}

export interface HubListener {
  onMessage(message: HubMessage): void;
  /** The channel ended after the join (closed by the server, connection lost). */
  onEnd(reason: string): void;
}

export interface TopicSubscription {
  /** Detaches this listener; the channel is left when it was the last (idempotent). */
  close(): void;
}

export interface RealtimeHub {
  /** Attaches a listener to `topic`, joining the channel first when needed. */
  subscribe(topic: string, listener: HubListener, timeoutMs: number): Promise<TopicSubscription>;
  stats(): { connections: number; channels: number; listeners: number };
}

interface Entry {
  channel: RealtimeChannel;
  listeners: Set<HubListener>;
  ready: Promise<void>;
  joined: boolean;
}

/** A hub over one supabase-js client (one Realtime socket). */
export function createHub(makeClient: () => SupabaseClient): RealtimeHub {
  let client: SupabaseClient | null = null;
  const topics = new Map<string, Entry>();
  /** Channels being left: supabase-js hands back a channel of the same topic until it is gone. */
  const leaving = new Map<string, Promise<unknown>>();

  function drop(topic: string, entry: Entry) {
    if (topics.get(topic) !== entry) return;
    topics.delete(topic);
    const left = (client?.removeChannel(entry.channel) ?? Promise.resolve()).catch(() => {})
      .finally(() => {
        if (leaving.get(topic) === left) leaving.delete(topic);
      });
    leaving.set(topic, left);
  }

  function open(topic: string, timeoutMs: number): Entry {
    client ??= makeClient();
    const channel = client.channel(topic, { config: { private: true } });
    const entry: Entry = { channel, listeners: new Set(), ready: Promise.resolve(), joined: false };
    channel.on("broadcast", { event: "*" }, (message) => {
      const m = message as { event?: string; payload?: unknown };
      for (const l of [...entry.listeners]) {
        try {
          l.onMessage({ event: String(m.event ?? ""), payload: m.payload });
        } catch (err) {
          console.error("[api] a stream listener failed:", err);
        }
      }
    });
    entry.ready = new Promise<void>((resolve, reject) => {
      let settled = false;
      channel.subscribe((status, err) => {
        if (!settled) {
          settled = true;
          if (status === "SUBSCRIBED") {
            entry.joined = true;
            resolve();
            return;
          }
          drop(topic, entry);
          reject(
            status === "CHANNEL_ERROR"
              ? new HttpError(
                403,
                "stream_refused",
                `The live stream was refused: ${err?.message ?? status}`,
              )
              : new HttpError(
                503,
                "realtime_unavailable",
                "The live stream is unavailable right now. Please try again.",
              ),
          );
          return;
        }
        if (
          entry.joined &&
          (status === "CHANNEL_ERROR" || status === "CLOSED" || status === "TIMED_OUT")
        ) {
          entry.joined = false;
          drop(topic, entry);
          const reason = err?.message ?? `The live stream ${topic} was closed.`;
          for (const l of [...entry.listeners]) l.onEnd(reason);
          entry.listeners.clear();
        }
      }, timeoutMs);
    });
    topics.set(topic, entry);
    return entry;
  }

  return {
    async subscribe(topic, listener, timeoutMs) {
      if (!topics.has(topic) && leaving.has(topic)) await leaving.get(topic);
      const entry = topics.get(topic) ?? open(topic, timeoutMs);
      entry.listeners.add(listener);
      try {
        await entry.ready;
      } catch (err) {
        entry.listeners.delete(listener);
        throw err;
      }
      let closed = false;
      return {
        close() {
          if (closed) return;
          closed = true;
          entry.listeners.delete(listener);
          if (entry.listeners.size === 0) drop(topic, entry);
        },
      };
    },
    stats() {
      let listeners = 0;
      for (const e of topics.values()) listeners += e.listeners.size;
      return { connections: client ? 1 : 0, channels: topics.size, listeners };
    },
  };
}

const hubs = new Map<string, RealtimeHub>();

/** The instance's hub for this project (created on first use, one per URL and key). */
export function sharedHub(env: Env): RealtimeHub {
  const vars = requireEnv(
    env,
    ["SUPABASE_URL", ["SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_SECRET_KEY"]],
    API_NOT_CONFIGURED,
  );
  const key = `${vars.SUPABASE_URL}|${vars.SUPABASE_SERVICE_ROLE_KEY}`;
  let hub = hubs.get(key);
  if (!hub) {
    hub = createHub(() =>
      createClient(vars.SUPABASE_URL, vars.SUPABASE_SERVICE_ROLE_KEY, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      })
    );
    hubs.set(key, hub);
  }
  return hub;
}
