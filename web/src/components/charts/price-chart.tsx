import type { Candle as DomainCandle } from "@domain/candles";
import { MISSING_VALUE } from "@domain/format";
import { formatPrice, formatPriceFull, priceShape } from "@domain/price-format";
import {
  CandlestickSeries,
  ColorType,
  createChart,
  CrosshairMode,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  LineSeries,
  LineStyle,
  type MouseEventParams,
  type SeriesType,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { displayTimeZone } from "@/lib/time-zone";

/**
 * An extra line drawn with the candles: an overlay on the price pane (EMA, Bollinger) or, with
 * `pane`, a series in its own pane beneath the volume (the Pro indicators: StochRSI, ATR, OBV…).
 * Lines that name the same `pane` share it, in the order given.
 */
export type ChartLine = {
  /** Stable id (a React key and the series' identity across renders). */
  id: string;
  /** Name in the legend: "EMA 9". */
  label: string;
  /** Any CSS colour, `var(--…)` included; resolved again when the theme changes. */
  color: string;
  /** One value per candle start (epoch ms); `null` leaves a gap. */
  points: readonly { time: number; value: number | null }[];
  /** Omitted: drawn over the candles. A name: drawn in that pane beneath the volume. */
  pane?: string;
  /** `price` (default) formats like the prices; `number` with two decimals (oscillators). */
  format?: "price" | "number";
  dashed?: boolean;
};

/** What the chart draws of a candle (the sample count is not shown). */
type Candle = Omit<DomainCandle, "count">;

type PriceChartProps = {
  /** Candles oldest first, one per bucket (`toCandles`); the last one may still be forming. */
  candles: readonly Candle[];
  /** Accessible name of the chart. */
  label: string;
  /**
   * Extra series: overlays on the price pane and indicator panes beneath the volume (see
   * `ChartLine`). Their values show in the legend with the candle under the crosshair.
   */
  lines?: readonly ChartLine[];
  /** IANA zone for the time axis and the legend; the browser's when omitted. */
  timeZone?: string;
  className?: string;
};

const CHART_HEIGHT = 320;
const PANE_HEIGHT = 110;
const VOLUME_PANE_HEIGHT = 70;

type Palette = {
  text: string;
  grid: string;
  up: string;
  down: string;
  upFaint: string;
  downFaint: string;
};

let colorCanvas: CanvasRenderingContext2D | null | undefined;

/**
 * A CSS colour (oklch, `var(--…)`, named) as `rgba(…)`, which the chart library's canvas
 * understands everywhere: painted on a 1×1 canvas and read back. Unknown: the input as given.
 */
function resolveColor(css: string, element: HTMLElement, alpha = 1): string {
  const probe = document.createElement("span");
  probe.style.color = css;
  probe.style.display = "none";
  element.appendChild(probe);
  const computed = getComputedStyle(probe).color;
  probe.remove();
  if (colorCanvas === undefined) {
    try {
      const canvas = document.createElement("canvas");
      canvas.width = 1;
      canvas.height = 1;
      colorCanvas = canvas.getContext("2d", { willReadFrequently: true });
    } catch {
      colorCanvas = null;
    }
  }
  if (!colorCanvas || !computed) return css;
  colorCanvas.clearRect(0, 0, 1, 1);
  colorCanvas.fillStyle = computed;
  colorCanvas.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = colorCanvas.getImageData(0, 0, 1, 1).data;
  return `rgba(${r}, ${g}, ${b}, ${((a / 255) * alpha).toFixed(3)})`;
}

function readPalette(element: HTMLElement): Palette {
  return {
    text: resolveColor("var(--muted-foreground)", element),
    grid: resolveColor("var(--border)", element),
    up: resolveColor("var(--success)", element),
    down: resolveColor("var(--destructive)", element),
    upFaint: resolveColor("var(--success)", element, 0.45),
    downFaint: resolveColor("var(--destructive)", element, 0.45),
  };
}

const toTime = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;
const fromTime = (time: Time) => (typeof time === "number" ? time * 1000 : Number.NaN);

/** The smallest price step worth drawing for these candles (so tiny prices keep their digits). */
function minMoveOf(candles: readonly Candle[]): number {
  const low = Math.min(...candles.map((c) => Math.abs(c.low)).filter((v) => v > 0));
  if (!Number.isFinite(low)) return 0.01;
  return Math.max(1e-15, 10 ** -Math.min(15, priceShape(low).decimals + 1));
}

/**
 * The price chart of the analysis and the charts page, drawn with TradingView's open-source
 * `lightweight-charts` (canvas): candles with a crosshair, zoom (wheel, pinch) and pan (drag),
 * the volume in a pane beneath, `lines` as overlays or extra panes, in the current theme.
 * The legend above the canvas writes out the values under the crosshair (the newest candle
 * when the pointer is elsewhere) as text, for screen readers and tests. With the chart
 * focused, ← and → move the crosshair from candle to candle, Home and End jump to the ends.
 *
 * When only the newest candle changes or one is added (a live quote), the series is updated
 * in place, so a zoomed or panned view stays where the reader left it.
 */
export function PriceChart({ candles, label, lines = [], timeZone, className }: PriceChartProps) {
  const { t, i18n } = useTranslation("charts");
  const locale = i18n.resolvedLanguage ?? "en";
  const hintId = useId();
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const candleSeries = useRef<ISeriesApi<"Candlestick"> | null>(null);
  const volumeSeries = useRef<ISeriesApi<"Histogram"> | null>(null);
  const lineSeries = useRef(new Map<string, ISeriesApi<SeriesType>>());
  const drawn = useRef<{ candles: readonly Candle[]; palette: Palette | null }>({
    candles: [],
    palette: null,
  });
  const [hovered, setHovered] = useState<number | null>(null);
  const [palette, setPalette] = useState<Palette | null>(null);

  const timeFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(locale, {
        hour: "2-digit",
        minute: "2-digit",
        timeZone: timeZone ?? displayTimeZone(),
      }),
    [locale, timeZone],
  );
  const dateTimeFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(locale, {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: timeZone ?? displayTimeZone(),
      }),
    [locale, timeZone],
  );
  const volumeFormat = useMemo(
    () => new Intl.NumberFormat(locale, { notation: "compact", maximumFractionDigits: 2 }),
    [locale],
  );
  const numberFormat = useMemo(
    () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    [locale],
  );
  // Each pane's scale labels (the chart sets no chart-wide price formatter: it would label every
  // pane as a price): prices for the candles and their overlays, volume in compact notation
  // ("2M", "2 Mio."), oscillators with two decimals. Made once per language and candle set.
  const scaleFormats = useMemo(
    () => ({
      price: {
        type: "custom" as const,
        minMove: minMoveOf(candles),
        formatter: (price: number) => formatPrice(price, locale, { currency: false }),
      },
      volume: {
        type: "custom" as const,
        minMove: 1,
        formatter: (volume: number) => volumeFormat.format(volume),
      },
      number: {
        type: "custom" as const,
        minMove: 0.01,
        formatter: (value: number) => numberFormat.format(value),
      },
    }),
    [candles, locale, volumeFormat, numberFormat],
  );

  // The chart itself: created once, removed on unmount.
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const colors = readPalette(element);
    const api = createChart(element, {
      autoSize: true,
      height: CHART_HEIGHT,
      crosshair: { mode: CrosshairMode.Normal },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 2 },
      rightPriceScale: { borderVisible: false },
    });
    chart.current = api;
    candleSeries.current = api.addSeries(CandlestickSeries, {
      upColor: colors.up,
      downColor: colors.down,
      wickUpColor: colors.up,
      wickDownColor: colors.down,
      borderVisible: false,
    });
    volumeSeries.current = api.addSeries(
      HistogramSeries,
      { priceFormat: { type: "volume" }, priceLineVisible: false, lastValueVisible: false },
      1,
    );
    api.panes()[1]?.setHeight(VOLUME_PANE_HEIGHT);
    const onMove = (param: MouseEventParams) => {
      setHovered(param.time === undefined ? null : fromTime(param.time));
    };
    api.subscribeCrosshairMove(onMove);
    setPalette(colors);
    // The theme is the `.dark` class on <html>: repaint with its colours when it changes.
    const observer = new MutationObserver(() => setPalette(readPalette(element)));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
    const series = lineSeries.current;
    return () => {
      observer.disconnect();
      api.unsubscribeCrosshairMove(onMove);
      api.remove();
      chart.current = null;
      candleSeries.current = null;
      volumeSeries.current = null;
      series.clear();
      drawn.current = { candles: [], palette: null };
    };
  }, []);

  // Colours, axis texts and price format.
  useEffect(() => {
    const api = chart.current;
    if (!api || !palette) return;
    api.applyOptions({
      layout: {
        background: { type: ColorType.Solid, color: "transparent" },
        textColor: palette.text,
        fontFamily: "inherit",
        attributionLogo: false,
      },
      grid: { vertLines: { color: palette.grid }, horzLines: { color: palette.grid } },
      // No chart-wide price formatter: each series formats its own scale (scaleFormats).
      localization: {
        locale,
        timeFormatter: (time: Time) => dateTimeFormat.format(fromTime(time)),
      },
      timeScale: {
        borderColor: palette.grid,
        tickMarkFormatter: (time: Time) => timeFormat.format(fromTime(time)),
      },
    });
    candleSeries.current?.applyOptions({
      upColor: palette.up,
      downColor: palette.down,
      wickUpColor: palette.up,
      wickDownColor: palette.down,
      priceFormat: scaleFormats.price,
    });
    volumeSeries.current?.applyOptions({ priceFormat: scaleFormats.volume });
  }, [palette, locale, timeFormat, dateTimeFormat, scaleFormats]);

  // Candles and volume: in place when only the newest candle moved on, otherwise all anew.
  useEffect(() => {
    const series = candleSeries.current;
    const volume = volumeSeries.current;
    if (!series || !volume || !palette) return;
    const toBar = (c: Candle) => ({
      time: toTime(c.start),
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
    });
    const toVolume = (c: Candle) => ({
      time: toTime(c.start),
      value: c.volume,
      color: c.close >= c.open ? palette.upFaint : palette.downFaint,
    });
    const before = drawn.current.candles;
    const extendsBefore =
      drawn.current.palette === palette &&
      before.length > 0 &&
      candles.length >= before.length &&
      candles.length <= before.length + 1 &&
      candles[0].start === before[0].start &&
      candles[before.length - 2]?.start === before[before.length - 2]?.start;
    if (extendsBefore) {
      for (const candle of candles.slice(before.length - 1)) {
        series.update(toBar(candle));
        volume.update(toVolume(candle));
      }
    } else {
      series.setData(candles.map(toBar));
      volume.setData(candles.map(toVolume));
      // A new theme repaints the same candles: keep the reader's zoom.
      if (drawn.current.candles !== candles) chart.current?.timeScale().fitContent();
    }
    drawn.current = { candles, palette };
  }, [candles, palette]);

  // The extra lines: added, updated and removed by id.
  useEffect(() => {
    const api = chart.current;
    const element = container.current;
    if (!api || !element || !palette) return;
    const panes = [...new Set(lines.flatMap((line) => (line.pane ? [line.pane] : [])))];
    const wanted = new Set(lines.map((line) => line.id));
    for (const [id, series] of lineSeries.current) {
      if (!wanted.has(id)) {
        api.removeSeries(series);
        lineSeries.current.delete(id);
      }
    }
    for (const line of lines) {
      const paneIndex = line.pane ? 2 + panes.indexOf(line.pane) : 0;
      let series = lineSeries.current.get(line.id);
      if (series && series.getPane().paneIndex() !== paneIndex) {
        api.removeSeries(series);
        series = undefined;
      }
      const options = {
        color: resolveColor(line.color, element),
        lineWidth: 1 as const,
        lineStyle: line.dashed ? LineStyle.Dashed : LineStyle.Solid,
        priceLineVisible: false,
        lastValueVisible: false,
        crosshairMarkerVisible: false,
        priceFormat: line.format === "number" ? scaleFormats.number : scaleFormats.price,
      };
      if (!series) {
        series = api.addSeries(LineSeries, options, paneIndex);
        lineSeries.current.set(line.id, series);
      } else {
        series.applyOptions(options);
      }
      series.setData(
        line.points.map((point) =>
          point.value === null || !Number.isFinite(point.value)
            ? { time: toTime(point.time) }
            : { time: toTime(point.time), value: point.value },
        ),
      );
    }
    for (const [index, pane] of api.panes().entries()) {
      if (index >= 2) pane.setHeight(PANE_HEIGHT);
    }
  }, [lines, palette, scaleFormats]);

  const byStart = useMemo(() => new Map(candles.map((c, i) => [c.start, i])), [candles]);
  const index =
    hovered !== null && byStart.has(hovered) ? byStart.get(hovered)! : candles.length - 1;
  const shown = candles[index];
  const previous = index > 0 ? candles[index - 1] : undefined;
  const change = shown && previous ? (shown.close / previous.close - 1) * 100 : null;

  const moveTo = (next: number) => {
    const candle = candles[Math.max(0, Math.min(candles.length - 1, next))];
    if (!candle || !candleSeries.current) return;
    chart.current?.setCrosshairPosition(candle.close, toTime(candle.start), candleSeries.current);
    setHovered(candle.start);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowLeft: index - 1,
      ArrowRight: index + 1,
      Home: 0,
      End: candles.length - 1,
    };
    if (!(event.key in moves)) return;
    event.preventDefault();
    moveTo(moves[event.key]);
  };

  const price = (value: number) => (
    <span title={formatPriceFull(value, locale)}>
      <span aria-hidden="true">{formatPrice(value, locale, { currency: false })}</span>
      <span className="sr-only">{formatPriceFull(value, locale, { currency: false })}</span>
    </span>
  );
  const lineValue = (line: ChartLine) => {
    if (!shown) return MISSING_VALUE;
    const value = line.points.find((point) => point.time === shown.start)?.value ?? null;
    if (value === null || !Number.isFinite(value)) return MISSING_VALUE;
    return line.format === "number"
      ? numberFormat.format(value)
      : formatPrice(value, locale, { currency: false });
  };

  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <dl
          data-testid="price-chart-legend"
          data-time={shown?.start}
          className="flex flex-wrap gap-x-3 gap-y-0.5 font-mono text-xs tabular-nums"
        >
          {shown && (
            <>
              <div className="flex gap-1">
                <dt className="sr-only">{t("chart.time")}</dt>
                <dd data-field="time">{dateTimeFormat.format(shown.start)}</dd>
              </div>
              {(["open", "high", "low", "close"] as const).map((field) => (
                <div key={field} className="flex gap-1">
                  <dt className="text-muted-foreground">
                    <abbr title={t(`chart.${field}`)} className="no-underline">
                      {t(`chart.${field}Short`)}
                    </abbr>
                  </dt>
                  <dd data-field={field} data-value={shown[field]}>
                    {price(shown[field])}
                  </dd>
                </div>
              ))}
              <div className="flex gap-1">
                <dt className="text-muted-foreground">
                  <abbr title={t("chart.volume")} className="no-underline">
                    {t("chart.volumeShort")}
                  </abbr>
                </dt>
                <dd data-field="volume" data-value={shown.volume}>
                  {volumeFormat.format(shown.volume)}
                </dd>
              </div>
              {change !== null && (
                <div className="flex gap-1">
                  <dt className="sr-only">{t("chart.change")}</dt>
                  <dd
                    data-field="change"
                    className={change >= 0 ? "text-success" : "text-destructive"}
                  >
                    {new Intl.NumberFormat(locale, {
                      style: "percent",
                      minimumFractionDigits: 2,
                      maximumFractionDigits: 2,
                      signDisplay: "exceptZero",
                    }).format(change / 100)}
                  </dd>
                </div>
              )}
              {lines.map((line) => (
                <div key={line.id} className="flex gap-1">
                  <dt className="flex items-center gap-1 text-muted-foreground">
                    <span
                      aria-hidden="true"
                      className="inline-block h-0.5 w-3"
                      style={{ backgroundColor: line.color }}
                    />
                    {line.label}
                  </dt>
                  <dd data-field={line.id}>{lineValue(line)}</dd>
                </div>
              ))}
            </>
          )}
        </dl>
        <Button
          type="button"
          size="sm"
          variant="ghost"
          className="h-7 px-2 text-xs"
          onClick={() => {
            chart.current?.timeScale().fitContent();
            setHovered(null);
          }}
        >
          {t("chart.fit")}
        </Button>
      </div>
      <div
        ref={container}
        role="group"
        aria-label={label}
        aria-describedby={hintId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onBlur={() => setHovered(null)}
        data-testid="price-chart"
        className="relative w-full rounded-sm focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
        style={{ minHeight: CHART_HEIGHT }}
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        {t("chart.hint")}
      </p>
    </div>
  );
}
