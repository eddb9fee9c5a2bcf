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
    const time = dateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" });
    const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 1 });
    return [
      { header: t("signals.columns.time"), value: (r) => time.format(new Date(r.computed_at)) },
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
      { header: t("signals.columns.confidence"), value: (r) => percent.format(r.confidence) },
    ];
  }, [t, locale]);
  return (
    <div>
      <ExportMenu baseName="signals" columns={columns} rows={rows} label={t("signals.export")} />
    </div>
  );
}
