import { CANDLE_BUCKET_MS, estimateIntervalVolumes, toCandles } from "@domain/candles";
import { lazy, Suspense, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import type { ChartPoint } from "../api/queries";

// The chart library (lightweight-charts) is its own chunk, loaded when there are candles to draw.
const PriceChart = lazy(() =>
  import("@/components/charts/price-chart").then((m) => ({ default: m.PriceChart })),
);

export type CandleSymbol = { id: string; name: string; points: readonly ChartPoint[] };

/**
 * One of the chosen symbols as 5-minute candles with its volume (the analysis' price chart),
 * picked from the symbols the page compares; the first one until the reader picks another.
 */
export function CandlesCard({ symbols }: { symbols: readonly CandleSymbol[] }) {
  const { t } = useTranslation("charts");
  const selectId = useId();
  const [picked, setPicked] = useState<string | null>(null);
  const symbol = symbols.find((s) => s.id === picked) ?? symbols[0];
  const candles = useMemo(
    () =>
      symbol
        ? toCandles(
            estimateIntervalVolumes(
              symbol.points.map((p) => ({ ts: p.t, price: p.price, volume: p.volume })),
            ),
            CANDLE_BUCKET_MS,
          )
        : [],
    [symbol],
  );
  if (!symbol) return null;

  return (
    <Card className="gap-3 px-4 py-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-semibold">{t("candles.title")}</h2>
        <div className="flex items-center gap-2 text-sm">
          <label htmlFor={selectId}>{t("candles.symbol")}</label>
          <select
            id={selectId}
            value={symbol.id}
            onChange={(event) => setPicked(event.target.value)}
            className="h-9 rounded-md border border-input bg-transparent px-2 text-sm focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none dark:bg-input/30 [&>option]:bg-popover [&>option]:text-popover-foreground"
          >
            {symbols.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Suspense
        fallback={
          <div className="flex justify-center py-16">
            <Spinner label={t("loading")} className="size-6" />
          </div>
        }
      >
        <PriceChart
          candles={candles}
          label={t("candles.label", { symbol: symbol.name, count: candles.length })}
        />
      </Suspense>
    </Card>
  );
}
