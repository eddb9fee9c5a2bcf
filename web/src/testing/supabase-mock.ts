import type { AuthChangeEvent, Session, User } from "@supabase/supabase-js";
import { vi } from "vitest";

type Result = { data: unknown; error: unknown };
type AuthListener = (event: AuthChangeEvent, session: Session | null) => void;

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
    reset() {
      session = null;
      tables = new Map();
      listeners.clear();
      vi.clearAllMocks();
    },
  };
}

export const supabaseMock = createSupabaseMock();
