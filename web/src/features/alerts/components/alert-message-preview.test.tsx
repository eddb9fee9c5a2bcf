import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { AlertMessagePreview } from "./alert-message-preview";

// 12:00 UTC: 13:00 in Berlin (winter), 07:00 in New York.
const NOW = Date.parse("2026-11-26T12:00:00Z");

// Intl puts no-break spaces before "%" and "PM": compared as plain spaces.
const plain = (text: string | null) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");
const heading = (id: string) => plain(screen.getByTestId(`${id}-heading`).textContent);

afterEach(async () => {
  await i18n.changeLanguage("en");
});

describe("AlertMessagePreview", () => {
  it("shows a German subscriber's alert and digest in German, Berlin time and German numbers", async () => {
    await i18n.changeLanguage("de");
    render(
      <AlertMessagePreview
        profile={{ locale: "de", time_zone: "Europe/Berlin", selected_window_minutes: 15 }}
        now={NOW}
      />,
    );
    expect(screen.getByRole("heading", { name: "Vorschau Ihrer Alarme" })).toBeInTheDocument();
    expect(screen.getByText(/Gesendet auf Deutsch, Zeiten in Europe\/Berlin/)).toBeInTheDocument();
    // The texts are the worker's (`_shared/i18n/de/messages.json`); the numbers German.
    expect(heading("preview-single")).toBe("BTC/USDT stieg um +12,35 % in 15 Min.");
    expect(heading("preview-digest")).toBe("3 Symbole haben Ihre Alarmschwelle überschritten");
    const single = within(screen.getByRole("region", { name: "Einzelner Alarm" }));
    expect(plain(single.getByRole("listitem").textContent)).toBe(
      "Börse: Binance · Bewegung: +12,35 % (15 Min.) · Preis: 65.432,10 $ · Zeit: 26.11.2026, 13:00:00 (Europe/Berlin)",
    );
    const digest = within(screen.getByRole("region", { name: "Sammelmeldung" }));
    const lines = digest.getAllByRole("listitem").map((li) => plain(li.textContent));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("PEPE/USDT stieg um +8,50 % in 15 Min.");
    // A tiny price keeps its digits in the subscript-zero notation.
    expect(lines[1]).toContain("0,0₅1234");
    expect(lines[2]).toMatch(/^SOL\/USD fiel um [-−]6,75 % in 15 Min\./);
    expect(screen.getAllByText(/^Keine Finanzberatung\./)).toHaveLength(2);
  });

  it("follows the worker: English and UTC when the profile stores neither, and says how to switch", async () => {
    await i18n.changeLanguage("fr");
    render(
      <AlertMessagePreview
        profile={{ locale: null, time_zone: null, selected_window_minutes: 5 }}
        now={NOW}
      />,
    );
    expect(heading("preview-single")).toBe("BTC/USDT rose +12.35% in 5 min");
    const single = within(screen.getByRole("region", { name: "Alerte unique" }));
    expect(plain(single.getByRole("listitem").textContent)).toMatch(
      /· Time: Nov 26, 2026, 12:00:00 PM \(UTC\)$/,
    );
    // The page speaks French: the card says (in French) how to receive them in French.
    expect(screen.getByText(/Envoyées en English, heures en UTC/)).toBeInTheDocument();
    expect(screen.getByText(/pour les recevoir en Français/)).toBeInTheDocument();
  });
});
