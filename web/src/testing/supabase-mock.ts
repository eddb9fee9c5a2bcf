import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";
import { vi } from "vitest";
import type { Profile } from "@/lib/profile-query";

/** The id of the user `signIn` / `signInWithProfile` log in as. */
export const TEST_USER_ID = "00000000-0000-4000-8000-000000000001";

/** A complete `profiles` row for the test user; override what a test cares about. */
export function testProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: TEST_USER_ID,
    email: "trader@example.com",
    username: null,
    avatar_url: null,
    plan: "none",
    subscription_active: false,
    role: "user",
    banned: false,
    banned_at: null,
    banned_reason: null,
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
    last_activity_at: null,
    discord_webhook_url: null,
    telegram_chat_id: null,
    email_alert: null,
    selected_exchanges: ["coinbase", "dex", "cex-major"],
    selected_window_minutes: 30,
    user_threshold: 10,
    alert_directions: "pump",
    alert_cooldown_minutes: 15,
    alert_confluence_min: 0,
    alert_escalation_step: 0,
    alert_daily_cap: null,
    alert_quiet_start: null,
    alert_quiet_end: null,
    alert_quiet_dumps: false,
    alert_include_thin: false,
    alert_require_confirmation: false,
    time_zone: null,
    alert_unsubscribe_token: "7d1f0c3e-2b4a-4c5d-9e8f-0a1b2c3d4e5f",
    locale: null,
    ...overrides,
  };
}

type Result = { data: unknown; error: unknown; status?: number };

/** A read's filters (`eq`, `gte`, `in`, …) in call order, as `[operator, column, value]`. */
export type ReadFilter = [string, string, unknown];
/** What `setTable` answers a read with: a fixed result, or one computed from the read's filters. */
export type TableResult = Result | ((read: { filters: readonly ReadFilter[] }) => Result);

/** A write made through `supabase.from(table).update(values).eq(column, value)`. */
export type RecordedUpdate = {
  table: string;
  values: Record<string, unknown>;
  /** The `.eq(column, value)` filters, in call order. */
  filters: [string, unknown][];
  /** Set for `.insert(values)`; an update has none. */
  op?: "insert";
};

/** A call of `supabase.functions.invoke(name, options)`. */
export type FunctionResult =
  Result | ((options: { body?: unknown } | undefined) => Result | Promise<Result>);
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

/**
 * A chainable, awaitable stand-in for a PostgREST query builder. A read resolves to `result`;
 * after `.update(values)` it resolves to `onUpdate` and the write is handed to `record`.
 */
function queryBuilder(
  result: (filters: readonly ReadFilter[]) => Result,
  update?: {
    onUpdate: () => Result | Promise<Result>;
    record: (values: Record<string, unknown>) => RecordedUpdate;
  },
) {
  let write: RecordedUpdate | undefined;
  const filters: ReadFilter[] = [];
  const filter = (operator: string) => (column: string, value: unknown) => {
    filters.push([operator, column, value]);
    return builder;
  };
  let singleRow = false;
  let returning = false;
  const firstRow = (value: Result): Result =>
    singleRow && Array.isArray(value.data) ? { ...value, data: value.data[0] ?? null } : value;
  const builder = {
    select: () => {
      if (write) returning = true;
      return builder;
    },
    eq: (column?: string, value?: unknown) => {
      if (write && column !== undefined) write.filters.push([column, value]);
      else if (column !== undefined) filters.push(["eq", column, value]);
      return builder;
    },
    neq: filter("neq"),
    gt: filter("gt"),
    gte: filter("gte"),
    lt: filter("lt"),
    lte: filter("lte"),
    in: filter("in"),
    order: () => builder,
    limit: () => builder,
    // Recorded as ["range", "<from>", to], so a table can answer one page per read.
    range: (from: number, to: number) => {
      filters.push(["range", String(from), to]);
      return builder;
    },
    // A row list set with `setTable` yields its first row (or null), like PostgREST.
    maybeSingle: () => {
      singleRow = true;
      return builder;
    },
    single: () => {
      singleRow = true;
      return builder;
    },
    update: (values: Record<string, unknown>) => {
      write = update?.record(values);
      return builder;
    },
    // Recorded beside the updates (`op: "insert"`), answered like one.
    insert: (values: Record<string, unknown>) => {
      write = update?.record(values);
      if (write) write.op = "insert";
      return builder;
    },
    then: <T>(resolve: (value: Result) => T, reject?: (reason: unknown) => T) =>
      Promise.resolve()
        .then(write && update ? update.onUpdate : () => result(filters))
        // An update with `.select()` returns the changed rows: by default the filtered row.
        .then((value) =>
          write && returning && value.data === null && !value.error
            ? { ...value, data: [{ id: write.filters.find(([c]) => c === "id")?.[1] }] }
            : value,
        )
        .then(firstRow)
        .then(resolve, reject),
  };
  return builder;
}

/**
 * The subset of supabase-js the SPA uses, in memory. Installed for every test
 * by setup.ts (`vi.mock('@/lib/supabase')`); steer it with `supabaseMock`.
 */
function createSupabaseMock() {
  let session: Session | null = null;
  let tables = new Map<string, TableResult>();
  let tableUpdates = new Map<string, Result | (() => Result | Promise<Result>)>();
  let updates: RecordedUpdate[] = [];
  let rpcResults = new Map<string, Result | ((args: unknown) => Result | Promise<Result>)>();
  let functionResults = new Map<string, FunctionResult>();
  const listeners = new Set<AuthListener>();
  let channels: FakeChannel[] = [];
  const emit = (event: AuthChangeEvent) =>
    listeners.forEach((listener) => listener(event, session));
  let authFailures = new Map<"signIn" | "signUp", Error>();
  const startSession = (email: string) => {
    const user = { id: TEST_USER_ID, email } as User;
    session = { user, access_token: "test-token" } as Session;
    emit("SIGNED_IN");
    return session;
  };

  const client = {
    auth: {
      getSession: vi.fn(async () => ({ data: { session }, error: null })),
      onAuthStateChange: vi.fn((listener: AuthListener) => {
        listeners.add(listener);
        return { data: { subscription: { unsubscribe: () => listeners.delete(listener) } } };
      }),
      signInWithPassword: vi.fn(async ({ email }: { email: string; password: string }) => {
        const failure = authFailures.get("signIn");
        if (failure) return { data: { user: null, session: null }, error: failure };
        const started = startSession(email);
        return { data: { user: started.user, session: started }, error: null };
      }),
      signUp: vi.fn(async ({ email }: { email: string; password: string; options?: unknown }) => {
        const failure = authFailures.get("signUp");
        if (failure) return { data: { user: null, session: null }, error: failure };
        // As with e-mail confirmation on: a user, no session.
        return { data: { user: { id: TEST_USER_ID, email } as User, session: null }, error: null };
      }),
      signOut: vi.fn(async () => {
        session = null;
        emit("SIGNED_OUT");
        return { error: null };
      }),
    },
    from: vi.fn((table: string) =>
      queryBuilder(
        (filters) => {
          const result = tables.get(table);
          if (typeof result === "function") return result({ filters });
          return result ?? { data: [], error: null };
        },
        {
          onUpdate: () => {
            const result = tableUpdates.get(table);
            if (typeof result === "function") return result();
            return result ?? { data: null, error: null, status: 204 };
          },
          record: (values) => {
            const write: RecordedUpdate = { table, values, filters: [] };
            updates.push(write);
            return write;
          },
        },
      ),
    ),
    rpc: vi.fn(async (fn: string, args?: unknown) => {
      const result = rpcResults.get(fn);
      if (typeof result === "function") return result(args);
      return result ?? { data: null, error: null };
    }),
    functions: {
      invoke: vi.fn(async (name: string, options?: { body?: unknown }) => {
        const result = functionResults.get(name);
        if (typeof result === "function") return result(options);
        return result ?? { data: null, error: null };
      }),
    },
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
      startSession(email);
    },
    /** Log in and give the user this `profiles` row (defaults: free plan, user role). */
    signInWithProfile(email: string, profile: Partial<Profile> = {}) {
      startSession(email);
      tables.set("profiles", { data: testProfile({ email, ...profile }), error: null });
    },
    /** Make `auth.signInWithPassword` / `auth.signUp` answer with this error. */
    failAuth(call: "signIn" | "signUp", error: Error) {
      authFailures.set(call, error);
    },
    /**
     * What `supabase.from(table)...` resolves to; a function sees the read's filters
     * (`eq`, `gte`, `in`, …) and may answer per filter.
     */
    setTable(table: string, result: TableResult) {
      tables.set(table, result);
    },
    /**
     * What `supabase.from(table).update(...)...` resolves to (default: success, 204); a function
     * is called per update and may return a promise (to hold the save pending).
     */
    setTableUpdate(table: string, result: Result | (() => Result | Promise<Result>)) {
      tableUpdates.set(table, result);
    },
    /** Every `update` made through `supabase.from(...)`, oldest first. */
    get updates(): readonly RecordedUpdate[] {
      return updates;
    },
    /** What `supabase.rpc(fn, args)` resolves to; a function sees the arguments. */
    setRpc(fn: string, result: Result | ((args: unknown) => Result | Promise<Result>)) {
      rpcResults.set(fn, result);
    },
    /** What `supabase.functions.invoke(name, options)` resolves to; a function sees the options. */
    setFunction(name: string, result: FunctionResult) {
      functionResults.set(name, result);
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
      tableUpdates = new Map();
      authFailures = new Map();
      updates = [];
      rpcResults = new Map();
      functionResults = new Map();
      channels = [];
      listeners.clear();
      vi.clearAllMocks();
    },
  };
}

export const supabaseMock = createSupabaseMock();
