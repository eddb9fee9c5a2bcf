import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import type { Profile } from "@/lib/profile-query";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock, TEST_USER_ID } from "@/testing/supabase-mock";
import { WindowSelector } from "./window-selector";

type SelectorProfile = Pick<
  Profile,
  "id" | "plan" | "subscription_active" | "selected_window_minutes"
>;

function renderSelector(overrides: Partial<SelectorProfile> = {}) {
  const profile: SelectorProfile = {
    id: TEST_USER_ID,
    plan: "pro",
    subscription_active: true,
    selected_window_minutes: 15,
    ...overrides,
  };
  return renderWithProviders(<WindowSelector profile={profile} />);
}

/** The database's plan rule refuses the update (SQLSTATE 23514, code in `details`). */
function refuse(details: string | null, message = "refused", hint: string | null = null) {
  supabaseMock.setTableUpdate("profiles", {
    data: null,
    error: { message, code: "23514", details, hint },
    status: 400,
  });
}

async function toastWith(text: string) {
  return (await screen.findByText(text)).closest("li")!;
}

describe("WindowSelector", () => {
  it("saves a new window and confirms it", async () => {
    renderSelector();
    fireEvent.change(screen.getByRole("combobox", { name: "Time Window" }), {
      target: { value: "25" },
    });
    expect(await screen.findByText("Filter set to 25 minutes.")).toBeInTheDocument();
    expect(supabaseMock.updates[0]?.values).toEqual({ selected_window_minutes: 25 });
  });

  it("lists the plan's windows when the server says the window is not offered", async () => {
    refuse(
      "window_not_offered",
      "The pro plan does not offer a 25 minute window",
      "Allowed windows: 15, 20, 25, 30",
    );
    renderSelector();
    fireEvent.change(screen.getByRole("combobox", { name: "Time Window" }), {
      target: { value: "25" },
    });
    const toast = await toastWith(
      "Your plan does not offer this time window. Available: 15 minutes, 20 minutes, 25 minutes, and 30 minutes.",
    );
    expect(within(toast).getByText("Error")).toBeInTheDocument();
    expect(toast).not.toHaveTextContent("Could not save time window.");
    expect(toast).not.toHaveTextContent("Allowed windows");
  });

  it("lists enterprise's windows, the 10 seconds included", async () => {
    refuse("window_not_offered");
    renderSelector({ plan: "enterprise", selected_window_minutes: 5 });
    fireEvent.change(screen.getByRole("combobox", { name: "Time Window" }), {
      target: { value: "0" },
    });
    expect(
      await screen.findByText(
        "Your plan does not offer this time window. Available: 10 seconds, 5 minutes, 10 minutes, 15 minutes, 20 minutes, 25 minutes, and 30 minutes.",
      ),
    ).toBeInTheDocument();
  });

  it("explains a refusal for an inactive subscription", async () => {
    refuse("window_needs_active_subscription");
    renderSelector();
    fireEvent.change(screen.getByRole("combobox", { name: "Time Window" }), {
      target: { value: "20" },
    });
    const toast = await toastWith(
      "Your subscription is inactive: the time window cannot be changed.",
    );
    expect(within(toast).getByText("Error")).toBeInTheDocument();
  });

  it("keeps the general text for a refusal without a known code", async () => {
    refuse(null, "The pro plan does not offer a 25 minute window", "Allowed windows: 15, 20");
    renderSelector();
    fireEvent.change(screen.getByRole("combobox", { name: "Time Window" }), {
      target: { value: "25" },
    });
    const toast = await toastWith("Could not save time window.");
    expect(toast).not.toHaveTextContent("does not offer");
  });

  it.each([
    [
      "de",
      "Zeitfenster",
      "window_not_offered",
      "Dein Tarif bietet dieses Zeitfenster nicht an. Verfügbar: 15 Minuten, 20 Minuten, 25 Minuten und 30 Minuten.",
    ],
    [
      "fr",
      "Fenêtre de temps",
      "window_needs_active_subscription",
      "Votre abonnement est inactif : la fenêtre de temps ne peut pas être modifiée.",
    ],
    [
      "es",
      "Ventana de tiempo",
      "window_not_offered",
      "Tu plan no ofrece esta ventana de tiempo. Disponibles: 15 minutos, 20 minutos, 25 minutos y 30 minutos.",
    ],
  ])("translates the refusal into %s", async (language, label, details, text) => {
    await i18n.changeLanguage(language);
    refuse(details);
    renderSelector();
    fireEvent.change(screen.getByRole("combobox", { name: label }), { target: { value: "20" } });
    expect(await screen.findByText(text)).toBeInTheDocument();
  });
});
