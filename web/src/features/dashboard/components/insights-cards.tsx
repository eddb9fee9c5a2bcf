import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";
import { dashboardQueries } from "../api/queries";

/**
 * Pro's historical comparison (the last hour's move against the symbol's 30 days of hourly moves,
 * with what followed and the sample sizes) and advanced analytics (percentile, correlation with
 * BTC, volatility regime, largest drawdown), from `history_insights` (decision 0035).
 */
export function InsightsCards({ instrumentId }: { instrumentId: number }) {
  const { t, i18n } = useTranslation("dashboard");
  const insights = useQuery(dashboardQueries.insights(instrumentId));
  const locale = i18n.resolvedLanguage ?? "en";
  const pct = (value: number | null | undefined) =>
    value === null || value === undefined
      ? "–"
      : new Intl.NumberFormat(locale, {
          style: "percent",
          maximumFractionDigits: 2,
          signDisplay: "exceptZero",
        }).format(value / 100);
  const plain = (value: number, digits = 2) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);

  if (insights.isPending) return <Spinner label={t("analysis.loading")} className="size-5" />;
  if (insights.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {t("pro.failed")}
      </p>
    );
  }
  const d = insights.data;
  const c = d.comparison;
  const outcomes = [
    { id: "1h", key: "hour", value: c.after_1h },
    { id: "4h", key: "fourHours", value: c.after_4h },
    { id: "24h", key: "day", value: c.after_24h },
  ] as const;
  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid="pro-insights">
      <section
        className="flex flex-col gap-2 rounded-lg border p-3 sm:col-span-2"
        data-testid="comparison"
      >
        <h3 className="font-semibold">{t("pro.comparison.title")}</h3>
        {d.move_1h_pct === null ? (
          <p role="status" className="text-sm text-muted-foreground">
            {t("pro.comparison.noMove")}
          </p>
        ) : (
          <>
            <p className="text-sm">
              {t("pro.comparison.summary", {
                move: pct(d.move_1h_pct),
                count: c.occurrences,
                hours: plain(c.hours, 0),
              })}
            </p>
            <ul className="grid grid-cols-3 gap-2 text-sm">
              {outcomes.map((o) => (
                <li key={o.id} className="rounded-md bg-muted/50 p-2" data-testid={`after-${o.id}`}>
                  <p className="text-xs text-muted-foreground">
                    {t(`pro.comparison.after.${o.key}`)}
                  </p>
                  <p className="font-semibold tabular-nums">{pct(o.value.avg_pct)}</p>
                  <p className="text-xs text-muted-foreground">
                    {t("pro.comparison.samples", { count: o.value.samples })}
                  </p>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <Metric
        title={t("pro.analytics.percentile")}
        value={
          d.percentile === null
            ? "–"
            : t("pro.analytics.percentileValue", { value: plain(d.percentile, 1) })
        }
        hint={t("pro.analytics.percentileHint")}
      />
      <Metric
        title={t("pro.analytics.correlation")}
        value={d.btc_correlation === null ? "–" : plain(d.btc_correlation)}
        hint={
          d.btc_correlation === null
            ? t("pro.analytics.correlationMissing")
            : t("pro.analytics.correlationHint", { count: d.btc_correlation_pairs })
        }
      />
      <Metric
        title={t("pro.analytics.regime")}
        value={d.volatility.regime ? t(`pro.analytics.regimes.${d.volatility.regime}`) : "–"}
        hint={
          d.volatility.regime
            ? t("pro.analytics.regimeHint", {
                day: pct(d.volatility.stddev_24h_pct),
                month: pct(d.volatility.stddev_30d_pct),
              })
            : t("pro.analytics.regimeMissing")
        }
      />
      <Metric
        title={t("pro.analytics.drawdown")}
        value={pct(d.drawdown.pct)}
        hint={t("pro.analytics.drawdownHint")}
      />
    </div>
  );
}

function Metric({ title, value, hint }: { title: string; value: string; hint: string }) {
  return (
    <section className="flex flex-col gap-1 rounded-lg border p-3" aria-label={title}>
      <h4 className="text-xs font-medium text-muted-foreground">{title}</h4>
      <p className="text-lg font-semibold tabular-nums">{value}</p>
      <p className="text-xs text-muted-foreground">{hint}</p>
    </section>
  );
}
