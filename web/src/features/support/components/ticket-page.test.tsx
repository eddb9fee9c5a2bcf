import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import type { ThreadMessage, TicketWithOwner } from "../api/queries";

const TICKET_ID = "3b9e2a10-0000-4000-8000-00000000000b";
const ADMIN_ID = "00000000-0000-4000-8000-0000000000ad";

function ticketRow(overrides: Partial<TicketWithOwner> = {}): TicketWithOwner {
  return {
    id: TICKET_ID,
    ticket_number: 1001,
    user_id: TEST_USER_ID,
    subject: "Alerts stopped",
    content: "My e-mail alerts stopped arriving.",
    priority: "medium",
    status: "open",
    awaiting_admin: true,
    created_at: "2026-11-21T12:00:00Z",
    updated_at: "2026-11-21T12:00:00Z",
    support_plan: "basic",
    response_due_at: "2026-11-22T12:00:00Z",
    first_response_at: null,
    owner: { username: null, email: "trader@example.com", avatar_url: null },
    ...overrides,
  };
}

function message(overrides: Partial<ThreadMessage> = {}): ThreadMessage {
  return {
    id: "5d000000-0000-4000-8000-000000000001",
    ticket_id: TICKET_ID,
    sender_id: ADMIN_ID,
    content: "We are looking into it.",
    is_admin_reply: true,
    created_at: "2026-11-21T12:05:00Z",
    // The owner may not read an admin's profile.
    sender: null,
    ...overrides,
  };
}

function serve(ticket: TicketWithOwner | null, messages: ThreadMessage[] = []) {
  supabaseMock.setTable("support_tickets", { data: ticket ? [ticket] : [], error: null });
  supabaseMock.setTable("ticket_messages", { data: messages, error: null });
}

describe("/support/ticket/:id", () => {
  it("says Ticket not found, with a way back, for an unknown ticket", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    serve(null);
    renderRoute(`/support/ticket/${TICKET_ID}`);
    expect(await screen.findByText("Ticket not found")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to my tickets" })).toHaveAttribute(
      "href",
      "/support",
    );
  });

  it("does not even ask for an id that is not a ticket id", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    renderRoute("/support/ticket/1001'--");
    expect(await screen.findByText("Ticket not found")).toBeInTheDocument();
    expect(supabaseMock.client.from).not.toHaveBeenCalledWith("support_tickets");
  });

  it("shows the header, the thread with the Admin badge, and no admin tools to the owner", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    serve(ticketRow(), [
      message(),
      message({
        id: "5d000000-0000-4000-8000-000000000002",
        sender_id: TEST_USER_ID,
        is_admin_reply: false,
        content: "Thanks!",
        created_at: "2026-11-21T12:06:00Z",
      }),
    ]);
    renderRoute(`/support/ticket/${TICKET_ID}`);

    expect(await screen.findByRole("heading", { name: "Alerts stopped" })).toBeInTheDocument();
    expect(screen.getByText("#1001")).toBeInTheDocument();
    const thread = await screen.findByTestId("ticket-thread");
    const entries = within(thread).getAllByTestId("thread-message");
    expect(entries).toHaveLength(3);
    expect(entries[0]).toHaveTextContent("My e-mail alerts stopped arriving.");
    expect(entries[1]).toHaveTextContent("Support team");
    expect(within(entries[1]!).getByText("Admin")).toBeInTheDocument();
    expect(entries[2]).toHaveTextContent("You");
    expect(within(entries[2]!).queryByText("Admin")).not.toBeInTheDocument();
    expect(screen.queryByTestId("internal-notes")).not.toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: /Status of ticket/ })).not.toBeInTheDocument();
    expect(supabaseMock.client.from).not.toHaveBeenCalledWith("ticket_notes");
    // The reply form loads after the thread.
    expect(await screen.findByLabelText("Your reply")).toBeEnabled();
  });

  it("disables the reply box and button on a closed ticket", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    serve(ticketRow({ status: "closed" }));
    renderRoute(`/support/ticket/${TICKET_ID}`);

    expect(
      await screen.findByText("This ticket is closed. Replies are no longer possible."),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Your reply")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("takes new replies and a status change live from ticket:<id>", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    serve(ticketRow());
    renderRoute(`/support/ticket/${TICKET_ID}`);
    await screen.findByRole("heading", { name: "Alerts stopped" });
    await waitFor(() => expect(supabaseMock.lastChannel(`ticket:${TICKET_ID}`)).toBeDefined());
    const channel = supabaseMock.lastChannel(`ticket:${TICKET_ID}`);
    act(() => channel.emit("SUBSCRIBED"));
    expect(await screen.findByText("Live")).toBeInTheDocument();

    const live = message({
      id: "5d000000-0000-4000-8000-000000000003",
      content: "Fixed on our side.",
    });
    const { sender: _ignored, ...record } = live;
    act(() =>
      channel.broadcast("INSERT", {
        schema: "public",
        table: "ticket_messages",
        operation: "INSERT",
        record,
        old_record: null,
      }),
    );
    expect(await screen.findByText("Fixed on our side.")).toBeInTheDocument();

    act(() =>
      channel.broadcast("UPDATE", {
        schema: "public",
        table: "support_tickets",
        operation: "UPDATE",
        record: {
          ...ticketRow({ status: "closed", updated_at: "2026-11-21T12:10:00Z" }),
          owner: undefined,
        },
        old_record: { id: TICKET_ID, status: "open" },
      }),
    );
    await waitFor(() => expect(screen.getByLabelText("Your reply")).toBeDisabled());
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("gives an admin the status select, canned replies and internal notes", async () => {
    supabaseMock.signInWithProfile("admin@example.com", {
      role: "admin",
      plan: "enterprise",
      subscription_active: true,
    });
    serve(
      ticketRow({
        user_id: "00000000-0000-4000-8000-0000000000cc",
        owner: { username: "ada", email: "ada@example.com", avatar_url: null },
      }),
    );
    supabaseMock.setTable("ticket_notes", {
      data: [
        {
          id: "6e000000-0000-4000-8000-000000000001",
          ticket_id: TICKET_ID,
          author_id: TEST_USER_ID,
          content: "Check the mail log",
          created_at: "2026-11-21T12:07:00Z",
          author: null,
        },
      ],
      error: null,
    });
    supabaseMock.setTable("canned_replies", {
      data: [
        {
          id: "7f000000-0000-4000-8000-000000000001",
          title: "Greeting",
          content: "Hello, thanks for writing!",
          created_by: null,
          created_at: "2026-11-21T12:00:00Z",
          updated_at: "2026-11-21T12:00:00Z",
        },
      ],
      error: null,
    });
    renderRoute(`/support/ticket/${TICKET_ID}`);

    expect(
      await screen.findByRole("combobox", { name: "Status of ticket #1001" }),
    ).toHaveTextContent("Open");
    expect(screen.getByText(/from ada@example\.com/)).toBeInTheDocument();
    const notes = await screen.findByTestId("internal-notes");
    expect(await within(notes).findByText("Check the mail log")).toBeInTheDocument();
    expect(
      within(notes).getByText("Only admins see these notes; the customer never does."),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the ticket desk" })).toHaveAttribute(
      "href",
      "/admin/tickets",
    );
    // The thread names the owner by the profile admins may read.
    expect(within(await screen.findByTestId("ticket-thread")).getByText("ada")).toBeInTheDocument();

    // Another admin's note arrives live on the admin-only notes topic (never on ticket:<id>).
    supabaseMock.setTable("ticket_notes", {
      data: [
        {
          id: "6e000000-0000-4000-8000-000000000001",
          ticket_id: TICKET_ID,
          author_id: TEST_USER_ID,
          content: "Check the mail log",
          created_at: "2026-11-21T12:07:00Z",
          author: null,
        },
        {
          id: "6e000000-0000-4000-8000-000000000002",
          ticket_id: TICKET_ID,
          author_id: ADMIN_ID,
          content: "Mail log is clean",
          created_at: "2026-11-21T12:08:00Z",
          author: { username: null, email: "other-admin@example.com", avatar_url: null },
        },
      ],
      error: null,
    });
    const notesChannel = supabaseMock.lastChannel(`ticket-notes:${TICKET_ID}`);
    act(() => notesChannel.emit("SUBSCRIBED"));
    act(() =>
      notesChannel.broadcast("INSERT", {
        schema: "public",
        table: "ticket_notes",
        operation: "INSERT",
        record: { id: "6e000000-0000-4000-8000-000000000002" },
        old_record: null,
      }),
    );
    expect(await within(notes).findByText("Mail log is clean")).toBeInTheDocument();
    expect(within(notes).getByText("other-admin@example.com")).toBeInTheDocument();

    // A canned reply goes into the reply box with one click.
    fireEvent.pointerDown(screen.getByRole("button", { name: "Canned replies" }), {
      button: 0,
      ctrlKey: false,
    });
    fireEvent.click(await screen.findByRole("menuitem", { name: /Greeting/ }));
    await waitFor(() =>
      expect(screen.getByLabelText("Your reply")).toHaveValue("Hello, thanks for writing!"),
    );

    // Saving a new canned reply saves only it: the reply being written is neither sent nor
    // checked (the dialog opens from inside the reply form).
    fireEvent.pointerDown(screen.getByRole("button", { name: "Canned replies" }), {
      button: 0,
      ctrlKey: false,
    });
    fireEvent.click(await screen.findByRole("menuitem", { name: /Manage canned replies/ }));
    const dialog = await screen.findByRole("dialog", { name: "Canned replies" });
    fireEvent.change(within(dialog).getByLabelText("Title"), { target: { value: "Refund" } });
    fireEvent.change(within(dialog).getByLabelText("Text"), {
      target: { value: "Your refund is on its way." },
    });
    fireEvent.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() =>
      expect(supabaseMock.updates.filter((w) => w.op === "insert").map((w) => w.table)).toEqual([
        "canned_replies",
      ]),
    );
    expect(screen.getByLabelText("Your reply")).toHaveValue("Hello, thanks for writing!");
  });
});
