import { formatSignedPercent, isGain } from "@domain/format";
import { createContext, memo, useContext } from "react";
import { useFixedT } from "@/i18n/use-fixed-t";
import { cn } from "@/lib/utils";
import type { Sparkline as SparklineData } from "../api/queries";

const WIDTH = 80;
const HEIGHT = 24;
const PAD = 2;

type SparklineProps = {
  /** The last 30 minutes, or undefined while they load or when there is no history. */
  line: SparklineData | undefined;
  /** The row's live quote: drawn as the newest point when it is newer than the line's last. */
  live: { ts: string; price: number };
  /** The row's change in percent: the colour (green up, red down) and the accessible name. */
  pct: number;
  className?: string;
};

/**
 * A mover's last 30 minutes as a small SVG line, green for a gain and red otherwise (as the
 * row's percent), named by the row's change. Fewer than two points draw a flat placeholder.
 */
export function Sparkline({ line, live, pct, className }: SparklineProps) {
  const { t, locale } = useFixedT("dashboard");
  const label = t("table.sparkline", {
    change: formatSignedPercent(pct, locale),
  });
  const prices = [...(line?.prices ?? [])];
  const liveTime = Date.parse(live.ts);
  const lastTime = line?.times.at(-1) ?? Number.NEGATIVE_INFINITY;
  if (Number.isFinite(live.price) && live.price > 0 && liveTime > lastTime) prices.push(live.price);

  let path = `M${PAD},${HEIGHT / 2} H${WIDTH - PAD}`;
  if (prices.length >= 2) {
    const low = Math.min(...prices);
    const high = Math.max(...prices);
    const span = high - low || 1;
    const step = (WIDTH - 2 * PAD) / (prices.length - 1);
    path = prices
      .map((price, i) => {
        const x = PAD + i * step;
        const y = high === low ? HEIGHT / 2 : PAD + ((high - price) / span) * (HEIGHT - 2 * PAD);
        return `${i === 0 ? "M" : "L"}${x.toFixed(1)},${y.toFixed(1)}`;
      })
      .join(" ");
  }

  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="sparkline"
      data-points={prices.length}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      className={cn(
        "shrink-0",
        isGain(pct) ? "text-success" : "text-destructive",
        prices.length < 2 && "opacity-40",
        className,
      )}
    >
      <path
        d={path}
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
        strokeLinejoin="round"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Every row's last 30 minutes by instrument id (`movers_sparklines`), for `RowSparkline`. */
export const SparklinesContext = createContext<ReadonlyMap<number, SparklineData> | undefined>(
  undefined,
);

/**
 * A row's or card's sparkline, its line read from `SparklinesContext`: when the lines arrive or
 * are re-read, the lines re-render, not every card and row around them (decision 0095).
 */
export const RowSparkline = memo(function RowSparkline({
  instrumentId,
  live,
  pct,
}: {
  instrumentId: number;
  live: { ts: string; price: number };
  pct: number;
}) {
  const line = useContext(SparklinesContext)?.get(instrumentId);
  return <Sparkline line={line} live={live} pct={pct} />;
});
