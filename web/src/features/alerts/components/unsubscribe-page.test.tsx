import { fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { UnsubscribePage } from "./unsubscribe-page";

const TOKEN = "7d1f0c3e-2b4a-4c5d-9e8f-0a1b2c3d4e5f";

describe("UnsubscribePage", () => {
  afterEach(async () => {
    await i18n.changeLanguage("en");
  });

  it("unsubscribes with one click and says so", async () => {
    const calls: unknown[] = [];
    supabaseMock.setRpc("unsubscribe_alert_email", (args) => {
      calls.push(args);
      return { data: true, error: null };
    });
    renderWithProviders(<UnsubscribePage />, { route: `/alerts/unsubscribe?token=${TOKEN}` });
    fireEvent.click(screen.getByRole("button", { name: "Unsubscribe" }));
    expect(await screen.findByRole("status")).toHaveTextContent(
      "you will no longer receive alert e-mails",
    );
    expect(calls).toEqual([{ token: TOKEN }]);
  });

  it("refuses a malformed link without asking the server", () => {
    renderWithProviders(<UnsubscribePage />, { route: "/alerts/unsubscribe?token=nope" });
    expect(screen.getByRole("alert")).toHaveTextContent("This unsubscribe link is not valid.");
    expect(screen.queryByRole("button", { name: "Unsubscribe" })).toBeNull();
  });

  it("reports an unknown link and a failure, in the reader's language", async () => {
    await i18n.changeLanguage("de");
    supabaseMock.setRpc("unsubscribe_alert_email", { data: false, error: null });
    renderWithProviders(<UnsubscribePage />, { route: `/alerts/unsubscribe?token=${TOKEN}` });
    fireEvent.click(screen.getByRole("button", { name: "Abbestellen" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Dieser Abmeldelink ist ungültig.");
  });
});
