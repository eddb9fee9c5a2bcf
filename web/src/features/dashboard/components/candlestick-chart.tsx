import {
  CANDLE_BUCKET_MS,
  type Candle,
  candleColor,
  formatChartPrice,
  MAX_TIME_TICKS,
  timeTicks,
} from "@domain/candles";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";

const WIDTH = 720;
const HEIGHT = 280;
const PAD = { top: 12, right: 12, bottom: 28, left: 104 };
const PRICE_TICKS = 5;

const timeFormats = new Map<string, Intl.DateTimeFormat>();
function clock(ms: number, locale: string): string {
  let format = timeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit" });
    timeFormats.set(locale, format);
  }
  return format.format(ms);
}

type CandlestickChartProps = {
  candles: readonly Candle[];
  /** Accessible description of the chart. */
  label: string;
  className?: string;
};

/**
 * Five-minute candles as plain SVG: time on x (gaps in the history stay gaps), price on y with
 * 6 decimals, at most 8 time ticks; a candle is green when it closes at or above its open.
 * Scales with its container through the viewBox.
 */
export function CandlestickChart({ candles, label, className }: CandlestickChartProps) {
  const { i18n } = useTranslation();
  const locale = i18n.resolvedLanguage ?? "en";
  if (candles.length === 0) return null;

  const first = candles[0].start;
  const last = candles[candles.length - 1].start + CANDLE_BUCKET_MS;
  let low = Math.min(...candles.map((c) => c.low));
  let high = Math.max(...candles.map((c) => c.high));
  if (high === low) {
    const pad = high === 0 ? 1 : Math.abs(high) * 0.001;
    low -= pad;
    high += pad;
  }
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const x = (ms: number) => PAD.left + ((ms - first) / (last - first)) * plotWidth;
  const y = (price: number) => PAD.top + ((high - price) / (high - low)) * plotHeight;
  const slot = (CANDLE_BUCKET_MS / (last - first)) * plotWidth;
  const bodyWidth = Math.max(1, slot * 0.6);
  const prices = Array.from(
    { length: PRICE_TICKS },
    (_, i) => low + ((high - low) * i) / (PRICE_TICKS - 1),
  );

  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      className={cn("h-auto w-full text-muted-foreground", className)}
    >
      <g data-slot="price-axis" className="text-[11px]">
        {prices.map((price) => (
          <g key={price}>
            <line
              x1={PAD.left}
              x2={WIDTH - PAD.right}
              y1={y(price)}
              y2={y(price)}
              className="stroke-border"
              strokeDasharray="3 3"
            />
            <text
              x={PAD.left - 6}
              y={y(price)}
              textAnchor="end"
              dominantBaseline="middle"
              className="fill-current font-mono"
            >
              {formatChartPrice(price, locale)}
            </text>
          </g>
        ))}
      </g>
      <g data-slot="time-axis" className="text-[11px]">
        {timeTicks(candles, MAX_TIME_TICKS).map((start) => (
          <text
            key={start}
            data-slot="time-tick"
            x={x(start) + slot / 2}
            y={HEIGHT - 8}
            textAnchor="middle"
            className="fill-current"
          >
            {clock(start, locale)}
          </text>
        ))}
      </g>
      <g>
        {candles.map((candle) => {
          const color = candleColor(candle);
          const center = x(candle.start) + slot / 2;
          const top = y(Math.max(candle.open, candle.close));
          const bottom = y(Math.min(candle.open, candle.close));
          return (
            <g
              key={candle.start}
              data-slot="candle"
              data-color={color}
              className={color === "up" ? "text-success" : "text-destructive"}
            >
              <line
                x1={center}
                x2={center}
                y1={y(candle.high)}
                y2={y(candle.low)}
                stroke="currentColor"
                strokeWidth={1}
              />
              <rect
                x={center - bodyWidth / 2}
                y={top}
                width={bodyWidth}
                height={Math.max(1, bottom - top)}
                fill="currentColor"
              />
            </g>
          );
        })}
      </g>
    </svg>
  );
}
