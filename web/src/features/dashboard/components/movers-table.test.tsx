import type { MoverEntry } from "@domain/realtime";
import { moverEntry } from "@/testing/movers";
import { act, render, screen, within } from "@testing-library/react";
import { Profiler } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { groupByAsset } from "../utils/trust";
import { MoverCards } from "./mover-cards";
import { MoversTable } from "./movers-table";

// Every row draws one sparkline: counting its renders per instrument counts the rows' renders
// (the stand-in is not memoised, so it renders whenever its row does).
const renders = new Map<number, number>();
vi.mock("./sparkline", async () => {
  const { createContext } = await import("react");
  return {
    SparklinesContext: createContext(undefined),
    RowSparkline: ({ instrumentId }: { instrumentId: number }) => {
      renders.set(instrumentId, (renders.get(instrumentId) ?? 0) + 1);
      return <svg data-testid="sparkline" />;
    },
  };
});

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

    it(`${name}: the seconds tick updates the age cells' text without rendering (decision 0106)`, () => {
      // Every commit under the view, whatever component it renders.
      let commits = 0;
      render(
        <Profiler id="view" onRender={() => commits++}>
          {view([mover(1), mover(2)])}
        </Profiler>,
      );
      const ages = () => screen.getAllByTestId("data-age").map((cell) => cell.textContent);
      expect(ages()).toEqual(["1 s", "1 s"]);
      const before = commits;

      act(() => vi.advanceTimersByTime(1000));
      expect(ages()).toEqual(["2 s", "2 s"]);
      act(() => vi.advanceTimersByTime(58_000));
      expect(ages()).toEqual(["1 min", "1 min"]);
      // Nothing rendered for it: not the rows (and their sparklines), not the age cells.
      expect(commits).toBe(before);
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

describe("a venue's confirmed-through time (decision 0079)", () => {
  beforeEach(() => {
    renders.clear();
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => vi.useRealTimers());

  // Binance's last full poll wrote the rows 20 s ago; its stream confirms the set through 2 s ago.
  const polledAt = NOW - 20_000;
  const confirmations = new Map([["binance", { through: NOW - 2_000, polledAt }]]);
  const unchanged = (id: number, over: Partial<MoverEntry> = {}) =>
    mover(id, {
      ts: new Date(polledAt).toISOString(),
      quoted_at: new Date(NOW - 20_500).toISOString(),
      ...over,
    });

  function view(entries: MoverEntry[], windowMinutes = 0, venues = confirmations) {
    return (
      <MoversTable
        groups={groupByAsset(entries, false)}
        expanded={none}
        onToggle={onToggle}
        order="rank"
        windowMinutes={windowMinutes}
        onAnalyse={onAnalyse}
        confirmations={venues}
      />
    );
  }

  it("an unchanged symbol of a confirming venue shows the venue's confirmed-through age, not its quote's", () => {
    render(view([unchanged(1)]));
    const row = screen.getAllByRole("row")[1]!;
    expect(within(row).getByTestId("data-age").textContent).toBe("2 s");
    // Fresh on the 10-second window: not stale, though its quote is 20 s old.
    expect(row).not.toHaveAttribute("data-stale");
    // The quote's own time stays on the row (the bench's quote-trip figure).
    expect(row).toHaveAttribute("data-ts", new Date(NOW - 20_500).toISOString());
    expect(row).toHaveAttribute("data-confirmed-at", new Date(NOW - 2_000).toISOString());
  });

  it("rows the confirmation does not cover keep their quote's age, and go stale", () => {
    render(
      view([
        // Written before the venue's last full poll (the poll did not name it: delisted, say).
        unchanged(2, { ts: new Date(polledAt - 1).toISOString() }),
        // Another venue, without a confirmation.
        unchanged(3, { source: "dex", exchange: "Uniswap V3", exchange_type: "dex" }),
      ]),
    );
    for (const symbol of ["SYM2/USDT", "SYM3/USDT"]) {
      const row = screen
        .getAllByRole("row")
        .find((r) => r.textContent?.includes(symbol.split("/")[0]!))!;
      expect(within(row).getByTestId("data-age").textContent).toMatch(/^20 s/);
      expect(row).toHaveAttribute("data-stale", "true");
    }
  });

  it("a stalled venue's confirmation stops: its unchanged rows age and turn stale", () => {
    render(view([unchanged(4)]));
    const row = screen.getAllByRole("row")[1]!;
    expect(row).not.toHaveAttribute("data-stale");
    // No newer confirmation arrives: 10 s later the row is 12 s old, past the 10-second window.
    act(() => vi.advanceTimersByTime(10_000));
    expect(within(row).getByTestId("data-age").textContent).toMatch(/^12 s/);
    expect(row).toHaveAttribute("data-stale", "true");
  });

  it("a quote newer than the confirmation shows its own age", () => {
    render(
      view([
        unchanged(5, {
          ts: new Date(NOW).toISOString(),
          quoted_at: new Date(NOW - 1_000).toISOString(),
        }),
      ]),
    );
    expect(screen.getAllByTestId("data-age")[0]!.textContent).toBe("1 s");
  });

  it("the cards show the same confirmed age", () => {
    render(
      <MoverCards
        groups={groupByAsset([unchanged(6)], false)}
        expanded={none}
        onToggle={onToggle}
        windowMinutes={0}
        onAnalyse={onAnalyse}
        confirmations={confirmations}
      />,
    );
    expect(screen.getByTestId("data-age").textContent).toBe("2 s");
  });
});
