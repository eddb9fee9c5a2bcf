import { App } from "@/app/app";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Profile } from "@/lib/profile-query";
import { renderRoute, renderWithProviders } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import { Header } from "./header";

/** The header's main navigation links (desktop bar), by accessible name. */
async function navLinks() {
  const nav = await screen.findByRole("navigation", { name: "Main navigation" });
  return within(nav)
    .getAllByRole("link")
    .map((link) => [link.textContent, link.getAttribute("href")]);
}

const LOGGED_IN_LINKS = [
  ["Pricing", "/pricing"],
  ["Profile", "/profile"],
  ["Community", "/community/groups"],
  ["Support", "/support"],
];

const SUBSCRIBER_LINKS = [
  ["Dashboard", "/dashboard"],
  ["Charts", "/charts"],
  ["Settings", "/dashboard/settings"],
  ...LOGGED_IN_LINKS,
];

async function renderAs(profile: Partial<Profile>, email = "trader@example.com") {
  supabaseMock.signInWithProfile(email, profile);
  renderWithProviders(<Header />);
  expect(await screen.findByText(email)).toBeInTheDocument();
  // Wait for the profile: the subscriber links depend on it.
  await waitFor(() => expect(supabaseMock.client.from).toHaveBeenCalledWith("profiles"));
}

describe("Header", () => {
  it("offers login and start-now to a visitor", async () => {
    renderWithProviders(<Header />);

    expect(await screen.findByRole("link", { name: "Login" })).toHaveAttribute(
      "href",
      "/auth/login",
    );
    expect(screen.getByRole("link", { name: "Start now" })).toHaveAttribute("href", "/pricing");
    expect(screen.getByRole("link", { name: "MoverScan home" })).toHaveAttribute("href", "/");
    expect(await navLinks()).toEqual([["Pricing", "/pricing"]]);
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Upgrade" })).not.toBeInTheDocument();
  });

  it("shows account links, e-mail, upgrade and logout to a free user", async () => {
    await renderAs({ plan: "none" });

    expect(await navLinks()).toEqual(LOGGED_IN_LINKS);
    expect(screen.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
    expect(screen.getAllByRole("button", { name: "Logout" })).toHaveLength(1);
    expect(screen.queryByRole("link", { name: "Login" })).not.toBeInTheDocument();
    expect(screen.queryByText("Admin")).not.toBeInTheDocument();
  });

  it("adds dashboard and settings for a user with an active paid plan", async () => {
    await renderAs({ plan: "pro", subscription_active: true });
    await waitFor(async () => expect(await navLinks()).toEqual(SUBSCRIBER_LINKS));
  });

  it("keeps the dashboard hidden while the subscription is inactive", async () => {
    await renderAs({ plan: "enterprise", subscription_active: false });
    expect(await navLinks()).toEqual(LOGGED_IN_LINKS);
  });

  it("shows a red admin badge and the admin panel's link to an admin", async () => {
    await renderAs({ role: "admin", plan: "enterprise", subscription_active: true });

    await waitFor(async () =>
      expect(await navLinks()).toEqual([...SUBSCRIBER_LINKS, ["Admin", "/admin"]]),
    );
    const badges = screen.getAllByText("Admin", { selector: "[data-slot=badge]" });
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(badge.className).toContain("bg-destructive");
  });

  it("gives a banned user neither dashboard nor admin", async () => {
    await renderAs({ role: "admin", plan: "pro", subscription_active: true, banned: true });
    expect(await navLinks()).toEqual(LOGGED_IN_LINKS);
    expect(screen.queryByText("Admin", { selector: "[data-slot=badge]" })).not.toBeInTheDocument();
  });

  it("logs out: signs out, clears cached data and goes home", async () => {
    supabaseMock.signInWithProfile("trader@example.com", {
      plan: "pro",
      subscription_active: true,
    });
    const { router, queryClient } = renderRoute("/pricing");
    expect(await screen.findByText("trader@example.com")).toBeInTheDocument();
    await waitFor(() => expect(queryClient.getQueryData(["profile", TEST_USER_ID])).toBeTruthy());

    fireEvent.click(screen.getByRole("button", { name: "Logout" }));

    expect(await screen.findByRole("link", { name: "Login" })).toBeInTheDocument();
    expect(supabaseMock.client.auth.signOut).toHaveBeenCalledOnce();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(queryClient.getQueryData(["profile", TEST_USER_ID])).toBeUndefined();
  });

  it("logs out even when the server call fails", async () => {
    supabaseMock.signIn("trader@example.com");
    supabaseMock.client.auth.signOut.mockRejectedValueOnce(new Error("offline"));
    const { router } = renderRoute("/pricing");

    fireEvent.click(await screen.findByRole("button", { name: "Logout" }));

    expect(await screen.findByRole("link", { name: "Login" })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
  });

  it("opens the links in a sheet on small screens and closes it when a link is chosen", async () => {
    renderWithProviders(<Header />);

    fireEvent.click(await screen.findByRole("button", { name: "Open menu" }));
    const sheet = await screen.findByRole("dialog", { name: "Menu" });
    expect(within(sheet).getByRole("link", { name: "Login" })).toBeInTheDocument();
    fireEvent.click(within(sheet).getByRole("link", { name: "Pricing" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("closes the sheet when an account action is chosen", async () => {
    await renderAs({ plan: "basic", subscription_active: true });

    fireEvent.click(await screen.findByRole("button", { name: "Open menu" }));
    const sheet = await screen.findByRole("dialog", { name: "Menu" });
    await waitFor(() =>
      expect(within(sheet).getByRole("link", { name: "Dashboard" })).toBeInTheDocument(),
    );
    expect(within(sheet).getByText("trader@example.com")).toBeInTheDocument();
    fireEvent.click(within(sheet).getByRole("link", { name: "Upgrade" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("switches the language from the language menu and remembers it", async () => {
    renderWithProviders(<Header />);
    expect(await screen.findByRole("link", { name: "Pricing" })).toBeInTheDocument();

    const trigger = await screen.findByRole("button", { name: /Change language/ });
    fireEvent.keyDown(trigger, { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitemradio", { name: "Deutsch" }));

    expect(await screen.findByRole("link", { name: "Preise" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Anmelden" })).toBeInTheDocument();
    expect(localStorage.getItem("language")).toBe("de");
    expect(document.documentElement.lang).toBe("de");
  });
});

describe("logging out in the app's own (browser) router", () => {
  it("from a guarded page lands on the home page, not on the login page", async () => {
    supabaseMock.signInWithProfile("trader@example.com", {
      plan: "pro",
      subscription_active: true,
    });
    window.history.pushState({}, "", "/profile");
    render(<App />);
    fireEvent.click(await screen.findByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("link", { name: "Login" })).toBeInTheDocument();
    await waitFor(() => expect(supabaseMock.client.auth.signOut).toHaveBeenCalledOnce());
    await waitFor(() => expect(window.location.pathname).toBe("/"));
    // The profile guard never sent the reader to the login page on the way.
    await new Promise((r) => setTimeout(r, 100));
    expect(window.location.pathname).toBe("/");
  });
});
