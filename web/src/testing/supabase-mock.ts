import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";
import { vi } from "vitest";

type Result = { data: unknown; error: unknown };
type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;

export type ChannelStatus = "SUBSCRIBED" | "TIMED_OUT" | "CLOSED" | "CHANNEL_ERROR";
type SubscribeCallback = (status: ChannelStatus, err?: Error) => void;
type BroadcastMessage = { type: "broadcast"; event: string; payload: unknown };
type BroadcastCallback = (message: BroadcastMessage) => void;

/**
 * A stand-in for a realtime-js `RealtimeChannel`: records its `broadcast` bindings and the
 * `subscribe` callback so a test can play the server (`emit`, `broadcast`).
 */
export type FakeChannel = ReturnType<typeof createFakeChannel>;

function createFakeChannel(topic: string, params: unknown) {
  const bindings: { event: string; callback: BroadcastCallback }[] = [];
  let onStatus: SubscribeCallback | undefined;
  const channel = {
    topic,
    params,
    /** True once `supabase.removeChannel(channel)` was called. */
    removed: false,
    on: vi.fn((type: string, filter: { event: string }, callback: BroadcastCallback) => {
      if (type === "broadcast") bindings.push({ event: filter.event, callback });
      return channel;
    }),
    subscribe: vi.fn((callback?: SubscribeCallback) => {
      onStatus = callback;
      return channel;
    }),
    /** The broadcast events bound with `.on('broadcast', { event })`. */
    get events() {
      return bindings.map((binding) => binding.event);
    },
    /** Reports a subscription status (and error) the way realtime-js calls the callback. */
    emit(status: ChannelStatus, err?: Error) {
      onStatus?.(status, err);
    },
    /** Delivers a broadcast message to the handlers bound to `event`. */
    broadcast(event: string, payload: unknown) {
      for (const binding of bindings) {
        if (binding.event === event) binding.callback({ type: "broadcast", event, payload });
      }
    },
  };
  return channel;
}

/** A chainable, awaitable stand-in for a PostgREST query builder. */
function queryBuilder(result: () => Result) {
  const builder = {
    select: () => builder,
    eq: () => builder,
    order: () => builder,
    limit: () => builder,
    then: <T>(resolve: (value: Result) => T, reject?: (reason: unknown) => T) =>
      Promise.resolve().then(result).then(resolve, reject),
  };
  return builder;
}

/**
 * The subset of supabase-js the SPA uses, in memory. Installed for every test
 * by setup.ts (`vi.mock('@/lib/supabase')`); steer it with `supabaseMock`.
 */
function createSupabaseMock() {
  let session: Session | null = null;
  let tables = new Map<string, Result>();
  const listeners = new Set<AuthListener>();
  let channels: FakeChannel[] = [];
  const emit = (event: AuthChangeEvent) =>
    listeners.forEach((listener) => listener(event, session));

  const client = {
    auth: {
      getSession: vi.fn(async () => ({ data: { session }, error: null })),
      onAuthStateChange: vi.fn((listener: AuthListener) => {
        listeners.add(listener);
        return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
      }),
      signOut: vi.fn(async () => {
        session = null;
        emit("SIGNED_OUT");
        return { error: null };
      }),
    },
    from: vi.fn((table: string) =>
      queryBuilder(() => tables.get(table) ?? { data: [], error: null }),
    ),
    // Like realtime-js, a topic that already has a channel gets that channel back.
    channel: vi.fn((topic: string, params?: unknown) => {
      const existing = channels.find((channel) => channel.topic === topic && !channel.removed);
      if (existing) return existing;
      const channel = createFakeChannel(topic, params);
      channels.push(channel);
      return channel;
    }),
    // Like realtime-js, leaving a channel fires its subscribe callback with CLOSED.
    removeChannel: vi.fn(async (channel: FakeChannel) => {
      if (!channel.removed) {
        channel.removed = true;
        channel.emit("CLOSED");
      }
      return "ok" as const;
    }),
    realtime: {
      setAuth: vi.fn(async (_token?: string | null) => {}),
    },
  };

  return {
    client,
    /** Start the test logged in as a user with this e-mail. */
    signIn(email: string) {
      const user = { id: "00000000-0000-4000-8000-000000000001", email } as User;
      session = { user, access_token: "test-token" } as Session;
      emit("SIGNED_IN");
    },
    /** What `supabase.from(table)...` resolves to. */
    setTable(table: string, result: Result) {
      tables.set(table, result);
    },
    /** Every channel `supabase.channel(...)` created, oldest first. */
    get channels(): readonly FakeChannel[] {
      return channels;
    },
    /** The newest channel (of a topic); fails the test when there is none. */
    lastChannel(topic?: string): FakeChannel {
      const matching = channels.filter((channel) => topic === undefined || channel.topic === topic);
      const channel = matching.at(-1);
      if (!channel) throw new Error(`no channel${topic === undefined ? "" : ` for ${topic}`}`);
      return channel;
    },
    reset() {
      session = null;
      tables = new Map();
      channels = [];
      listeners.clear();
      vi.clearAllMocks();
    },
  };
}

export const supabaseMock = createSupabaseMock();
