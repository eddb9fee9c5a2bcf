import { fireEvent, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderWithProviders } from "@/testing/render";
import { supabaseMock } from "@/testing/supabase-mock";
import { IndicatorPanes } from "./indicator-panes";

const HOUR = 3_600_000;

/** `n` history_candles rows, one per `step` ms, rising with a wobble. */
function rows(n: number, step: number) {
  const start = Date.parse("2026-11-20T00:00:00Z");
  return Array.from({ length: n }, (_, i) => {
    const close = 100 + i + (i % 3 === 0 ? -1.5 : 1);
    return {
      bucket: new Date(start + i * step).toISOString(),
      open: close - 0.5,
      high: close + 1,
      low: close - 2,
      close,
      volume: 1000 + i * 10,
    };
  });
}

describe("IndicatorPanes", () => {
  it("draws the candles with VWAP over them and StochRSI, ATR and OBV panes on one chart", async () => {
    const asked: unknown[] = [];
    supabaseMock.setRpc("history_candles", (args) => {
      asked.push(args);
      return { data: rows(40, 5 * 60_000), error: null };
    });
    renderWithProviders(<IndicatorPanes instrumentId={7} symbol="PEPE/USDT" />);
    const chart = await screen.findByRole("img", {
      name: "Candles of PEPE/USDT with VWAP, volume, Stochastic RSI, ATR and OBV",
    });
    expect(chart.querySelectorAll('[data-slot="candle"]')).toHaveLength(40);
    const lines = [...chart.querySelectorAll<HTMLElement>('[data-slot="line"]')];
    expect(lines.map((l) => l.dataset.id)).toEqual(["vwap", "stoch-k", "stoch-d", "atr", "obv"]);
    const values = Object.fromEntries(lines.map((l) => [l.dataset.id, Number(l.dataset.values)]));
    // VWAP and OBV from the first candle; ATR 14 from the 14th; %K (RSI 14, its stochastic over
    // 14, smoothed over 3) from the 30th; %D (smoothed over 3 again) two later.
    expect(values).toEqual({
      vwap: 40,
      obv: 40,
      atr: 40 - 13,
      "stoch-k": 40 - 29,
      "stoch-d": 40 - 31,
    });
    expect(within(chart).getByText("VWAP")).toBeInTheDocument();
    expect(asked).toEqual([{ instrument: 7, resolution: "5m" }]);
  });

  it("asks for the chosen candle size", async () => {
    const asked: { resolution: string }[] = [];
    supabaseMock.setRpc("history_candles", (args) => {
      asked.push(args as { resolution: string });
      return { data: rows(40, HOUR), error: null };
    });
    renderWithProviders(<IndicatorPanes instrumentId={7} symbol="PEPE/USDT" />);
    await screen.findByRole("img", { name: /^Candles of PEPE\/USDT/ });
    fireEvent.click(screen.getByRole("button", { name: "4 hours" }));
    await screen.findByRole("button", { name: "4 hours", pressed: true });
    expect(asked.map((a) => a.resolution)).toContain("4h");
  });
});
