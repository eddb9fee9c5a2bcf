import type { MoverEntry } from "@domain/realtime";
import { moverEntry } from "@/testing/movers";
import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { groupByAsset } from "../utils/trust";
import { MoverCards } from "./mover-cards";
import { MoversTable } from "./movers-table";

// Every card and row draws one percent (not memoised): its renders count the cards' renders.
let percentRenders = 0;
vi.mock("./percent-text", () => ({
  PercentText: ({ pct }: { pct: number }) => {
    percentRenders += 1;
    return <span>{pct}</span>;
  },
}));

const T = Date.parse("2026-11-25T12:00:00Z");
const entries: MoverEntry[] = [1, 2, 3].map((id) =>
  moverEntry(id, {}, new Date(T - 60_000).toISOString()),
);
const lines = new Map(
  entries.map((e) => [e.instrument_id, { times: [T - 120_000, T - 60_000], prices: [1, 2] }]),
);
const noop = () => {};
const none = new Set<string>();

describe("the sparklines arriving redraw the lines, not the cards and rows (decision 0095)", () => {
  for (const [name, view] of [
    [
      "cards",
      (sparklines?: typeof lines) => (
        <MoverCards
          groups={groupByAsset(entries)}
          expanded={none}
          onToggle={noop}
          windowMinutes={15}
          onAnalyse={noop}
          sparklines={sparklines}
        />
      ),
    ],
    [
      "table",
      (sparklines?: typeof lines) => (
        <MoversTable
          groups={groupByAsset(entries)}
          expanded={none}
          onToggle={noop}
          order="rank"
          windowMinutes={15}
          onAnalyse={noop}
          sparklines={sparklines}
        />
      ),
    ],
  ] as const) {
    it(name, () => {
      percentRenders = 0;
      const { rerender } = render(view(undefined));
      expect(percentRenders).toBe(3);
      // Without their lines, each row's sparkline has its live quote alone.
      for (const svg of screen.getAllByTestId("sparkline")) {
        expect(svg).toHaveAttribute("data-points", "1");
      }
      rerender(view(lines));
      for (const svg of screen.getAllByTestId("sparkline")) {
        expect(svg).toHaveAttribute("data-points", "2");
      }
      expect(percentRenders).toBe(3);
    });
  }
});
