import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import type { TicketWithOwner } from "../api/queries";

function ticketRow(number: number, overrides: Partial<TicketWithOwner> = {}): TicketWithOwner {
  return {
    id: `3b9e2a10-0000-4000-8000-00000000${String(number).padStart(4, "0")}`,
    ticket_number: number,
    user_id: "00000000-0000-4000-8000-0000000000cc",
    subject: `Ticket ${number}`,
    content: "Something needs attention.",
    priority: "medium",
    status: "open",
    awaiting_admin: true,
    created_at: "2026-11-21T12:00:00Z",
    updated_at: "2026-11-21T12:00:00Z",
    support_plan: "basic",
    response_due_at: "2026-11-22T12:00:00Z",
    first_response_at: null,
    owner: { username: null, email: `user${number}@example.com`, avatar_url: null },
    ...overrides,
  };
}

describe("/admin/tickets", () => {
  it("tells a user who is not an admin that admin access is required", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    renderRoute("/admin/tickets");
    expect(await screen.findByText("Admin access required")).toBeInTheDocument();
    expect(supabaseMock.client.from).not.toHaveBeenCalledWith("support_tickets");
  });

  it("sends a logged-out visitor to the login page", async () => {
    const { router } = renderRoute("/admin/tickets");
    await screen.findByRole("heading", { name: "Welcome back" });
    expect(router.state.location.search).toBe("?redirect=/admin/tickets");
  });

  it("lists every ticket with its status select and View & Reply, filtered from the address", async () => {
    supabaseMock.signInWithProfile("admin@example.com", {
      role: "admin",
      plan: "enterprise",
      subscription_active: true,
    });
    const reads: unknown[] = [];
    supabaseMock.setTable("support_tickets", ({ filters }) => {
      reads.push(filters);
      return {
        data: [
          ticketRow(1002, { priority: "high" }),
          ticketRow(1001, { status: "in_progress", awaiting_admin: false }),
        ],
        error: null,
      };
    });
    renderRoute("/admin/tickets?status=open&priority=high");

    expect(
      await screen.findByRole("heading", { name: "Support Tickets Management" }),
    ).toBeInTheDocument();
    const rows = await screen.findAllByTestId("desk-row");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent("#1002");
    expect(rows[0]).toHaveTextContent("user1002@example.com");
    expect(rows[0]).toHaveTextContent("Awaiting reply");
    expect(rows[1]).not.toHaveTextContent("Awaiting reply");
    expect(
      within(rows[1]!).getByRole("combobox", { name: "Status of ticket #1001" }),
    ).toHaveTextContent("In progress");
    expect(within(rows[0]!).getByRole("link", { name: "View & Reply #1002" })).toHaveAttribute(
      "href",
      "/support/ticket/3b9e2a10-0000-4000-8000-000000001002",
    );
    await waitFor(() =>
      expect(reads).toContainEqual([
        ["eq", "status", "open"],
        ["eq", "priority", "high"],
      ]),
    );
  });

  it("shows each ticket's plan and its first-response clock, breached ones marked", async () => {
    supabaseMock.signInWithProfile("admin@example.com", {
      role: "admin",
      plan: "enterprise",
      subscription_active: true,
    });
    const hour = 3_600_000;
    supabaseMock.setTable("support_tickets", {
      data: [
        ticketRow(2001, {
          support_plan: "enterprise",
          created_at: new Date(Date.now() - 2 * hour).toISOString(),
          response_due_at: new Date(Date.now() - hour - 5 * 60_000).toISOString(),
        }),
        ticketRow(2002, {
          support_plan: "pro",
          created_at: new Date(Date.now() - hour).toISOString(),
          response_due_at: new Date(Date.now() + 3 * hour).toISOString(),
        }),
        ticketRow(2003, {
          support_plan: "none",
          awaiting_admin: false,
          first_response_at: "2026-11-21T13:00:00Z",
        }),
      ],
      error: null,
    });
    renderRoute("/admin/tickets");

    const rows = await screen.findAllByTestId("desk-row");
    expect(within(rows[0]!).getByTestId("ticket-plan")).toHaveTextContent("Enterprise");
    expect(within(rows[0]!).getByTestId("response-timer")).toHaveAttribute(
      "data-state",
      "breached",
    );
    expect(within(rows[0]!).getByTestId("response-timer")).toHaveTextContent(
      "Breached by 1 h 5 min",
    );
    expect(within(rows[1]!).getByTestId("ticket-plan")).toHaveTextContent("Pro");
    expect(within(rows[1]!).getByTestId("response-timer")).toHaveTextContent(
      /^2 h 59 min left|^3 h 0 min left/,
    );
    expect(within(rows[2]!).getByTestId("ticket-plan")).toHaveTextContent("Free");
    expect(within(rows[2]!).getByTestId("response-timer")).toHaveTextContent("Answered on time");
  });

  it("shows admins the unanswered count in the header, from the admin-only desk topic", async () => {
    supabaseMock.signInWithProfile("admin@example.com", {
      role: "admin",
      plan: "enterprise",
      subscription_active: true,
    });
    let waiting = 3;
    supabaseMock.setTable("support_tickets", ({ filters }) =>
      filters.some(([op, column]) => op === "eq" && column === "awaiting_admin")
        ? ({ data: null, error: null, count: waiting } as never)
        : { data: [], error: null },
    );
    renderRoute("/profile");

    const link = await screen.findByTestId("desk-header-link");
    expect(link).toHaveAttribute("href", "/admin/tickets");
    expect(await within(link).findByText("3")).toBeInTheDocument();
    expect(link).toHaveAccessibleName("Support tickets (3 waiting for a reply)");

    // A desk message refetches the count.
    const channel = supabaseMock.lastChannel("support:desk");
    expect(channel.params).toEqual({ config: { private: true } });
    waiting = 2;
    channel.emit("SUBSCRIBED");
    channel.broadcast("desk", {
      ticket_id: "3b9e2a10-0000-4000-8000-000000001002",
      operation: "UPDATE",
    });
    expect(await within(link).findByText("2")).toBeInTheDocument();
  });
});
