import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import type { SupportTicket } from "../utils/apply-ticket-changes";

const TICKET_ID = "3b9e2a10-0000-4000-8000-00000000000b";

function ticket(overrides: Partial<SupportTicket> = {}): SupportTicket {
  return {
    id: TICKET_ID,
    ticket_number: 1001,
    user_id: TEST_USER_ID,
    subject: "Alerts stopped",
    content: "My e-mail alerts stopped arriving.",
    priority: "high",
    status: "open",
    awaiting_admin: true,
    created_at: "2026-11-21T12:00:00Z",
    updated_at: "2026-11-21T12:00:00Z",
    support_plan: "basic",
    response_due_at: "2026-11-22T12:00:00Z",
    first_response_at: null,
    ...overrides,
  };
}

describe("/support", () => {
  it("sends a logged-out visitor to the login page and back", async () => {
    const { router } = renderRoute("/support");
    await screen.findByRole("heading", { name: "Welcome back" });
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(router.state.location.search).toBe("?redirect=/support");
  });

  it("shows the empty state, whose button opens the New Ticket dialog with medium priority", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    supabaseMock.setTable("support_tickets", { data: [], error: null });
    renderRoute("/support");

    expect(await screen.findByRole("heading", { name: "Support Center" })).toBeInTheDocument();
    expect(await screen.findByText("You don't have any support tickets yet")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Create Your First Ticket" }));

    const dialog = await screen.findByRole("dialog", { name: "New Ticket" });
    expect(within(dialog).getByRole("combobox", { name: "Priority" })).toHaveTextContent("Medium");
    fireEvent.change(within(dialog).getByLabelText("Subject"), { target: { value: "  Hi " } });
    fireEvent.change(within(dialog).getByLabelText("Details"), { target: { value: "too short" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create Ticket" }));
    expect(
      await within(dialog).findByText("The subject must be at least 5 characters."),
    ).toBeInTheDocument();
    expect(
      within(dialog).getByText("The details must be at least 10 characters."),
    ).toBeInTheDocument();
  });

  it("lists the user's own tickets with number, badges, subject and a link to each", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    const reads: unknown[] = [];
    supabaseMock.setTable("support_tickets", ({ filters }) => {
      reads.push(filters);
      return {
        data: [
          ticket(),
          ticket({
            id: "4c0f3b21-0000-4000-8000-00000000000c",
            ticket_number: 1002,
            subject: "Billing",
            status: "closed",
            priority: "low",
          }),
        ],
        error: null,
      };
    });
    renderRoute("/support");

    const list = await screen.findByRole("list", { name: "Your support tickets" });
    const items = within(list).getAllByRole("link");
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAttribute("href", `/support/ticket/${TICKET_ID}`);
    expect(items[0]).toHaveTextContent("#1001");
    expect(items[0]).toHaveTextContent("Open");
    expect(items[0]).toHaveTextContent("High priority");
    expect(items[0]).toHaveTextContent("Alerts stopped");
    expect(items[1]).toHaveTextContent("Closed");
    expect(items[1]).toHaveTextContent("Low priority");
    // Only the reader's own tickets, even for an admin.
    expect(reads).toContainEqual([["eq", "user_id", TEST_USER_ID]]);
  });
});
