import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";

// The route composes the settings page with the alerts feature's delivery card (features do not
// import each other); the card is there on the enterprise plan only (decision 0020).
describe("/dashboard/settings", () => {
  it("shows the alert delivery card to an enterprise subscriber", async () => {
    supabaseMock.signInWithProfile("ada@example.com", {
      plan: "enterprise",
      subscription_active: true,
    });
    renderRoute("/dashboard/settings");
    expect(await screen.findByText("Alert delivery", {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it("shows the settings without the delivery card on other plans", async () => {
    supabaseMock.signInWithProfile("ada@example.com", { plan: "pro", subscription_active: true });
    renderRoute("/dashboard/settings");
    expect(
      await screen.findByRole("heading", { name: "Settings", level: 1 }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText("Alert delivery")).not.toBeInTheDocument();
  });
});
