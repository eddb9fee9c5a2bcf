import { strategyLabel } from "@domain/signals";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeftIcon, TriangleAlertIcon } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { dashboardQueries, TRACK_RECORD_PERIODS, type TrackRecordPeriod } from "../api/queries";
import { ExportMenu } from "@/components/export-menu";
import { formatSignedPercent } from "@domain/format";
import type { TrackRecordRow } from "../api/queries";
import { PercentText } from "./percent-text";

const DASHBOARD_PATH = "/dashboard";
const PERIOD_KEYS = { "24h": "day", "7d": "week", "30d": "month" } as const;

/**
 * /dashboard/track-record (subscribers only): how each strategy's signals played out over the last
 * 24 hours, 7 days or 30 days — hit rate, and the average and median return of following them —
 * as `signal_track_record` computes it from the recorded outcomes.
 */
export function TrackRecordPage() {
  const { t, i18n } = useTranslation("dashboard");
  const [period, setPeriod] = useState<TrackRecordPeriod>("7d");
  const record = useQuery(dashboardQueries.trackRecord(period));
  const percent = new Intl.NumberFormat(i18n.resolvedLanguage ?? "en", {
    style: "percent",
    maximumFractionDigits: 1,
  });
  const head = "px-3 py-2 text-left text-xs font-medium tracking-wide uppercase";

  return (
    <div className="container mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-2">
        <Button asChild variant="ghost" size="sm" className="w-fit">
          <Link to={DASHBOARD_PATH}>
            <ArrowLeftIcon aria-hidden="true" />
            {t("trackRecord.back")}
          </Link>
        </Button>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("trackRecord.title")}</h1>
        <p className="text-muted-foreground">{t("trackRecord.description")}</p>
      </header>

      <div className="flex flex-wrap items-center justify-between gap-2">
        <div role="group" aria-label={t("trackRecord.period")} className="flex flex-wrap gap-2">
          {TRACK_RECORD_PERIODS.map((p) => (
            <Button
              key={p}
              type="button"
              size="sm"
              variant={p === period ? "default" : "outline"}
              aria-pressed={p === period}
              onClick={() => setPeriod(p)}
            >
              {t(`trackRecord.periods.${PERIOD_KEYS[p]}`)}
            </Button>
          ))}
        </div>
        <ExportMenu<TrackRecordRow>
          baseName={`track-record-${period}`}
          label={t("trackRecord.export")}
          rows={record.data ?? []}
          columns={[
            { header: t("trackRecord.columns.strategy"), value: (r) => strategyLabel(r.strategy) },
            {
              header: t("trackRecord.columns.horizon"),
              value: (r) => t("trackRecord.hours", { count: r.horizonHours }),
            },
            { header: t("trackRecord.columns.signals"), value: (r) => r.signals },
            { header: t("trackRecord.columns.hitRate"), value: (r) => percent.format(r.hitRate) },
            {
              header: t("trackRecord.columns.avgReturn"),
              value: (r) =>
                r.avgReturn === null
                  ? ""
                  : formatSignedPercent(r.avgReturn, i18n.resolvedLanguage ?? "en"),
            },
            {
              header: t("trackRecord.columns.medianReturn"),
              value: (r) =>
                r.medianReturn === null
                  ? ""
                  : formatSignedPercent(r.medianReturn, i18n.resolvedLanguage ?? "en"),
            },
          ]}
        />
      </div>

      <Card className="gap-3 px-0 py-0">
        {record.isPending ? (
          <div className="flex justify-center py-10">
            <Spinner label={t("trackRecord.loading")} className="size-6" />
          </div>
        ) : record.isError ? (
          <p role="alert" className="p-4 text-sm text-destructive">
            {t("trackRecord.failed")}
          </p>
        ) : record.data.length === 0 ? (
          <p role="status" className="p-6 text-center text-sm text-muted-foreground">
            {t("trackRecord.empty")}
          </p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <caption className="sr-only">
                {t("trackRecord.caption", {
                  period: t(`trackRecord.periods.${PERIOD_KEYS[period]}`),
                })}
              </caption>
              <thead className="bg-muted/50">
                <tr>
                  <th scope="col" className={head}>
                    {t("trackRecord.columns.strategy")}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t("trackRecord.columns.horizon")}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t("trackRecord.columns.signals")}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t("trackRecord.columns.hitRate")}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t("trackRecord.columns.avgReturn")}
                  </th>
                  <th scope="col" className={`${head} text-right`}>
                    {t("trackRecord.columns.medianReturn")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {record.data.map((row) => (
                  <tr key={`${row.strategy}:${row.horizonHours}`}>
                    <th scope="row" className="px-3 py-2 text-left font-semibold">
                      {strategyLabel(row.strategy)}
                    </th>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {t("trackRecord.hours", { count: row.horizonHours })}
                    </td>
                    <td className="px-3 py-2 text-right tabular-nums">{row.signals}</td>
                    <td className="px-3 py-2 text-right tabular-nums">
                      {percent.format(row.hitRate)}{" "}
                      <span className="text-muted-foreground">
                        {t("trackRecord.hits", { hits: row.hits, signals: row.signals })}
                      </span>
                    </td>
                    <td className="px-3 py-2 text-right">
                      {row.avgReturn === null ? "—" : <PercentText pct={row.avgReturn} />}
                    </td>
                    <td className="px-3 py-2 text-right">
                      {row.medianReturn === null ? "—" : <PercentText pct={row.medianReturn} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t("trackRecord.disclaimer")}
      </p>
    </div>
  );
}
