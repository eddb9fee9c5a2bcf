import { screen } from "@testing-library/react";
import type { RouteObject } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { RequireAuth } from "./require-auth";
import { RequireNotBanned } from "./require-not-banned";

const table: RouteObject[] = [
  { path: "/auth/login", element: <h1>Login page</h1> },
  {
    element: <RequireAuth />,
    children: [
      {
        element: <RequireNotBanned />,
        children: [{ path: "/community/groups", element: <h1>Groups page</h1> }],
      },
    ],
  },
];

const open = (path: string) => renderRoute(path, { table });

describe("RequireNotBanned", () => {
  it("lets a signed-in account through", async () => {
    supabaseMock.signInWithProfile("trader@example.com");
    open("/community/groups");
    expect(await screen.findByRole("heading", { name: "Groups page" })).toBeInTheDocument();
  });

  it("shows a banned account why the page is closed, not the page", async () => {
    supabaseMock.signInWithProfile("trader@example.com", {
      banned: true,
      banned_reason: "Fixture ban",
    });
    open("/community/groups");
    expect(
      await screen.findByRole("heading", { name: "Your account has been banned" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Groups page" })).not.toBeInTheDocument();
  });
});
