import type { MoverEntry } from "@domain/realtime";
import { moverEntry } from "@/testing/movers";
import { act, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupByAsset } from "../utils/trust";
import { MoverCards } from "./mover-cards";
import { MoversTable } from "./movers-table";

// Every row draws one sparkline: counting its renders per instrument counts the rows' renders.
const renders = new Map<number, number>();
vi.mock("./sparkline", () => ({
  Sparkline: ({ live }: { live: MoverEntry }) => {
    const id = (live as MoverEntry).instrument_id;
    renders.set(id, (renders.get(id) ?? 0) + 1);
    return <svg data-testid="sparkline" />;
  },
}));

const NOW = Date.parse("2026-11-26T12:00:00Z");

function mover(id: number, overrides: Partial<MoverEntry> = {}): MoverEntry {
  return moverEntry(id, overrides, new Date(NOW - 1000).toISOString());
}

const onAnalyse = () => {};
const onToggle = () => {};
const none = new Set<string>();

function table(entries: MoverEntry[]) {
  return (
    <MoversTable
      groups={groupByAsset(entries)}
      expanded={none}
      onToggle={onToggle}
      order="rank"
      windowMinutes={15}
      onAnalyse={onAnalyse}
    />
  );
}

function cards(entries: MoverEntry[]) {
  return (
    <MoverCards
      groups={groupByAsset(entries)}
      expanded={none}
      onToggle={onToggle}
      windowMinutes={15}
      onAnalyse={onAnalyse}
    />
  );
}

describe("live updates re-render only the rows that changed (decision 0065)", () => {
  beforeEach(() => {
    renders.clear();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  for (const [name, view] of [
    ["table", table],
    ["cards", cards],
  ] as const) {
    it(`${name}: a scan that moved one instrument re-renders that row alone`, () => {
      const first = [mover(1), mover(2), mover(3)];
      const { rerender } = render(view(first));
      expect([...renders.entries()]).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
      ]);

      // A broadcast replaces instrument 2's entry; the others keep their objects (applyMovers).
      const moved = mover(2, { pct: 40, price: 2.1 });
      rerender(view([first[0]!, moved, first[2]!]));
      expect(renders.get(1)).toBe(1);
      expect(renders.get(2)).toBe(2);
      expect(renders.get(3)).toBe(1);
      expect(screen.getAllByText("+40.00%").length).toBeGreaterThan(0);
    });

    it(`${name}: the seconds tick re-renders the age cells, not the rows`, () => {
      render(view([mover(1), mover(2)]));
      const ages = () => screen.getAllByTestId("data-age").map((cell) => cell.textContent);
      expect(ages()).toEqual(["1 s", "1 s"]);

      act(() => vi.advanceTimersByTime(1000));
      expect(ages()).toEqual(["2 s", "2 s"]);
      // The rows themselves (and their sparklines) were not drawn again.
      expect(renders.get(1)).toBe(1);
      expect(renders.get(2)).toBe(1);
    });
  }

  it("a quote that turns stale re-renders its row once, marked stale", () => {
    // A 1-minute window: a quote older than that is stale.
    const entry = mover(1, { ts: new Date(NOW - 50_000).toISOString() });
    render(
      <MoversTable
        groups={groupByAsset([entry])}
        expanded={none}
        onToggle={onToggle}
        order="rank"
        windowMinutes={1}
        onAnalyse={onAnalyse}
      />,
    );
    const row = screen.getAllByRole("row")[1]!;
    expect(row).not.toHaveAttribute("data-stale");
    act(() => vi.advanceTimersByTime(30_000));
    expect(row).toHaveAttribute("data-stale", "true");
    expect(within(row).getByTestId("data-age").textContent).toMatch(/^1 min/);
    expect(renders.get(1)).toBe(2);
  });
});
