import { atr, obv, stochRsi, vwap } from "@domain/indicators";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { type ChartLine, PriceChart } from "@/components/charts/price-chart";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { CANDLE_RESOLUTIONS, dashboardQueries, type CandleResolution } from "../api/queries";

/** StochRSI 14/14/3/3 needs 14 + 14 − 1 + 2 + 2 = 31 candles before its first %D. */
const MIN_CANDLES = 31;
/** The locale key of each candle size (keys are camelCase words). */
const RESOLUTION_KEYS = {
  "5m": "fiveMinutes",
  "1h": "hour",
  "4h": "fourHours",
} as const satisfies Record<CandleResolution, string>;

/**
 * Pro's additional indicators on 5-minute, hourly or 4-hour candles from the database's
 * history, on the lightweight-charts candle chart: VWAP over the candles, the volume beneath
 * them, then Stochastic RSI (%K, %D), ATR and OBV each in a pane of its own, all on the candles'
 * time scale (one crosshair, one zoom). The legend writes out every value under the crosshair.
 */
export function IndicatorPanes({ instrumentId, symbol }: { instrumentId: number; symbol: string }) {
  const { t } = useTranslation("dashboard");
  const [resolution, setResolution] = useState<CandleResolution>("5m");
  const candles = useQuery(dashboardQueries.proCandles(instrumentId, resolution));
  const list = useMemo(() => candles.data ?? [], [candles.data]);
  const lines = useMemo((): ChartLine[] => {
    const times = list.map((c) => c.start);
    const series = (values: readonly (number | null | undefined)[]) =>
      times.map((time, i) => ({ time, value: values[i] ?? null }));
    const stoch = stochRsi(list.map((c) => c.close));
    return [
      { id: "vwap", label: "VWAP", color: "#ec4899", points: series(vwap(list)) },
      {
        id: "stoch-k",
        label: "StochRSI %K",
        color: "#3b82f6",
        points: series(stoch.k),
        pane: "stoch",
        format: "number",
      },
      {
        id: "stoch-d",
        label: "%D",
        color: "#f59e0b",
        points: series(stoch.d),
        pane: "stoch",
        format: "number",
        dashed: true,
      },
      { id: "atr", label: "ATR 14", color: "#8b5cf6", points: series(atr(list)), pane: "atr" },
      {
        id: "obv",
        label: "OBV",
        color: "#10b981",
        points: series(obv(list)),
        pane: "obv",
        format: "number",
      },
    ];
  }, [list]);

  return (
    <section className="flex flex-col gap-3" aria-label={t("pro.indicators.title")}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold">{t("pro.indicators.title")}</h3>
        <div role="group" aria-label={t("pro.indicators.resolution")} className="flex gap-1">
          {CANDLE_RESOLUTIONS.map((r) => (
            <Button
              key={r}
              size="sm"
              variant={r === resolution ? "default" : "outline"}
              aria-pressed={r === resolution}
              onClick={() => setResolution(r)}
            >
              {t(`pro.indicators.resolutions.${RESOLUTION_KEYS[r]}`)}
            </Button>
          ))}
        </div>
      </div>
      {candles.isPending ? (
        <Spinner label={t("analysis.loading")} className="size-5" />
      ) : candles.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {t("pro.failed")}
        </p>
      ) : list.length < MIN_CANDLES ? (
        <p
          role="status"
          data-testid="indicators-not-enough"
          className="rounded-md border border-dashed p-3 text-sm"
        >
          {t("pro.indicators.notEnough", { count: list.length, needed: MIN_CANDLES })}
        </p>
      ) : (
        <div data-testid="indicator-panes">
          <PriceChart candles={list} lines={lines} label={t("pro.indicators.chart", { symbol })} />
        </div>
      )}
    </section>
  );
}
