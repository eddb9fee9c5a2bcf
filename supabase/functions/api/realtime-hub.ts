// One Realtime connection per function instance for every live stream it serves (decision
// 0026). Streams of the same topic share one channel; the channel is left when its last stream
// ends. The connection is made with the service key because one socket carries the streams of
// many users; each stream is authorised by the database with its caller's token before it is
// attached (and again periodically while it lasts: streams.ts, market.ts), so the rules that
// decide who may read a group, a ticket or a window are the same as everywhere else.
//
// A shared channel cannot go silent unnoticed (issue 30): every `probeMs` the hub sends a probe
// broadcast on each joined channel (with `broadcast.self`, so its own echo comes back through
// the server) and rejoins a channel whose probe has not come back within two rounds, keeping
// its streams.
// A channel the server closes is rejoined too; only a refused rejoin ends its streams.
// A join the server does not answer in time (a burst of streams while the database is busy) is
// tried again with backoff while the streams waiting on it stay open; they fail with 503 and
// Retry-After only when no join was made within `joinWaitMs` in all (issue 30).
import type { RealtimeChannel, SupabaseClient } from "@supabase/supabase-js";
import { serviceClient } from "../_shared/clients.ts";
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
  /** The probe sent and not yet echoed back, if any, and the probe rounds it has missed. */
  probe: string | null;
  missed: number;
  timeoutMs: number;
}

/** How long in all the streams waiting on a channel's join wait (retries included). */
export const JOIN_WAIT_MS = 30_000;
/** What a 503 for a join that did not happen suggests to the client. */
export const RETRY_AFTER_SECONDS = 5;

/** The hub's own liveness probe; never handed to a stream. */
export const PROBE_EVENT = "hub-probe";

export interface HubOptions {
  /** How often each joined channel is probed, in ms; 0 (the default) probes nothing. */
  probeMs?: number;
  /**
   * How long in all a join may take, retries included, before its waiting streams fail with
   * 503 (at least one attempt of `subscribe`'s timeout). Default 30 s.
   */
  joinWaitMs?: number;
  /** The first pause between join attempts (doubling, with jitter); default 500 ms. */
  joinBackoffMs?: number;
  /** The longest pause between join attempts; default 4 s. */
  joinBackoffMaxMs?: number;
  now?: () => number;
  /**
   * Runs `run` every `ms` until the returned stop is called (the probe's clock; setInterval by
   * default, a manual clock in tests).
   */
  every?: (run: () => void, ms: number) => () => void;
  log?: (line: string) => void;
}

function everyInterval(run: () => void, ms: number): () => void {
  const timer = setInterval(run, ms);
  return () => clearInterval(timer);
}

/** A hub over one supabase-js client (one Realtime socket). */
export function createHub(
  makeClient: () => SupabaseClient,
  {
    probeMs = 0,
    joinWaitMs = JOIN_WAIT_MS,
    joinBackoffMs = 500,
    joinBackoffMaxMs = 4_000,
    now = Date.now,
    every = everyInterval,
    log = (line) => console.warn(line),
  }: HubOptions = {},
): RealtimeHub {
  let client: SupabaseClient | null = null;
  const topics = new Map<string, Entry>();
  /** Stops the probe's clock while it runs (one for all channels). */
  let probeTimer: (() => void) | null = null;
  let probes = 0;
  /** Listeners whose stream was closed (a rejoin must not bring them back). */
  const closed = new WeakSet<HubListener>();
  /** Channels being left: supabase-js hands back a channel of the same topic until it is gone. */
  const leaving = new Map<string, Promise<unknown>>();

  function drop(topic: string, entry: Entry) {
    if (topics.get(topic) !== entry) return;
    topics.delete(topic);
    if (topics.size === 0 && probeTimer !== null) {
      probeTimer();
      probeTimer = null;
    }
    const left = (client?.removeChannel(entry.channel) ?? Promise.resolve()).catch(() => {})
      .finally(() => {
        if (leaving.get(topic) === left) leaving.delete(topic);
      });
    leaving.set(topic, left);
  }

  function endStreams(entry: Entry, reason: string) {
    for (const l of [...entry.listeners]) l.onEnd(reason);
    entry.listeners.clear();
  }

  /**
   * Leaves `entry`'s channel and joins the topic again with the same streams; streams end only
   * when the new join fails.
   */
  function rejoin(topic: string, entry: Entry, why: string) {
    if (topics.get(topic) !== entry) return;
    const listeners = [...entry.listeners];
    entry.listeners.clear();
    entry.joined = false;
    drop(topic, entry);
    if (listeners.length === 0) return;
    log(`[api] realtime channel ${topic} ${why}; rejoining with ${listeners.length} stream(s)`);
    void (async () => {
      await leaving.get(topic);
      // Streams closed while the old channel was being left do not come back.
      const open_ = listeners.filter((l) => !closed.has(l));
      if (open_.length === 0) return;
      const fresh = topics.get(topic) ?? open(topic, entry.timeoutMs);
      for (const l of open_) fresh.listeners.add(l);
      try {
        await fresh.ready;
      } catch (err) {
        for (const l of open_) fresh.listeners.delete(l);
        const reason = err instanceof Error ? err.message : String(err);
        for (const l of open_) if (!closed.has(l)) l.onEnd(reason);
      }
    })();
  }

  function probeAll() {
    for (const [topic, entry] of topics) {
      if (!entry.joined || entry.listeners.size === 0) continue;
      if (entry.probe !== null) {
        // One interval of grace: a busy server (or this instance) may echo late once.
        if (++entry.missed < 2) continue;
        rejoin(
          topic,
          entry,
          `went deaf (probe ${entry.probe} not echoed within ${2 * probeMs} ms)`,
        );
        continue;
      }
      const id = `${Date.now().toString(36)}-${++probes}`;
      entry.probe = id;
      entry.channel
        .send({ type: "broadcast", event: PROBE_EVENT, payload: { probe: id } })
        .catch(() => {});
    }
  }

  function open(topic: string, timeoutMs: number): Entry {
    client ??= makeClient();
    const entry: Entry = {
      channel: null as unknown as RealtimeChannel,
      listeners: new Set(),
      ready: Promise.resolve(),
      joined: false,
      probe: null,
      missed: 0,
      timeoutMs,
    };
    topics.set(topic, entry);
    entry.ready = join(topic, entry);
    // Every stream waiting on the join handles its failure; the entry itself must not.
    entry.ready.catch(() => {});
    return entry;
  }

  /**
   * Joins `topic` for `entry`, trying again with backoff while the server does not answer in
   * time (a busy database can make the first join of a burst of streams time out): the streams
   * wait on `entry.ready` the whole time. A refused join (CHANNEL_ERROR) fails at once (403);
   * a join not made within `joinWaitMs` in all fails with 503 and Retry-After.
   */
  async function join(topic: string, entry: Entry): Promise<void> {
    const started = now();
    const deadline = started + Math.max(entry.timeoutMs, joinWaitMs);
    for (let attempt = 1;; attempt++) {
      const left = Math.max(1, deadline - now());
      const { channel, status, err } = await attach(topic, entry, Math.min(entry.timeoutMs, left));
      if (status === "SUBSCRIBED") {
        if (attempt > 1) {
          log(
            `[api] realtime channel ${topic} joined on attempt ${attempt} after ${
              now() - started
            } ms`,
          );
        }
        return;
      }
      if (status === "CHANNEL_ERROR") {
        drop(topic, entry);
        throw new HttpError(
          403,
          "stream_refused",
          `The live stream was refused: ${err?.message ?? status}`,
        );
      }
      // TIMED_OUT or CLOSED: the old channel goes first (supabase-js hands back a channel of
      // the same topic until it is removed), then a fresh one is tried after the backoff.
      await client!.removeChannel(channel).catch(() => {});
      const backoff = Math.min(
        joinBackoffMaxMs,
        joinBackoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() * 0.5),
      );
      if (now() + backoff >= deadline || topics.get(topic) !== entry) {
        drop(topic, entry);
        log(
          `[api] realtime channel ${topic} not joined after ${attempt} attempt(s) in ${
            now() - started
          } ms (${status.toLowerCase()}); failing ${entry.listeners.size} waiting stream(s)`,
        );
        throw new HttpError(
          503,
          "realtime_unavailable",
          "The live stream is unavailable right now. Please try again.",
          { "Retry-After": String(RETRY_AFTER_SECONDS) },
        );
      }
      log(
        `[api] realtime channel ${topic} join ${status.toLowerCase()} (attempt ${attempt}); ` +
          `trying again in ${
            Math.round(backoff)
          } ms with ${entry.listeners.size} stream(s) waiting`,
      );
      await new Promise((r) => setTimeout(r, backoff));
    }
  }

  /** One join attempt on a fresh channel: resolves with the first status the server gives. */
  function attach(
    topic: string,
    entry: Entry,
    timeoutMs: number,
  ): Promise<{ channel: RealtimeChannel; status: string; err?: Error }> {
    const channel = client!.channel(topic, {
      config: { private: true, broadcast: { self: probeMs > 0 } },
    });
    entry.channel = channel;
    channel.on("broadcast", { event: "*" }, (message) => {
      if (entry.channel !== channel) return;
      const m = message as { event?: string; payload?: unknown };
      if (m.event === PROBE_EVENT) {
        const id = (m.payload as { probe?: unknown } | undefined)?.probe;
        if (id === entry.probe) {
          entry.probe = null;
          entry.missed = 0;
        }
        return;
      }
      for (const l of [...entry.listeners]) {
        try {
          l.onMessage({ event: String(m.event ?? ""), payload: m.payload });
        } catch (err) {
          console.error("[api] a stream listener failed:", err);
        }
      }
    });
    return new Promise((resolve) => {
      let settled = false;
      channel.subscribe((status, err) => {
        if (!settled) {
          settled = true;
          if (status === "SUBSCRIBED") {
            entry.joined = true;
            if (probeMs > 0 && probeTimer === null) probeTimer = every(probeAll, probeMs);
          }
          resolve({ channel, status, err });
          return;
        }
        // Later news of an attempt given up on is not this entry's.
        if (entry.channel !== channel) return;
        if (
          entry.joined &&
          (status === "CHANNEL_ERROR" || status === "CLOSED" || status === "TIMED_OUT")
        ) {
          entry.joined = false;
          if (topics.get(topic) === entry) {
            rejoin(topic, entry, `was ${status.toLowerCase()}${err ? ` (${err.message})` : ""}`);
          } else {
            endStreams(entry, err?.message ?? `The live stream ${topic} was closed.`);
          }
        }
      }, timeoutMs);
    });
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
      return {
        close() {
          if (closed.has(listener)) return;
          closed.add(listener);
          entry.listeners.delete(listener);
          if (entry.listeners.size === 0) drop(topic, entry);
          // After a rejoin the stream listens on the topic's new channel.
          const current = topics.get(topic);
          if (current && current !== entry && current.listeners.delete(listener)) {
            if (current.listeners.size === 0) drop(topic, current);
          }
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
    // API_REALTIME_PROBE_SECONDS: how often each shared channel proves it still hears (30 s).
    const probeSeconds = Number(env("API_REALTIME_PROBE_SECONDS") ?? 30);
    hub = createHub(
      () => serviceClient(env, API_NOT_CONFIGURED),
      { probeMs: Number.isFinite(probeSeconds) && probeSeconds > 0 ? probeSeconds * 1000 : 0 },
    );
    hubs.set(key, hub);
  }
  return hub;
}
