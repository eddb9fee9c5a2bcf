import type { Candle as DomainCandle } from "@domain/candles";
import type { ChartLine } from "@/components/charts/price-chart";

type Candle = Omit<DomainCandle, "count">;

/**
 * What unit tests render for `PriceChart` (see setup.ts): an image named like the chart, with a
 * `candle` item per candle (start, close, colour) and a `line` item per extra line (its label,
 * and how many of its points have a value).
 */
export function PriceChartStandIn({
  candles,
  lines = [],
  label,
}: {
  candles: readonly Candle[];
  lines?: readonly ChartLine[];
  label: string;
}) {
  return (
    <ul role="img" aria-label={label}>
      {candles.map((c) => (
        <li
          key={c.start}
          data-slot="candle"
          data-start={c.start}
          data-close={c.close}
          data-color={c.close >= c.open ? "up" : "down"}
        />
      ))}
      {lines.map((line) => (
        <li
          key={line.id}
          data-slot="line"
          data-id={line.id}
          data-values={line.points.filter((p) => p.value !== null).length}
        >
          {line.label}
        </li>
      ))}
    </ul>
  );
}
