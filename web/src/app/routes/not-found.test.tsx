import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderRoute } from "@/testing/render";

describe("404 page", () => {
  it("answers an unknown path inside the layout", async () => {
    renderRoute("/no-such-page");

    expect(
      await screen.findByRole("heading", { level: 1, name: "404 Page Not Found" }),
    ).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to home" })).toHaveAttribute("href", "/");
    expect(screen.getByRole("banner")).toBeInTheDocument();
    expect(screen.getByRole("contentinfo")).toBeInTheDocument();
  });

  it("is translated", async () => {
    await i18n.changeLanguage("de");
    renderRoute("/no-such-page");

    expect(
      await screen.findByRole("heading", { level: 1, name: "404 Seite nicht gefunden" }),
    ).toBeInTheDocument();
  });
});
