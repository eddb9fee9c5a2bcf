import { screen } from "@testing-library/react";
import type { RouteObject } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { RequireAdmin } from "./require-admin";
import { RequireAuth } from "./require-auth";

const table: RouteObject[] = [
  { path: "/auth/login", element: <h1>Login page</h1> },
  {
    element: <RequireAuth />,
    children: [
      { element: <RequireAdmin />, children: [{ path: "/admin", element: <h1>Admin page</h1> }] },
    ],
  },
];

const open = (path: string) => renderRoute(path, { table });

describe("RequireAdmin", () => {
  it("sends a visitor to the login page", async () => {
    const { router } = open("/admin");
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeInTheDocument();
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe("/admin");
  });

  it("lets an admin through", async () => {
    supabaseMock.signInWithProfile("admin@example.com", { role: "admin", plan: "enterprise" });
    open("/admin");
    expect(await screen.findByRole("heading", { name: "Admin page" })).toBeInTheDocument();
  });

  it.each([
    ["a user", { role: "user" as const }],
    ["a banned admin", { role: "admin" as const, banned: true, banned_reason: "Fixture ban" }],
  ])("shows %s that admin access is required", async (_label, profile) => {
    supabaseMock.signInWithProfile("someone@example.com", profile);
    open("/admin");
    expect(
      await screen.findByRole("heading", { name: "Admin access required" }),
    ).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Admin page" })).not.toBeInTheDocument();
  });
});
