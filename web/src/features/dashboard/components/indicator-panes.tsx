import { atr, obv, stochRsi, vwap } from "@domain/indicators";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { CANDLE_RESOLUTIONS, dashboardQueries, type CandleResolution } from "../api/queries";

// recharts is loaded with the panes, not with the dialog.
const IndicatorChart = lazy(() =>
  import("./indicator-chart").then((m) => ({ default: m.IndicatorChart })),
);

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
 * history: Stochastic RSI, ATR, volume with OBV, and the close with VWAP, each in a pane of its
 * own (they move onto the candle chart with issue 28's chart).
 */
export function IndicatorPanes({ instrumentId, symbol }: { instrumentId: number; symbol: string }) {
  const { t } = useTranslation("dashboard");
  const [resolution, setResolution] = useState<CandleResolution>("5m");
  const candles = useQuery(dashboardQueries.proCandles(instrumentId, resolution));
  const rows = useMemo(() => {
    const list = candles.data ?? [];
    const stoch = stochRsi(list.map((c) => c.close));
    const atrs = atr(list);
    const obvs = obv(list);
    const vwaps = vwap(list);
    return list.map((c, i) => ({
      t: c.start,
      k: stoch.k[i] ?? null,
      d: stoch.d[i] ?? null,
      atr: atrs[i] ?? null,
      volume: c.volume,
      obv: obvs[i] ?? null,
      close: c.close,
      vwap: vwaps[i] ?? null,
    }));
  }, [candles.data]);

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
      ) : rows.length < MIN_CANDLES ? (
        <p
          role="status"
          data-testid="indicators-not-enough"
          className="rounded-md border border-dashed p-3 text-sm"
        >
          {t("pro.indicators.notEnough", { count: rows.length, needed: MIN_CANDLES })}
        </p>
      ) : (
        <Suspense fallback={<Spinner label={t("analysis.loading")} className="size-5" />}>
          <div data-testid="indicator-panes" className="flex flex-col gap-2">
            <IndicatorChart
              label={t("pro.indicators.stochRsi", { symbol })}
              rows={rows}
              domain={[0, 100]}
              lines={[
                { key: "k", name: "%K", color: "#3b82f6" },
                { key: "d", name: "%D", color: "#f59e0b" },
              ]}
            />
            <IndicatorChart
              label={t("pro.indicators.atr", { symbol })}
              rows={rows}
              lines={[{ key: "atr", name: "ATR 14", color: "#8b5cf6" }]}
            />
            <IndicatorChart
              label={t("pro.indicators.obv", { symbol })}
              rows={rows}
              lines={[
                { key: "volume", name: t("pro.indicators.volume"), color: "#64748b", bars: true },
                { key: "obv", name: "OBV", color: "#10b981", right: true },
              ]}
            />
            <IndicatorChart
              label={t("pro.indicators.vwap", { symbol })}
              rows={rows}
              lines={[
                { key: "close", name: t("pro.indicators.close"), color: "#3b82f6" },
                { key: "vwap", name: "VWAP", color: "#ec4899" },
              ]}
            />
          </div>
        </Suspense>
      )}
    </section>
  );
}
