import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { renderWithProviders } from "@/testing/render";
import { Sparkline } from "./sparkline";

const T = Date.parse("2026-11-25T12:00:00Z");
const line = { times: [T, T + 60_000, T + 120_000], prices: [1, 2, 1.5] };

describe("Sparkline", () => {
  it("draws the last 30 minutes and the newer live quote, green for a gain", () => {
    renderWithProviders(
      <Sparkline line={line} live={{ ts: "2026-11-25T12:02:30Z", price: 3 }} pct={12.345} />,
    );
    const svg = screen.getByRole("img", { name: "Last 30 minutes: +12.35%" });
    expect(svg).toHaveAttribute("data-points", "4");
    expect(svg).toHaveClass("text-success");
    // Four points: a move and three lines; the live quote (the highest price) at the top right.
    const d = svg.querySelector("path")!.getAttribute("d")!;
    expect(d.match(/[ML]/g)).toEqual(["M", "L", "L", "L"]);
    expect(d.endsWith("L78.0,2.0")).toBe(true);
  });

  it("ignores a live quote that is not newer and is red for a loss", () => {
    renderWithProviders(
      <Sparkline line={line} live={{ ts: "2026-11-25T12:01:00Z", price: 9 }} pct={-3.2} />,
    );
    const svg = screen.getByRole("img", { name: "Last 30 minutes: -3.20%" });
    expect(svg).toHaveAttribute("data-points", "3");
    expect(svg).toHaveClass("text-destructive");
  });

  it("names the change in the reader's language and draws a flat line without history", async () => {
    await i18n.changeLanguage("de");
    renderWithProviders(
      <Sparkline line={undefined} live={{ ts: "2026-11-25T12:01:00Z", price: 1 }} pct={5} />,
    );
    const svg = screen.getByRole("img", { name: /^Letzte 30 Minuten: \+5,00\s%$/ });
    expect(svg).toHaveAttribute("data-points", "1");
    expect(svg.querySelector("path")!.getAttribute("d")).toBe("M2,12 H78");
  });
});
