import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import type { RealtimeStatus } from "@/hooks/use-realtime-channel";
import { LiveIndicator } from "./live-indicator";

const cases: [Exclude<RealtimeStatus, "idle">, string, string, string][] = [
  ["live", "Live", "Live", "bg-success"],
  ["connecting", "Connecting…", "Verbindung wird hergestellt…", "bg-muted-foreground/60"],
  ["reconnecting", "Reconnecting…", "Verbindung wird wiederhergestellt…", "animate-pulse"],
  ["denied", "Live updates unavailable", "Live-Updates nicht verfügbar", "bg-muted-foreground/40"],
];

describe("LiveIndicator", () => {
  it.each(cases)("shows %s as a polite status in English", (status, english, _german, dot) => {
    render(<LiveIndicator status={status} />);
    const indicator = screen.getByRole("status");
    expect(indicator).toHaveTextContent(english);
    expect(indicator).toHaveAttribute("aria-live", "polite");
    expect(indicator.querySelector("[data-slot=live-dot]")).toHaveClass(dot);
  });

  it.each(cases)("shows %s in German", async (status, _english, german) => {
    await i18n.changeLanguage("de");
    render(<LiveIndicator status={status} />);
    expect(screen.getByRole("status")).toHaveTextContent(german);
  });

  it("pulses amber only while reconnecting", () => {
    const { rerender } = render(<LiveIndicator status="reconnecting" />);
    const dot = () => screen.getByRole("status").querySelector("[data-slot=live-dot]");
    expect(dot()).toHaveClass("animate-pulse", "bg-amber-500");
    rerender(<LiveIndicator status="live" />);
    expect(dot()).not.toHaveClass("animate-pulse");
    expect(screen.getByRole("status")).toHaveTextContent("Live");
  });

  it("renders nothing while idle", () => {
    const { container } = render(<LiveIndicator status="idle" />);
    expect(container).toBeEmptyDOMElement();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});
