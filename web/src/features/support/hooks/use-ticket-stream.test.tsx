import type { BroadcastChange, ChangeEvent } from "@domain/realtime";
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { ticketKeys } from "../api/queries";
import type { SupportTicket, TicketMessage } from "../utils/apply-ticket-changes";
import { useTicketStream } from "./use-ticket-stream";

const TICKET = "3b9e2a10-0000-4000-8000-00000000000b";

const ticket: SupportTicket = {
  id: TICKET,
  ticket_number: 42,
  user_id: "user-1",
  subject: "Alerts",
  content: "My alerts stopped.",
  priority: "medium",
  status: "open",
  awaiting_admin: true,
  created_at: "2026-11-21T12:00:00Z",
  updated_at: "2026-11-21T12:00:00Z",
  support_plan: "basic",
  response_due_at: "2026-11-22T12:00:00Z",
  first_response_at: null,
};

function reply(id: string): TicketMessage {
  return {
    id,
    ticket_id: TICKET,
    sender_id: "admin-1",
    content: `reply ${id}`,
    is_admin_reply: true,
    created_at: "2026-11-21T12:30:00Z",
  };
}

function change<Row>(
  table: string,
  operation: ChangeEvent,
  record: Row | null,
  oldRecord: Row | null = null,
): BroadcastChange<Row> {
  return { schema: "public", table, operation, record, old_record: oldRecord };
}

async function renderStream() {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(ticketKeys.detail(TICKET), ticket);
  queryClient.setQueryData(ticketKeys.messages(TICKET), [reply("r1")]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const hook = renderHook(() => useTicketStream(TICKET), { wrapper });
  await act(async () => {});
  const channel = supabaseMock.lastChannel();
  const send = (event: string, payload: unknown) => act(() => channel.broadcast(event, payload));
  return {
    ...hook,
    queryClient,
    channel,
    send,
    cachedTicket: () => queryClient.getQueryData<SupportTicket>(ticketKeys.detail(TICKET)),
    replies: () => queryClient.getQueryData<TicketMessage[]>(ticketKeys.messages(TICKET)),
  };
}

beforeEach(() => {
  vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("useTicketStream", () => {
  it("joins the ticket's topic", async () => {
    const { channel, result } = await renderStream();
    expect(channel.topic).toBe(`ticket:${TICKET}`);
    expect(channel.params).toEqual({ config: { private: true } });
    expect(channel.events.sort()).toEqual(["INSERT", "UPDATE"]);
    act(() => channel.emit("SUBSCRIBED"));
    expect(result.current.status).toBe("live");
  });

  it("appends new replies to the thread", async () => {
    const { send, replies } = await renderStream();
    send("INSERT", change("ticket_messages", "INSERT", reply("r2")));
    send("INSERT", change("ticket_messages", "INSERT", reply("r2")));
    expect(replies()).toEqual([reply("r1"), reply("r2")]);
  });

  it("starts a refetch of the thread over when a reply arrives while it runs, so its older answer cannot drop the reply", async () => {
    const queryClient = createTestQueryClient();
    queryClient.setQueryData(ticketKeys.detail(TICKET), ticket);
    queryClient.setQueryData(ticketKeys.messages(TICKET), [reply("r1")]);
    // The first read began before r2 was stored (its answer lacks r2); a read after has it.
    let answerFirst: (rows: TicketMessage[]) => void = () => {};
    const reads = vi
      .fn<() => Promise<TicketMessage[]>>()
      .mockImplementationOnce(() => new Promise((resolve) => (answerFirst = resolve)))
      .mockImplementation(() => Promise.resolve([reply("r1"), reply("r2")]));
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    renderHook(
      () => {
        useQuery({ queryKey: ticketKeys.messages(TICKET), queryFn: reads, staleTime: 0 });
        return useTicketStream(TICKET);
      },
      { wrapper },
    );
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(1));
    const channel = supabaseMock.lastChannel();
    act(() => channel.broadcast("INSERT", change("ticket_messages", "INSERT", reply("r2"))));
    await act(async () => answerFirst([reply("r1")]));
    await waitFor(() => expect(reads).toHaveBeenCalledTimes(2));
    await waitFor(() =>
      expect(queryClient.getQueryState(ticketKeys.messages(TICKET))?.fetchStatus).toBe("idle"),
    );
    expect(queryClient.getQueryData(ticketKeys.messages(TICKET))).toEqual([
      reply("r1"),
      reply("r2"),
    ]);
  });

  it("merges a status change into the ticket", async () => {
    const { send, cachedTicket, replies } = await renderStream();
    const resolved: SupportTicket = {
      ...ticket,
      status: "resolved",
      updated_at: "2026-11-21T13:00:00Z",
    };

    send("UPDATE", change("support_tickets", "UPDATE", resolved, ticket));

    expect(cachedTicket()).toEqual(resolved);
    expect(replies()).toEqual([reply("r1")]);
  });

  it("routes by table: no ticket inserts in the thread, no reply updates in the ticket", async () => {
    const { send, cachedTicket, replies } = await renderStream();

    send("INSERT", change("support_tickets", "INSERT", { ...ticket, id: "other" }));
    send("UPDATE", change("ticket_messages", "UPDATE", reply("r1")));

    expect(replies()).toEqual([reply("r1")]);
    expect(cachedTicket()).toEqual(ticket);
  });

  it("logs and ignores garbage", async () => {
    const { send, cachedTicket, replies } = await renderStream();
    send("INSERT", null);
    send("UPDATE", { status: "closed" });
    expect(replies()).toEqual([reply("r1")]);
    expect(cachedTicket()).toEqual(ticket);
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it("refetches the ticket and its thread after a rejoin", async () => {
    const { queryClient, channel } = await renderStream();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");

    act(() => channel.emit("SUBSCRIBED"));
    act(() => channel.emit("CHANNEL_ERROR", new Error("socket closed: 1006")));
    act(() => channel.emit("SUBSCRIBED"));

    expect(invalidate).toHaveBeenCalledExactlyOnceWith({ queryKey: ["tickets", TICKET] });
    expect(queryClient.getQueryState(ticketKeys.detail(TICKET))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(ticketKeys.messages(TICKET))?.isInvalidated).toBe(true);
  });
});
