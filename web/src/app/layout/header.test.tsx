import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { Header } from "./header";

describe("Header", () => {
  it("offers login and start-now to a visitor", async () => {
    renderWithProviders(<Header />);

    expect(await screen.findByRole("link", { name: "Login" })).toHaveAttribute(
      "href",
      "/auth/login",
    );
    expect(screen.getByRole("link", { name: "Start now" })).toHaveAttribute("href", "/pricing");
    expect(screen.getByRole("link", { name: "Pricing" })).toHaveAttribute("href", "/pricing");
    expect(screen.getByRole("link", { name: "MoverScan home" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("button", { name: "Logout" })).not.toBeInTheDocument();
    expect(screen.queryByRole("link", { name: "Profile" })).not.toBeInTheDocument();
  });

  it("shows account links, e-mail, upgrade and logout to a logged-in user", async () => {
    supabaseMock.signIn("trader@example.com");
    renderWithProviders(<Header />);

    expect(await screen.findByText("trader@example.com")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Profile" })).toHaveAttribute("href", "/profile");
    expect(screen.getByRole("link", { name: "Community" })).toHaveAttribute(
      "href",
      "/community/groups",
    );
    expect(screen.getByRole("link", { name: "Support" })).toHaveAttribute("href", "/support");
    expect(screen.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
    expect(screen.queryByRole("link", { name: "Login" })).not.toBeInTheDocument();
    // Dashboard links wait for the profile (paid plan + active subscription).
    expect(screen.queryByRole("link", { name: "Dashboard" })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole("button", { name: "Logout" }));
    expect(await screen.findByRole("link", { name: "Login" })).toBeInTheDocument();
    expect(supabaseMock.client.auth.signOut).toHaveBeenCalledOnce();
  });

  it("opens the links in a sheet on small screens and closes it when a link is chosen", async () => {
    renderWithProviders(<Header />);

    fireEvent.click(await screen.findByRole("button", { name: "Open menu" }));
    const sheet = await screen.findByRole("dialog", { name: "Menu" });
    fireEvent.click(within(sheet).getByRole("link", { name: "Pricing" }));

    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("switches the language from the language menu and remembers it", async () => {
    renderWithProviders(<Header />);
    expect(await screen.findByRole("link", { name: "Pricing" })).toBeInTheDocument();

    const trigger = screen.getByRole("button", { name: /Change language/ });
    fireEvent.keyDown(trigger, { key: "Enter" });
    fireEvent.click(await screen.findByRole("menuitemradio", { name: "Deutsch" }));

    expect(await screen.findByRole("link", { name: "Preise" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Anmelden" })).toBeInTheDocument();
    expect(localStorage.getItem("language")).toBe("de");
    expect(document.documentElement.lang).toBe("de");
  });
});
