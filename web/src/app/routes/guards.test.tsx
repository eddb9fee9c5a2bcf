import { screen, waitFor } from "@testing-library/react";
import type { RouteObject } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { RequireAuth } from "./require-auth";
import { RequireSubscriber } from "./require-subscriber";

const table: RouteObject[] = [
  { path: "/auth/login", element: <h1>Login page</h1> },
  { path: "/pricing", element: <h1>Pricing page</h1> },
  {
    element: <RequireAuth />,
    children: [
      { path: "/profile", element: <h1>Profile page</h1> },
      {
        element: <RequireSubscriber />,
        children: [
          { path: "/dashboard", element: <h1>Dashboard frame</h1> },
          { path: "/dashboard/settings", element: <h1>Settings page</h1> },
        ],
      },
    ],
  },
];

const open = (path: string) => renderRoute(path, { table });

describe("RequireAuth", () => {
  it("sends a visitor to the login page with the way back", async () => {
    const { router } = open("/profile?tab=avatar");

    expect(await screen.findByRole("heading", { name: "Login page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(
      "/profile?tab=avatar",
    );
  });

  it("shows only a small spinner while the session is read", async () => {
    let finish: (value: unknown) => void = () => {};
    supabaseMock.client.auth.getSession.mockImplementationOnce(
      () => new Promise((resolve) => (finish = resolve)) as never,
    );
    open("/profile");

    expect(await screen.findByRole("status", { name: "Loading…" })).toBeInTheDocument();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
    finish({ data: { session: null }, error: null });
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeInTheDocument();
  });

  it("lets a logged-in user through", async () => {
    supabaseMock.signInWithProfile("free@example.com");
    open("/profile");
    expect(await screen.findByRole("heading", { name: "Profile page" })).toBeInTheDocument();
  });
});

describe("RequireSubscriber", () => {
  it("lets a user with an active paid plan through", async () => {
    supabaseMock.signInWithProfile("pro@example.com", { plan: "pro", subscription_active: true });
    open("/dashboard/settings");
    expect(await screen.findByRole("heading", { name: "Settings page" })).toBeInTheDocument();
  });

  it.each([
    ["a free user", { plan: "none" as const }],
    ["an inactive subscription", { plan: "basic" as const, subscription_active: false }],
    ["a banned subscriber", { plan: "pro" as const, subscription_active: true, banned: true }],
  ])("sends %s to pricing with a toast", async (_label, profile) => {
    supabaseMock.signInWithProfile("user@example.com", profile);
    const { router } = open("/dashboard/settings");

    expect(await screen.findByRole("heading", { name: "Pricing page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/pricing");
    expect(await screen.findByText("Active subscription required")).toBeInTheDocument();
    expect(
      screen.getByText("Please subscribe to a plan to access the dashboard"),
    ).toBeInTheDocument();
  });

  it("back from checkout, waits for the webhook to activate the plan instead of bouncing", async () => {
    supabaseMock.signInWithProfile("buyer@example.com", { plan: "none" });
    const { router } = open("/dashboard/settings?checkout=success");

    expect(await screen.findByRole("status", { name: "Loading…" })).toBeInTheDocument();
    // The webhook lands a moment later; the guard re-reads the profile every second.
    supabaseMock.signInWithProfile("buyer@example.com", { plan: "pro", subscription_active: true });
    expect(
      await screen.findByRole("heading", { name: "Settings page" }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/dashboard/settings");
    expect(screen.queryByText("Active subscription required")).not.toBeInTheDocument();
  });

  it("asks a visitor to log in first", async () => {
    const { router } = open("/dashboard/settings");
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login"));
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe(
      "/dashboard/settings",
    );
  });
});

describe("a page that draws its own frame while the session is read (/dashboard)", () => {
  function holdSession() {
    let finish: (value: unknown) => void = () => {};
    supabaseMock.client.auth.getSession.mockImplementationOnce(
      () => new Promise((resolve) => (finish = resolve)) as never,
    );
    return (value: unknown) => finish(value);
  }

  it("is rendered at once, then a visitor still goes to the login page", async () => {
    const finish = holdSession();
    const { router } = open("/dashboard");

    expect(await screen.findByRole("heading", { name: "Dashboard frame" })).toBeInTheDocument();
    expect(screen.queryByRole("status", { name: "Loading…" })).not.toBeInTheDocument();
    finish({ data: { session: null }, error: null });
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/auth/login");
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe("/dashboard");
  });

  it("sends a free account to pricing once the profile is read", async () => {
    supabaseMock.signInWithProfile("free@example.com", { plan: "none" });
    const { router } = open("/dashboard");
    expect(await screen.findByRole("heading", { name: "Pricing page" })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe("/pricing");
    expect(await screen.findByText("Active subscription required")).toBeInTheDocument();
  });

  it("other guarded pages still wait behind the spinner", async () => {
    const finish = holdSession();
    open("/dashboard/settings");
    expect(await screen.findByRole("status", { name: "Loading…" })).toBeInTheDocument();
    expect(screen.queryByRole("heading")).not.toBeInTheDocument();
    finish({ data: { session: null }, error: null });
    expect(await screen.findByRole("heading", { name: "Login page" })).toBeInTheDocument();
  });
});

describe("the app's guarded routes", () => {
  it("asks a visitor to log in before the profile", async () => {
    const { router } = renderRoute("/profile");
    await waitFor(() => expect(router.state.location.pathname).toBe("/auth/login"));
    expect(new URLSearchParams(router.state.location.search).get("redirect")).toBe("/profile");
  });

  it("sends a free user from the alert settings to pricing", async () => {
    supabaseMock.signInWithProfile("free@example.com");
    const { router } = renderRoute("/dashboard/settings");
    await waitFor(() => expect(router.state.location.pathname).toBe("/pricing"));
    expect(await screen.findByText("Active subscription required")).toBeInTheDocument();
  });
});
