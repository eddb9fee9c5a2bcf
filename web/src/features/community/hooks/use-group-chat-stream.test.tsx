import type { BroadcastChange, ChangeEvent } from "@domain/realtime";
import { QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { groupKeys } from "../api/queries";
import type { ChatMessage } from "../utils/apply-chat-change";
import { type GroupChatStreamOptions, useGroupChatStream } from "./use-group-chat-stream";

const GROUP = "7d1f0c5e-0000-4000-8000-00000000000a";
const BLOCKED = "user-blocked";

function message(id: string, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    group_id: GROUP,
    sender_id: "user-1",
    content: `message ${id}`,
    attachment_type: "none",
    attachment_url: null,
    created_at: "2026-11-21T12:00:00Z",
    updated_at: "2026-11-21T12:00:00Z",
    ...overrides,
  };
}

function change(
  operation: ChangeEvent,
  record: ChatMessage | null,
  oldRecord: ChatMessage | null = null,
): BroadcastChange<ChatMessage> {
  return { schema: "public", table: "messages", operation, record, old_record: oldRecord };
}

async function renderStream(options: GroupChatStreamOptions = {}) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(groupKeys.messages(GROUP), [message("a"), message("b")]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useGroupChatStream(GROUP, options), { wrapper });
  await act(async () => {});
  const channel = supabaseMock.lastChannel();
  const send = (event: string, payload: unknown) => act(() => channel.broadcast(event, payload));
  const messages = () => queryClient.getQueryData<ChatMessage[]>(groupKeys.messages(GROUP));
  return { ...hook, queryClient, channel, send, messages };
}

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("useGroupChatStream", () => {
  it("joins the group's topic for inserts, edits and deletions", async () => {
    const { channel } = await renderStream();
    expect(channel.topic).toBe(`group:${GROUP}`);
    expect(channel.params).toEqual({ config: { private: true } });
    expect(channel.events.sort()).toEqual(["DELETE", "INSERT", "UPDATE"]);
  });

  it("appends, edits and removes messages in the cache", async () => {
    const { send, messages } = await renderStream();

    send("INSERT", change("INSERT", message("c")));
    send("UPDATE", change("UPDATE", message("a", { content: "edited" }), message("a")));
    send("DELETE", change("DELETE", null, message("b")));

    expect(messages()).toEqual([message("a", { content: "edited" }), message("c")]);
  });

  it("skips new messages of blocked senders", async () => {
    const isBlocked = vi.fn((senderId: string) => senderId === BLOCKED);
    const { send, messages } = await renderStream({ isBlocked });

    send("INSERT", change("INSERT", message("c", { sender_id: BLOCKED })));
    send("INSERT", change("INSERT", message("d")));

    expect(messages()?.map((m) => m.id)).toEqual(["a", "b", "d"]);
    expect(isBlocked).toHaveBeenCalledWith(BLOCKED);
  });

  it("logs and ignores payloads that are not database changes", async () => {
    const { send, messages } = await renderStream();
    const before = messages();

    send("INSERT", "garbage");
    send("INSERT", change("INSERT", null));

    expect(messages()).toBe(before);
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it("leaves messages that were never fetched alone", async () => {
    const { queryClient, send } = await renderStream();
    queryClient.removeQueries({ queryKey: groupKeys.messages(GROUP) });

    send("INSERT", change("INSERT", message("c")));

    expect(queryClient.getQueryData(groupKeys.messages(GROUP))).toBeUndefined();
  });

  it("refetches the messages after a rejoin", async () => {
    const { queryClient, channel } = await renderStream();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");

    act(() => channel.emit("SUBSCRIBED"));
    act(() => channel.emit("TIMED_OUT"));
    act(() => channel.emit("SUBSCRIBED"));

    expect(invalidate).toHaveBeenCalledExactlyOnceWith({ queryKey: ["groups", GROUP, "messages"] });
  });
});
