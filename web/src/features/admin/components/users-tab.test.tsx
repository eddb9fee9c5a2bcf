import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { createTestQueryClient } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { parseUsersView, UsersTab } from "./users-tab";

function row(index: number, total = 60) {
  return {
    id: `user-${index}`,
    email: `user${index}@example.com`,
    plan: "pro",
    subscription_active: true,
    banned: false,
    role: "user",
    created_at: "2026-11-01T10:00:00Z",
    last_activity_at: null,
    total_count: total,
  };
}

function renderUsers(route: string) {
  supabaseMock.setRpc("admin_list_users", { data: [row(1)], error: null });
  const router = createMemoryRouter([{ path: "/admin", element: <UsersTab /> }], {
    initialEntries: [route],
  });
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function lastListArgs() {
  const calls = supabaseMock.client.rpc.mock.calls.filter(([fn]) => fn === "admin_list_users");
  return calls.at(-1)?.[1] as Record<string, unknown>;
}

describe("parseUsersView", () => {
  it("reads search, filters, sort and page, and falls back on invalid values", () => {
    expect(
      parseUsersView(
        new URLSearchParams(
          "q=ada&plan=pro&status=banned&sub=inactive&sort=email&order=asc&page=3",
        ),
      ),
    ).toEqual({
      search: "ada",
      plan: "pro",
      status: "banned",
      subscription: "inactive",
      sortBy: "email",
      sortDesc: false,
      page: 2,
    });
    expect(
      parseUsersView(new URLSearchParams("plan=gold&status=x&sort=password&order=up&page=0")),
    ).toEqual({
      search: "",
      plan: "all",
      status: "all",
      subscription: "all",
      sortBy: "created_at",
      sortDesc: true,
      page: 0,
    });
  });
});

describe("UsersTab: the view in the address", () => {
  it("opens a shared address with its search, plan and page", async () => {
    renderUsers("/admin?q=ada&plan=pro&page=2");
    expect(await screen.findByText("user1@example.com")).toBeInTheDocument();
    expect(screen.getByRole("searchbox")).toHaveValue("ada");
    expect(lastListArgs()).toMatchObject({
      search: "ada",
      plan_filter: "pro",
      page_offset: 25,
      sort_by: "created_at",
      sort_desc: true,
    });
  });

  it("writes a sort and a page turn into the address, and a sort starts at page 1", async () => {
    const router = renderUsers("/admin?page=2");
    await screen.findByText("user1@example.com");
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(router.state.location.search).toBe("?page=3"));
    fireEvent.click(screen.getByRole("button", { name: /Email/ }));
    await waitFor(() => expect(router.state.location.search).toBe("?sort=email&order=asc"));
    await waitFor(() => expect(lastListArgs()).toMatchObject({ sort_by: "email", page_offset: 0 }));
  });

  it("puts the search in the address once typing pauses, and leaves a cleared one out", async () => {
    const router = renderUsers("/admin");
    await screen.findByText("user1@example.com");
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "grace" } });
    await waitFor(() => expect(router.state.location.search).toBe("?q=grace"));
    fireEvent.change(screen.getByRole("searchbox"), { target: { value: "" } });
    await waitFor(() => expect(router.state.location.search).toBe(""));
  });
});
