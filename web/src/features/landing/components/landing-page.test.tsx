import { act, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";

const movers = [
  {
    id: 1,
    symbol: "PEPE/USDT",
    exchange: "Binance",
    pct: 12.3456,
    price: 0.0000123,
    ts: "2025-03-01T12:00:00Z",
  },
  {
    id: 2,
    symbol: "WIF/SOL",
    exchange: "Raydium (Solana)",
    pct: -4.5,
    price: "2.5",
    ts: "2025-03-01T12:01:00Z",
  },
  {
    id: 3,
    symbol: "ETH-USD",
    exchange: "Coinbase",
    pct: 0,
    price: 3120.5,
    ts: "2025-03-01T12:02:00Z",
  },
  { id: 4, symbol: "EXTRA", exchange: "Coinbase", pct: 1, price: 1, ts: "2025-03-01T12:03:00Z" },
];

describe("LandingPage", () => {
  it("shows at most three recent movers with signed percent and dollar price", async () => {
    supabaseMock.setTable("movers_teaser", { data: movers, error: null });
    renderRoute("/");

    // The page and its strip load lazily: give them time on a busy machine.
    const pepe = (
      await screen.findByRole("heading", { name: "PEPE/USDT" }, { timeout: 10_000 })
    ).closest("li")!;
    expect(within(pepe).getByText("Binance")).toBeInTheDocument();
    expect(within(pepe).getByText("+12.35%")).toHaveClass("text-success");
    // A tiny price keeps its digits: subscript zeros, the full number as name and title.
    const tiny = within(pepe).getByText("$0.0₄1230");
    expect(tiny.parentElement).toHaveAttribute("title", "$0.00001230");
    expect(within(pepe).getByText("$0.00001230")).toHaveClass("sr-only");

    const wif = screen.getByRole("heading", { name: "WIF/SOL" }).closest("li")!;
    expect(within(wif).getByText("-4.50%")).toHaveClass("text-destructive");
    expect(within(wif).getByText("$2.500")).toBeInTheDocument();

    const eth = screen.getByRole("heading", { name: "ETH-USD" }).closest("li")!;
    expect(within(eth).getByText("0.00%")).toHaveClass("text-destructive");

    expect(screen.queryByRole("heading", { name: "EXTRA" })).not.toBeInTheDocument();
    expect(supabaseMock.client.from).toHaveBeenCalledWith("movers_teaser");
  });

  it("shows a calm empty state when the view fails", async () => {
    supabaseMock.setTable("movers_teaser", {
      data: null,
      error: { message: 'relation "movers_teaser" does not exist', code: "42P01" },
    });
    renderRoute("/");

    expect(await screen.findByText("No live data yet")).toBeInTheDocument();
    expect(screen.getByTestId("landing")).toBeInTheDocument();
  });

  it("shows the empty state when there are no movers yet", async () => {
    renderRoute("/");
    expect(await screen.findByText("No live data yet")).toBeInTheDocument();
  });

  it("keeps the strip live: each scan's teaser on market:teaser replaces it", async () => {
    supabaseMock.setTable("movers_teaser", { data: movers.slice(0, 3), error: null });
    renderRoute("/");
    await screen.findByRole("heading", { name: "PEPE/USDT" });

    const channel = supabaseMock.lastChannel();
    expect(channel.topic).toBe("market:teaser");
    expect(channel.params).toMatchObject({ config: { private: true } });
    expect(channel.events).toEqual(["teaser"]);
    act(() => channel.emit("SUBSCRIBED"));
    expect(await screen.findByText("Live")).toBeInTheDocument();

    act(() =>
      channel.broadcast("teaser", {
        scanned_at: "2025-03-01T12:05:00Z",
        entries: [
          {
            id: 9,
            symbol: "BONK/SOL",
            exchange: "Raydium (Solana)",
            pct: 31.2,
            price: 0.00002,
            ts: "2025-03-01T12:05:00Z",
          },
          { ...movers[0], pct: 20 },
        ],
      }),
    );
    const bonk = (await screen.findByRole("heading", { name: "BONK/SOL" })).closest("li")!;
    expect(within(bonk).getByText("+31.20%")).toBeInTheDocument();
    expect(screen.getByText("+20.00%")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "WIF/SOL" })).not.toBeInTheDocument();

    // A malformed message changes nothing.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    act(() => channel.broadcast("teaser", { entries: [{ symbol: 42 }] }));
    expect(screen.getByRole("heading", { name: "BONK/SOL" })).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("leads to pricing from the hero and the closing call to action", async () => {
    renderRoute("/");
    const landing = await screen.findByTestId("landing");
    expect(within(landing).getByRole("link", { name: "Get started" })).toHaveAttribute(
      "href",
      "/pricing",
    );
    expect(within(landing).getByRole("link", { name: "View Pricing" })).toHaveAttribute(
      "href",
      "/pricing",
    );
    expect(within(landing).getByRole("heading", { level: 1 })).toBeInTheDocument();
  });
});
