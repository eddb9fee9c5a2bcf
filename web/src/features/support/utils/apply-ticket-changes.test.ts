import { type BroadcastChange, type ChangeEvent } from "@domain/realtime";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  applyTicketMessage,
  applyTicketStatus,
  type SupportTicket,
  type TicketMessage,
} from "./apply-ticket-changes";

function change<Row>(
  operation: ChangeEvent,
  record: Row | null,
  oldRecord: Row | null = null,
  table = "messages",
): BroadcastChange<Row> {
  return { schema: "public", table, operation, record, old_record: oldRecord };
}

/** A payload from the network that does not have the promised shape. */
function malformed<T>(value: unknown): T {
  return value as T;
}

let warn: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  warn = vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterEach(() => {
  warn.mockRestore();
});

describe("applyTicketMessage", () => {
  const reply = (id: string): TicketMessage => ({
    id,
    ticket_id: "ticket-1",
    sender_id: "admin-1",
    content: `reply ${id}`,
    is_admin_reply: true,
    created_at: "2026-11-21T12:00:00Z",
  });
  const list = [reply("r1")];

  it("appends a new reply", () => {
    expect(
      applyTicketMessage(list, change("INSERT", reply("r2"), null, "ticket_messages")),
    ).toEqual([reply("r1"), reply("r2")]);
    expect(
      applyTicketMessage(undefined, change("INSERT", reply("r1"), null, "ticket_messages")),
    ).toEqual([reply("r1")]);
  });

  it("ignores a reply that is already there", () => {
    expect(applyTicketMessage(list, change("INSERT", reply("r1"), null, "ticket_messages"))).toBe(
      list,
    );
  });

  it("ignores other operations and other tables", () => {
    expect(applyTicketMessage(list, change("UPDATE", reply("r1"), null, "ticket_messages"))).toBe(
      list,
    );
    expect(applyTicketMessage(list, change("DELETE", null, reply("r1"), "ticket_messages"))).toBe(
      list,
    );
    expect(applyTicketMessage(list, change("INSERT", reply("r2"), null, "support_tickets"))).toBe(
      list,
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("ignores and logs a malformed INSERT", () => {
    expect(
      applyTicketMessage(list, change<TicketMessage>("INSERT", null, null, "ticket_messages")),
    ).toBe(list);
    expect(applyTicketMessage(list, malformed("INSERT"))).toBe(list);
    expect(warn).toHaveBeenCalledTimes(2);
  });
});

describe("applyTicketStatus", () => {
  const ticket: SupportTicket = {
    id: "ticket-1",
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
  const closed = (overrides: Partial<SupportTicket> = {}) =>
    change<SupportTicket>(
      "UPDATE",
      {
        ...ticket,
        status: "closed",
        subject: "changed elsewhere",
        updated_at: "2026-11-21T13:00:00Z",
        ...overrides,
      },
      ticket,
      "support_tickets",
    );

  it("merges status and updated_at, nothing else", () => {
    expect(applyTicketStatus(ticket, closed())).toEqual({
      ...ticket,
      status: "closed",
      updated_at: "2026-11-21T13:00:00Z",
    });
  });

  it("keeps extra fields of a richer cached ticket", () => {
    const rich = { ...ticket, messageCount: 3 };
    expect(applyTicketStatus(rich, closed())).toEqual({
      ...rich,
      status: "closed",
      updated_at: "2026-11-21T13:00:00Z",
    });
  });

  it("keeps updated_at when the change does not carry one", () => {
    const next = applyTicketStatus(ticket, closed({ updated_at: malformed(undefined) }));
    expect(next).toEqual({ ...ticket, status: "closed" });
  });

  it("returns the same ticket when nothing changes", () => {
    expect(
      applyTicketStatus(ticket, closed({ status: ticket.status, updated_at: ticket.updated_at })),
    ).toBe(ticket);
  });

  it("ignores another ticket, other tables and other operations", () => {
    expect(applyTicketStatus(ticket, closed({ id: "ticket-2" }))).toBe(ticket);
    expect(applyTicketStatus(ticket, { ...closed(), table: "ticket_messages" })).toBe(ticket);
    expect(applyTicketStatus(ticket, { ...closed(), operation: "INSERT" })).toBe(ticket);
    expect(warn).not.toHaveBeenCalled();
  });

  it("has nothing to merge into when no ticket is cached", () => {
    expect(applyTicketStatus(undefined, closed())).toBeUndefined();
  });

  it("ignores and logs an UPDATE without id or status", () => {
    expect(applyTicketStatus(ticket, change("UPDATE", null, ticket, "support_tickets"))).toBe(
      ticket,
    );
    expect(applyTicketStatus(ticket, closed({ status: malformed(null) }))).toBe(ticket);
    expect(applyTicketStatus(ticket, malformed({}))).toBe(ticket);
    expect(warn).toHaveBeenCalledTimes(3);
  });
});
