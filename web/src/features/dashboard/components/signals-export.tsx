import { strategyLabel } from "@domain/signals";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ExportMenu } from "@/components/export-menu";
import type { ExportColumn } from "@/lib/csv";
import type { SignalRow } from "../api/queries";
import { dateTimeFormat } from "@/lib/time-zone";

const DIRECTION_KEY = { bullish: "buy", bearish: "sell", neutral: "neutral" } as const;

/** CSV / JSON of the last hour's trading signals, newest first, in the reader's format. */
export function SignalsExport({ rows }: { rows: readonly SignalRow[] }) {
  const { t, i18n } = useTranslation("dashboard");
  const locale = i18n.resolvedLanguage ?? "en";
  const columns = useMemo<ExportColumn<SignalRow>[]>(() => {
    // Made on the first export, not with the menu: the first date format with a time zone loads
    // the engine's zone data, a long task on a phone's start (decision 0088).
    let time: Intl.DateTimeFormat | undefined;
    let percent: Intl.NumberFormat | undefined;
    const formatTime = (ts: string) =>
      (time ??= dateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" })).format(
        new Date(ts),
      );
    const formatShare = (value: number) =>
      (percent ??= new Intl.NumberFormat(locale, {
        style: "percent",
        maximumFractionDigits: 1,
      })).format(value);
    return [
      { header: t("signals.columns.time"), value: (r) => formatTime(r.computed_at) },
      { header: t("signals.columns.symbol"), value: (r) => r.symbol },
      { header: t("signals.columns.exchange"), value: (r) => r.exchange },
      { header: t("signals.columns.strategy"), value: (r) => strategyLabel(r.strategy) },
      {
        header: t("signals.columns.signal"),
        value: (r) =>
          t(
            `signals.overall.${DIRECTION_KEY[r.signal as keyof typeof DIRECTION_KEY] ?? "neutral"}`,
          ),
      },
      { header: t("signals.columns.confidence"), value: (r) => formatShare(r.confidence) },
    ];
  }, [t, locale]);
  return (
    <div>
      <ExportMenu baseName="signals" columns={columns} rows={rows} label={t("signals.export")} />
    </div>
  );
}
