import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { ChartsPage, parsePickedSymbols } from "./charts-page";

// movers_feed rows, strongest first (the columns the charts use; price and pct are never null).
const feed = [
  { instrument_id: 1, symbol: "SOL/USDT", exchange: "Binance", pct: 30 },
  { instrument_id: 2, symbol: "PEPE/WETH", exchange: "Uniswap V3 (ethereum)", pct: -25 },
  { instrument_id: 2, symbol: "PEPE/WETH", exchange: "Uniswap V3 (ethereum)", pct: -25 },
  { instrument_id: 4, symbol: "WIF/SOL", exchange: "Raydium (Solana)", pct: 12 },
  { instrument_id: 3, symbol: "BTC/USD", exchange: "Coinbase", pct: 1 },
].map((row) => ({ ...row, price: 1 }));

function renderCharts(
  history: (instrumentId: unknown) => unknown[] = () => [],
  plan: "basic" | "pro" = "pro",
) {
  supabaseMock.signInWithProfile("ada@example.com", {
    plan,
    subscription_active: true,
    selected_window_minutes: 20,
  });
  supabaseMock.setRpc("movers_feed", { data: feed, error: null });
  supabaseMock.setRpc("price_history_for", (args) => ({
    data: history((args as { instrument: number }).instrument),
    error: null,
  }));
  renderWithProviders(<ChartsPage />);
}

/** Replaces the opening selection (the strongest movers) with these symbols. */
async function choose(...labels: string[]) {
  fireEvent.click(await screen.findByRole("button", { name: /^Symbols: / }));
  const panel = screen.getByRole("dialog", { name: "Symbols" });
  fireEvent.click(within(panel).getByRole("button", { name: "Clear selection" }));
  for (const label of labels) fireEvent.click(within(panel).getByRole("checkbox", { name: label }));
}

describe("ChartsPage", () => {
  it("offers each symbol of the user's movers once", async () => {
    renderCharts();
    expect(await screen.findByRole("heading", { name: "Charts" })).toBeInTheDocument();
    fireEvent.click(await screen.findByRole("button", { name: /^Symbols: / }));
    expect(
      within(screen.getByRole("dialog", { name: "Symbols" }))
        .getAllByRole("checkbox")
        .map((box) => box.closest("label")?.textContent),
    ).toEqual([
      "BTC/USD · Coinbase",
      "PEPE/WETH · Uniswap V3 (ethereum)",
      "SOL/USDT · Binance",
      "WIF/SOL · Raydium (Solana)",
    ]);
    expect(supabaseMock.client.rpc).toHaveBeenCalledWith("movers_feed", { window_minutes: 20 });
  });

  it("draws a line per selected symbol with history", async () => {
    const now = Date.now();
    renderCharts((id) =>
      id === 3
        ? []
        : Array.from({ length: 5 }, (_, i) => ({
            ts: new Date(now - (5 - i) * 60_000).toISOString(),
            price: Number(id) + i,
          })),
    );
    await choose("SOL/USDT · Binance", "PEPE/WETH · Uniswap V3 (ethereum)");
    expect(screen.getByRole("button", { name: "Symbols: 2 selected" })).toBeInTheDocument();
    // recharts is loaded on demand: give the import time on a busy machine.
    const chart = await screen.findByRole(
      "figure",
      {
        name: "Price lines of the last 3 hours: PEPE/WETH (Uniswap V3 (ethereum)), SOL/USDT (Binance)",
      },
      { timeout: 5000 },
    );
    expect(chart).toBeInTheDocument();
    expect(screen.getByText("SOL/USDT (Binance): 5 points")).toBeInTheDocument();
    // The candles of the first chosen symbol, and of another one once picked.
    expect(
      await screen.findByRole("img", { name: /^Candlestick chart of PEPE\/WETH/ }),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByRole("combobox", { name: "Symbol" }), {
      target: { value: "1" },
    });
    expect(
      await screen.findByRole("img", {
        name: /^Candlestick chart of SOL\/USDT \(Binance\): \d+ five-minute candles$/,
      }),
    ).toBeInTheDocument();
  });

  it("says when the selected symbols have no history", async () => {
    renderCharts(() => []);
    await choose("BTC/USD · Coinbase");
    expect(
      await screen.findByText("No price history for the selected symbols in the last 3 hours."),
    ).toBeInTheDocument();
  });

  it("says when there are no symbols yet", async () => {
    renderCharts();
    supabaseMock.setRpc("movers_feed", { data: [], error: null });
    expect(
      await screen.findByText("No symbols available yet. The scanner is collecting data."),
    ).toBeInTheDocument();
  });

  it("opens with the three strongest movers drawn", async () => {
    const now = Date.now();
    renderCharts((id) =>
      Array.from({ length: 4 }, (_, i) => ({
        ts: new Date(now - (4 - i) * 60_000).toISOString(),
        price: Number(id) + i,
      })),
    );
    expect(await screen.findByRole("button", { name: "Symbols: 3 selected" })).toBeInTheDocument();
    expect(
      await screen.findByRole("figure", {
        name: "Price lines of the last 3 hours: PEPE/WETH (Uniswap V3 (ethereum)), SOL/USDT (Binance), WIF/SOL (Raydium (Solana))",
      }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/BTC\/USD \(Coinbase\)/)).not.toBeInTheDocument();
  });

  it("draws nothing once the user clears the selection", async () => {
    renderCharts();
    await choose();
    expect(await screen.findByRole("button", { name: "Symbols: None" })).toBeInTheDocument();
    expect(screen.queryByRole("figure")).not.toBeInTheDocument();
  });

  it("compares Pro's chosen symbols over 7 days from the candle history", async () => {
    const calls: unknown[] = [];
    renderCharts();
    supabaseMock.setRpc("history_compare", (args) => {
      calls.push(args);
      return {
        data: [
          {
            instrument_id: 1,
            symbol: "SOL/USDT",
            exchange: "Binance",
            points: [
              [1, 0],
              [2, 3.5],
            ],
          },
          {
            instrument_id: 2,
            symbol: "PEPE/WETH",
            exchange: "Uniswap V3 (ethereum)",
            points: [
              [1, 0],
              [2, -1.25],
            ],
          },
        ],
        error: null,
      };
    });
    await choose("SOL/USDT · Binance", "PEPE/WETH · Uniswap V3 (ethereum)");
    fireEvent.click(screen.getByRole("button", { name: "7 days" }));
    expect(
      await screen.findByRole("figure", {
        name: "SOL/USDT, PEPE/WETH over 7 days, as change since the start",
      }),
    ).toBeInTheDocument();
    expect(screen.getAllByTestId("compare-series").map((li) => li.textContent)).toEqual([
      "SOL/USDT: 2 points",
      "PEPE/WETH: 2 points",
    ]);
    expect(calls).toContainEqual({ instruments: [2, 1], range: "7d" });
  });

  it("asks Pro for two to four symbols before comparing", async () => {
    renderCharts();
    await choose("SOL/USDT · Binance");
    fireEvent.click(screen.getByRole("button", { name: "30 days" }));
    expect(
      await screen.findByText("Choose 2 to 4 symbols to compare them over this span."),
    ).toBeInTheDocument();
  });

  it("shows Basic an upgrade prompt in place of the longer spans", async () => {
    renderCharts(() => [], "basic");
    fireEvent.click(await screen.findByRole("button", { name: "24 hours" }));
    const prompt = await screen.findByTestId("upgrade-prompt");
    expect(prompt).toHaveTextContent("is a Pro feature");
    expect(within(prompt).getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute(
      "href",
      "/pricing",
    );
    expect(supabaseMock.client.rpc).not.toHaveBeenCalledWith("history_compare", expect.anything());
  });
});

describe("parsePickedSymbols", () => {
  it("reads instrument ids from the address, and none for an emptied selection", () => {
    expect(parsePickedSymbols(new URLSearchParams("symbols=12,40,12"))).toEqual(["12", "40"]);
    expect(parsePickedSymbols(new URLSearchParams("symbols=none"))).toEqual([]);
    expect(parsePickedSymbols(new URLSearchParams(""))).toBeNull();
  });

  it("drops ids that are not whole numbers", () => {
    expect(parsePickedSymbols(new URLSearchParams("symbols=7,abc,-3,0,1.5,9"))).toEqual(["7", "9"]);
  });
});
