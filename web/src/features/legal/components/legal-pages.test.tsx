import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderRoute } from "@/testing/render";

describe("legal pages", () => {
  it("shows the imprint in German with the small-business VAT exemption", async () => {
    renderRoute("/impressum");

    const heading = await screen.findByRole("heading", { level: 1, name: "Impressum" });
    expect(heading.closest("article")).toHaveAttribute("lang", "de");
    expect(screen.getByText(/§ 19 Abs\. 1 UStG/)).toBeInTheDocument();
    expect(screen.getByText(/Umsatzsteuerbefreiung für Kleinunternehmer/)).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Datenschutzerklärung" })).toHaveAttribute(
      "href",
      "/datenschutz",
    );
  });

  it("shows the privacy policy in German with every required statement", async () => {
    renderRoute("/datenschutz");

    const heading = await screen.findByRole("heading", { level: 1, name: "Datenschutzerklärung" });
    expect(heading.closest("article")).toHaveAttribute("lang", "de");
    expect(screen.getByRole("note")).toHaveTextContent(/Platzhaltertext/);
    for (const item of [
      "E-Mail-Adresse",
      "Passwort (ausschließlich verschlüsselt gespeichert)",
      /Nutzungsdaten/,
      "Alarm-Einstellungen für Discord, Telegram und E-Mail",
      "IP-Adresse",
    ]) {
      expect(screen.getByText(item).closest("li")).toBeInTheDocument();
    }
    expect(screen.getByText(/Vertragserfüllung/)).toBeInTheDocument();
    expect(screen.getByText(/innerhalb von 30 Tagen gelöscht/)).toBeInTheDocument();
    expect(screen.getByText(/ausschließlich technisch notwendige Cookies/)).toBeInTheDocument();
    expect(
      screen.getByText(/keine Analyse- oder Tracking-Dienste von Drittanbietern/),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/nur an die Alarmdienste weitergegeben, die Sie selbst einrichten/),
    ).toBeInTheDocument();
  });

  it("stays German in another interface language, with a translated note", async () => {
    await i18n.changeLanguage("es");
    renderRoute("/datenschutz");

    expect(
      await screen.findByRole("heading", { level: 1, name: "Datenschutzerklärung" }),
    ).toBeInTheDocument();
    expect(screen.getByText(/solo está disponible en alemán/)).toBeInTheDocument();
    // The surrounding layout follows the interface language.
    expect(screen.getAllByRole("link", { name: "Precios" }).length).toBeGreaterThan(0);
  });

  it("needs no note when the interface is German", async () => {
    await i18n.changeLanguage("de");
    renderRoute("/impressum");

    expect(await screen.findByRole("heading", { level: 1, name: "Impressum" })).toBeInTheDocument();
    expect(screen.queryByText(/nur auf Deutsch verfügbar/)).not.toBeInTheDocument();
  });

  it("is linked from the footer", async () => {
    renderRoute("/");
    expect(await screen.findByRole("link", { name: "Imprint" })).toHaveAttribute(
      "href",
      "/impressum",
    );
    expect(screen.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute(
      "href",
      "/datenschutz",
    );
  });
});
