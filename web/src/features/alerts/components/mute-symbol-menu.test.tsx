import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useCurrentUser } from "@/hooks/use-current-user";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { MuteSymbolMenu } from "./mute-symbol-menu";

/** Shows the signed-in plan once the profile has loaded. */
function LoadedPlan() {
  const { profile } = useCurrentUser();
  return profile ? <span>plan: {profile.plan}</span> : null;
}

describe("MuteSymbolMenu", () => {
  it("lets an enterprise subscriber mute the symbol for 15 min, 1 h or 24 h", async () => {
    supabaseMock.signInWithProfile("ada@example.com", {
      plan: "enterprise",
      subscription_active: true,
    });
    const mutes: unknown[] = [];
    supabaseMock.setRpc("mute_alert_symbol", (args) => {
      mutes.push(args);
      return { data: "2026-11-21T13:00:00Z", error: null };
    });
    renderWithProviders(<MuteSymbolMenu symbol="PEPE/WETH" />);
    // Radix menus open on the pointer going down.
    fireEvent.pointerDown(await screen.findByRole("button", { name: "Mute alerts" }), {
      button: 0,
      ctrlKey: false,
    });
    const items = await screen.findAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual([
      "Mute PEPE/WETH for 15 minutes",
      "Mute PEPE/WETH for 1 hour",
      "Mute PEPE/WETH for 24 hours",
    ]);
    fireEvent.click(items[1]!);
    await waitFor(() => expect(mutes).toEqual([{ symbol: "PEPE/WETH", minutes: 60 }]));
  });

  it("offers no mute to plans that get no alerts", async () => {
    supabaseMock.signInWithProfile("ada@example.com", { plan: "pro", subscription_active: true });
    renderWithProviders(
      <>
        <MuteSymbolMenu symbol="PEPE/WETH" />
        <LoadedPlan />
      </>,
    );
    expect(await screen.findByText("plan: pro")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Mute alerts" })).not.toBeInTheDocument();
  });
});
