// @vitest-environment jsdom
// The SPA's stream hooks with the real supabase-js against the local stack's Realtime: a scan's
// movers land in the TanStack Query cache, a connection drop shows "reconnecting", the rejoin
// refetches what was broadcast while offline, a refused join is final, and chat changes update
// the cached thread. The stack runs in a child process (steered over IPC) so the test can run
// SQL as the owner and cut connections while jsdom hosts the hooks.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { cleanup, configure, renderHook, waitFor } from "@testing-library/react";
import { freshDatabase } from "../support/postgres.ts";
import { createElement, type ReactNode } from "react";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import type { MoverEntry } from "../../supabase/functions/_shared/domain/realtime.ts";
import type { Database } from "../../web/src/lib/database.types.ts";
import { groupKeys } from "../../web/src/features/community/api/queries.ts";
import { useChatLive } from "../../web/src/features/community/hooks/use-chat-live.ts";
import {
  type ChatHistory,
  flattenHistory,
} from "../../web/src/features/community/utils/chat-pages.ts";
import { useMoversStream } from "../../web/src/features/dashboard/hooks/use-movers-stream.ts";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";

// Outcomes, not deadlines (as web/src/testing/setup.ts): testing-library's default 1 s ran out on a
// loaded machine before the first feed query answered.
configure({ asyncUtilTimeout: 10_000 });

let current: SupabaseClient<Database>;
vi.mock("@/lib/supabase", () => ({
  get supabase() {
    return current;
  },
}));

const tmp = mkdtempSync(path.join(tmpdir(), "realtime-hooks-"));
const postgresUrl = inject("stack").postgresUrl;
let stack: StackProcess;

beforeAll(async () => {
  const databaseUrl = await freshDatabase(postgresUrl, "realtime_hooks");
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  stack = await startStackProcess(tmp, databaseUrl);
});
afterEach(async () => {
  cleanup();
  await current?.removeAllChannels();
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function signIn(email: string) {
  const client = createClient<Database>(stack.url, stack.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: {
      transport: WebSocket as never,
      heartbeatIntervalMs: 500,
      reconnectAfterMs: () => 200,
    },
  });
  const { data, error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  expect(error).toBeNull();
  current = client;
  return { client, userId: data.user!.id };
}

function wrapper(queryClient: QueryClient) {
  return ({ children }: { children: ReactNode }) =>
    createElement(QueryClientProvider, { client: queryClient }, children);
}

const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });

describe("useMoversStream", () => {
  it("goes live, applies a scan, shows reconnecting on a drop and refetches what it missed", async () => {
    const { client } = await signIn("enterprise@demo.local");
    const queryClient = newQueryClient();
    let fetches = 0;
    const { result } = renderHook(
      () => {
        const feed = useQuery({
          queryKey: ["movers", 5],
          queryFn: async () => {
            fetches++;
            const { data, error } = await client.rpc("movers_feed", { window_minutes: 5 });
            if (error) throw error;
            return data as unknown as MoverEntry[];
          },
        });
        return { feed, stream: useMoversStream(5) };
      },
      { wrapper: wrapper(queryClient) },
    );
    await waitFor(() => expect(result.current.stream.status).toBe("live"), { timeout: 10_000 });
    await waitFor(() => expect(result.current.feed.data).toBeDefined());
    const sol = () => result.current.feed.data!.find((m) => m.symbol === "SOL/USDT");

    await stack.sql(
      `update public.movers set pct_5min = 77.7, ts = now() where symbol = 'SOL/USDT'`,
    );
    await stack.sql(`select private.broadcast_movers(now() - interval '1 minute')`);
    await waitFor(() => expect(sol()?.pct).toBe(77.7));
    expect(result.current.feed.data![0]!.symbol).toBe("SOL/USDT");
    expect(fetches).toBe(1);

    await stack.dropConnections();
    await waitFor(() => expect(result.current.stream.status).toBe("reconnecting"));
    // A scan while the client is offline: its broadcast is lost to this client...
    await stack.sql(
      `update public.movers set pct_5min = 88.8, ts = now() where symbol = 'SOL/USDT'`,
    );
    await stack.sql(`select private.broadcast_movers(now() - interval '1 minute')`);
    // ...and the rejoin refetches it.
    await waitFor(() => expect(result.current.stream.status).toBe("live"), { timeout: 10_000 });
    await waitFor(() => expect(sol()?.pct).toBe(88.8));
    expect(fetches).toBe(2);
  });

  it("stops for good when the plan does not offer the window", async () => {
    await signIn("basic@demo.local");
    const { result } = renderHook(() => useMoversStream(5), { wrapper: wrapper(newQueryClient()) });
    await waitFor(() => expect(result.current.status).toBe("denied"), { timeout: 10_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(result.current.status).toBe("denied");
    expect((await stack.realtimeStats()).subscriptions).toBe(0);
  });
});

describe("useChatLive", () => {
  it("puts inserts, edits and deletes of the group's messages into the chat's paged history", async () => {
    const { client } = await signIn("pro@demo.local");
    const me = (await client.auth.getUser()).data.user!;
    const group = "10000000-0000-4000-8000-000000000002"; // seeded; pro@ is a member
    const queryClient = newQueryClient();
    const key = groupKeys.history(group);
    queryClient.setQueryData<ChatHistory>(key, { pages: [[]], pageParams: [null] });
    const blocked = new Set<string>();
    const { result } = renderHook(
      () => useChatLive({ groupId: group, enabled: true, me: { id: me.id, name: "pro" }, blocked }),
      { wrapper: wrapper(queryClient) },
    );
    await waitFor(() => expect(result.current.status).toBe("live"), { timeout: 10_000 });
    const held = (id: string) =>
      flattenHistory(queryClient.getQueryData<ChatHistory>(key)).find((m) => m.id === id);

    const sent = await client
      .from("messages")
      .insert({ group_id: group, content: "From the hook test" })
      .select("id")
      .single();
    expect(sent.error).toBeNull();
    const id = sent.data!.id;
    await waitFor(() => expect(held(id)?.content).toBe("From the hook test"));
    await client.from("messages").update({ content: "Edited by the hook test" }).eq("id", id);
    await waitFor(() => expect(held(id)?.content).toBe("Edited by the hook test"));
    await client.from("messages").delete().eq("id", id);
    await waitFor(() => expect(held(id)).toBeUndefined());
  });
});
