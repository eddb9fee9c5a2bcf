import { effectiveWindow, hasProAnalytics } from "@domain/plans";
import { useQueries, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Navigate } from "react-router-dom";
import { MultiSelect } from "@/components/multi-select";
import { UpgradePrompt } from "@/components/upgrade-prompt";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/hooks/use-current-user";
import { useUrlState } from "@/hooks/use-url-state";
import { readEnum } from "@/lib/url-state";
import { LOGIN_PATH } from "@/lib/redirect";
import {
  CHART_RANGES,
  chartsQueries,
  COMPARE_MAX,
  COMPARE_MIN,
  strongestSymbols,
  type ChartRange,
} from "../api/queries";
import { type CandleSymbol, CandlesCard } from "./candles-card";
import type { PriceSeries } from "./price-lines-chart";

// recharts (about 110 KB gzipped) is loaded when there is something to draw, not with the page.
/** The locale key of each time span (keys are camelCase words). */
const RANGE_KEYS = {
  "3h": "threeHours",
  "24h": "day",
  "7d": "week",
  "30d": "month",
} as const satisfies Record<ChartRange, string>;

/**
 * The picked symbols in the address (decision 0045): `?symbols=12,40` (instrument ids), `none` for
 * an emptied selection; absent means "the current strongest movers". Ids that are not whole
 * numbers are dropped.
 */
export function parsePickedSymbols(params: Pick<URLSearchParams, "get">): string[] | null {
  const raw = params.get("symbols");
  if (raw === null) return null;
  const ids = raw.split(",").filter((id) => /^[1-9][0-9]{0,15}$/.test(id));
  return [...new Set(ids)];
}

const PriceLinesChart = lazy(() =>
  import("./price-lines-chart").then((m) => ({ default: m.PriceLinesChart })),
);

/**
 * /charts (subscribers only): the last 3 hours of several symbols in one chart; Pro and
 * Enterprise also compare two to four symbols over 24 hours, 7 days or 30 days from the candle
 * history (`history_compare`), where other plans see an upgrade prompt.
 */
export function ChartsPage() {
  const { t } = useTranslation("charts");
  const { profile, isPending } = useCurrentUser();
  const windowMinutes = profile
    ? effectiveWindow(profile.plan, profile.selected_window_minutes)
    : 30;
  const symbols = useQuery({ ...chartsQueries.symbols(windowMinutes), enabled: profile !== null });
  // Until the user picks, the page shows the current strongest movers (decision 0014).
  const [params, setUrl] = useUrlState({ range: "3h" });
  const picked = useMemo(() => parsePickedSymbols(params), [params]);
  const setSelected = (ids: string[]) => setUrl({ symbols: ids.length > 0 ? ids : "none" });
  const selected = useMemo(
    () => picked ?? strongestSymbols(symbols.data ?? []),
    [picked, symbols.data],
  );
  const chosen = useMemo(
    () => (symbols.data ?? []).filter((symbol) => selected.includes(String(symbol.instrumentId))),
    [symbols.data, selected],
  );
  const histories = useQueries({
    queries: chosen.map((symbol) => chartsQueries.history(symbol.instrumentId)),
  });
  const range = readEnum<ChartRange>(params, "range", CHART_RANGES, "3h");
  const setRange = (next: ChartRange) => setUrl({ range: next });
  const pro =
    profile !== null &&
    hasProAnalytics({
      plan: profile.plan,
      subscriptionActive: profile.subscription_active,
      banned: profile.banned,
    });
  const ids = chosen.map((symbol) => symbol.instrumentId);
  const comparable = ids.length >= COMPARE_MIN && ids.length <= COMPARE_MAX;
  const comparison = useQuery({
    ...chartsQueries.compare(ids, range === "3h" ? "24h" : range),
    enabled: pro && range !== "3h" && comparable,
  });

  if (isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }
  if (!profile) return <Navigate to={LOGIN_PATH} replace />;

  const loading = histories.some((history) => history.isPending);
  const failed = histories.some((history) => history.isError);
  const series: PriceSeries[] = chosen.flatMap((symbol, index) => {
    const points = histories[index]?.data ?? [];
    if (points.length === 0) return [];
    const base = points[0].price;
    return [
      {
        id: String(symbol.instrumentId),
        name: `${symbol.symbol} (${symbol.exchange})`,
        points: points.map((point) => ({ t: point.t, pct: (point.price / base - 1) * 100 })),
      },
    ];
  });

  const candleSymbols: CandleSymbol[] = chosen.flatMap((symbol, index) => {
    const points = histories[index]?.data ?? [];
    return points.length === 0
      ? []
      : [
          {
            id: String(symbol.instrumentId),
            name: `${symbol.symbol} (${symbol.exchange})`,
            points,
          },
        ];
  });

  return (
    <div className="container mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h1>
        <p className="text-muted-foreground">{t("description")}</p>
      </header>

      <Card className="gap-4 px-4 py-4">
        {symbols.isPending ? (
          <Spinner label={t("loading")} />
        ) : symbols.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {t("symbolsFailed")}
          </p>
        ) : symbols.data.length === 0 ? (
          <p role="status" className="text-sm text-muted-foreground">
            {t("noSymbols")}
          </p>
        ) : (
          <div className="flex flex-col gap-1.5">
            <span className="text-sm font-medium" aria-hidden="true">
              {t("select.label")}
            </span>
            <MultiSelect
              label={t("select.label")}
              options={symbols.data.map((symbol) => ({
                value: String(symbol.instrumentId),
                label: `${symbol.symbol} · ${symbol.exchange}`,
              }))}
              selected={selected}
              onChange={setSelected}
              texts={{
                empty: t("select.none"),
                selected: (count) => t("select.selected", { count }),
                search: t("select.search"),
                noOptions: t("select.noOptions"),
                clear: t("select.clear"),
              }}
            />
          </div>
        )}
      </Card>

      <div role="group" aria-label={t("range.label")} className="flex flex-wrap gap-2">
        {CHART_RANGES.map((r) => (
          <Button
            key={r}
            size="sm"
            variant={r === range ? "default" : "outline"}
            aria-pressed={r === range}
            onClick={() => setRange(r)}
          >
            {t(`range.${RANGE_KEYS[r]}`)}
          </Button>
        ))}
      </div>

      {range !== "3h" ? (
        <Card className="gap-3 px-4 py-4" data-testid="compare-card">
          {!pro ? (
            <UpgradePrompt
              title={t("compare.upgradeTitle")}
              description={t("compare.upgradeDescription")}
            />
          ) : !comparable ? (
            <p role="status" className="py-10 text-center text-sm text-muted-foreground">
              {t("compare.pick", { min: COMPARE_MIN, max: COMPARE_MAX })}
            </p>
          ) : comparison.isPending ? (
            <div className="flex justify-center py-16">
              <Spinner label={t("loading")} className="size-6" />
            </div>
          ) : comparison.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {t("failed")}
            </p>
          ) : comparison.data.every((item) => item.points.length === 0) ? (
            <p role="status" className="py-10 text-center text-sm text-muted-foreground">
              {t("compare.noData")}
            </p>
          ) : (
            <>
              <Suspense
                fallback={
                  <div className="flex justify-center py-16">
                    <Spinner label={t("loading")} className="size-6" />
                  </div>
                }
              >
                <PriceLinesChart
                  days={range !== "24h"}
                  series={comparison.data.map((item) => ({
                    id: String(item.instrumentId),
                    name: `${item.symbol} (${item.exchange})`,
                    points: item.points,
                  }))}
                  label={t("compare.chartLabel", {
                    range: t(`range.${RANGE_KEYS[range]}`),
                    symbols: comparison.data.map((item) => item.symbol).join(", "),
                  })}
                />
              </Suspense>
              <p className="text-xs text-muted-foreground">{t("compare.hint")}</p>
              <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                {comparison.data.map((item) => (
                  <li key={item.instrumentId} data-testid="compare-series">
                    {t("seriesPoints", { symbol: item.symbol, count: item.points.length })}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Card>
      ) : (
        chosen.length > 0 && (
          <Card className="gap-3 px-4 py-4">
            {loading ? (
              <div className="flex justify-center py-16">
                <Spinner label={t("loading")} className="size-6" />
              </div>
            ) : failed && series.length === 0 ? (
              <p role="alert" className="text-sm text-destructive">
                {t("failed")}
              </p>
            ) : series.length === 0 ? (
              <p role="status" className="py-10 text-center text-sm text-muted-foreground">
                {t("noData")}
              </p>
            ) : (
              <>
                <Suspense
                  fallback={
                    <div className="flex justify-center py-16">
                      <Spinner label={t("loading")} className="size-6" />
                    </div>
                  }
                >
                  <PriceLinesChart
                    series={series}
                    label={t("chartLabel", { symbols: series.map((s) => s.name).join(", ") })}
                  />
                </Suspense>
                <p className="text-xs text-muted-foreground">{t("changeHint")}</p>
                <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
                  {series.map((item) => (
                    <li key={item.id}>
                      {t("seriesPoints", { symbol: item.name, count: item.points.length })}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </Card>
        )
      )}

      {!loading && candleSymbols.length > 0 && <CandlesCard symbols={candleSymbols} />}
    </div>
  );
}
