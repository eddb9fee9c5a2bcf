import { render } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { i18n } from "@/i18n/i18n";

// The real chart (setup.ts gives every other test a stand-in), over a recording library: what
// the chart asks lightweight-charts to draw is what these tests read.
vi.unmock("@/components/charts/price-chart");

type Formatted = { priceFormat?: { type: string; formatter?: (value: number) => string } };
const recorded = vi.hoisted(() => ({
  chartOptions: [] as Record<string, unknown>[],
  series: [] as { kind: string; pane: number; options: Formatted[] }[],
}));

vi.mock("lightweight-charts", () => {
  const kind = (name: string) => ({ name });
  return {
    CandlestickSeries: kind("Candlestick"),
    HistogramSeries: kind("Histogram"),
    LineSeries: kind("Line"),
    ColorType: { Solid: "solid" },
    CrosshairMode: { Normal: 0 },
    LineStyle: { Solid: 0, Dashed: 2 },
    createChart: (_element: HTMLElement, options: Record<string, unknown>) => {
      recorded.chartOptions.push(options);
      return {
        addSeries(type: { name: string }, options: Formatted, pane = 0) {
          const entry = { kind: type.name, pane, options: [options] };
          recorded.series.push(entry);
          return {
            applyOptions: (next: Formatted) => entry.options.push(next),
            setData: () => {},
            update: () => {},
            getPane: () => ({ paneIndex: () => pane }),
          };
        },
        applyOptions: (options: Record<string, unknown>) => recorded.chartOptions.push(options),
        panes: () => [{ setHeight: () => {} }, { setHeight: () => {} }, { setHeight: () => {} }],
        subscribeCrosshairMove: () => {},
        unsubscribeCrosshairMove: () => {},
        setCrosshairPosition: () => {},
        removeSeries: () => {},
        remove: () => {},
        timeScale: () => ({ fitContent: () => {} }),
      };
    },
  };
});

const { PriceChart } = await import("@/components/charts/price-chart");

const MINUTE = 60_000;
const candles = [0, 1, 2].map((i) => ({
  start: Date.UTC(2026, 10, 27, 12, i),
  open: 0.008,
  high: 0.0085,
  low: 0.0079,
  close: 0.0084,
  volume: 2_000_000 + i * MINUTE,
}));

/** The formatter the series of this kind (and pane) was last given. */
function lastFormatter(kind: string, pane?: number) {
  const series = recorded.series.find(
    (s) => s.kind === kind && (pane === undefined || s.pane === pane),
  );
  const formats = series?.options.flatMap((o) => (o.priceFormat?.formatter ? [o.priceFormat] : []));
  return formats?.at(-1)?.formatter;
}

describe("PriceChart's axes", () => {
  beforeEach(() => {
    recorded.chartOptions.length = 0;
    recorded.series.length = 0;
  });
  afterEach(async () => {
    await i18n.changeLanguage("en");
  });

  it("labels the volume pane in compact notation, not as a price", () => {
    render(<PriceChart candles={candles} label="Price chart" timeZone="UTC" />);
    const volume = lastFormatter("Histogram");
    expect(volume?.(2_000_000)).toBe("2M");
    expect(volume?.(0)).toBe("0");
    // A chart-wide price formatter would format every pane, the volume's too.
    const localization = recorded.chartOptions.flatMap((o) =>
      o.localization ? [o.localization as Record<string, unknown>] : [],
    );
    expect(localization.length).toBeGreaterThan(0);
    for (const l of localization) expect(l.priceFormatter).toBeUndefined();
    // The candles keep the price's significant digits on their own scale.
    expect(lastFormatter("Candlestick")?.(0.008486)).toBe("0.008486");
  });

  it("follows the reader's language", async () => {
    await i18n.changeLanguage("de");
    render(<PriceChart candles={candles} label="Preis-Chart" timeZone="UTC" />);
    expect(lastFormatter("Histogram")?.(2_000_000)).toBe("2\u00a0Mio.");
    expect(lastFormatter("Candlestick")?.(0.008486)).toBe("0,008486");
  });

  it("labels an oscillator's pane with two decimals", () => {
    const points = candles.map((c) => ({ time: c.start, value: 1234.5 }));
    render(
      <PriceChart
        candles={candles}
        label="Price chart"
        timeZone="UTC"
        lines={[{ id: "obv", label: "OBV", color: "red", points, pane: "obv", format: "number" }]}
      />,
    );
    expect(lastFormatter("Line")?.(1234.5)).toBe("1,234.50");
  });
});
