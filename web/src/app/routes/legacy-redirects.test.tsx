import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";

async function landsOn(path: string) {
  const { router } = renderRoute(path);
  await waitFor(() =>
    expect(router.state.location.pathname).not.toBe(new URL(path, "http://x").pathname),
  );
  return router.state.location;
}

describe("legacy routes", () => {
  it("sends /auth?redirect=/pricing to the one login route, keeping the redirect", async () => {
    const location = await landsOn("/auth?redirect=/pricing");
    expect(location.pathname).toBe("/auth/login");
    expect(new URLSearchParams(location.search).get("redirect")).toBe("/pricing");
    expect(await screen.findByRole("heading", { name: "Welcome back" })).toBeInTheDocument();
  });

  it("sends a bare /auth to the login page", async () => {
    const location = await landsOn("/auth");
    expect(location.pathname).toBe("/auth/login");
    expect(location.search).toBe("");
  });

  it("sends /login (after a session expiry) to the login page with its redirect", async () => {
    const location = await landsOn("/login?redirect=%2Fdashboard%2Fsettings");
    expect(location.pathname).toBe("/auth/login");
    expect(new URLSearchParams(location.search).get("redirect")).toBe("/dashboard/settings");
  });

  it("sends /support/{id} to /support/ticket/{id}", async () => {
    const location = await landsOn("/support/3f1c2b7a-1111-4222-8333-444455556666");
    expect(location.pathname).toBe("/support/ticket/3f1c2b7a-1111-4222-8333-444455556666");
  });
});
