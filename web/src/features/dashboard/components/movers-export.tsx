import { formatSignedPercent } from "@domain/format";
import { formatPriceFull } from "@domain/price-format";
import type { MoverEntry } from "@domain/realtime";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ExportMenu } from "@/components/export-menu";
import type { ExportColumn } from "@/lib/csv";
import { formatWindowShort } from "../utils/format-market";
import { dateTimeFormat } from "@/lib/time-zone";

type MoversExportProps = {
  /** The movers as the list shows them now (filtered, in order). */
  entries: readonly MoverEntry[];
  windowMinutes: number;
};

/** CSV / JSON of the movers on screen: the table's columns, numbers in the reader's format. */
export function MoversExport({ entries, windowMinutes }: MoversExportProps) {
  const { t, i18n } = useTranslation("dashboard");
  const locale = i18n.resolvedLanguage ?? "en";
  const columns = useMemo<ExportColumn<MoverEntry>[]>(() => {
    // Made on the first export, not with the menu: the first date format with a time zone loads
    // the engine's zone data, a long task on a phone's start (decision 0088).
    let time: Intl.DateTimeFormat | undefined;
    const formatTime = (ts: string) =>
      (time ??= dateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" })).format(
        new Date(ts),
      );
    const price = (value: number | null) =>
      value === null ? "" : formatPriceFull(value, locale, { currency: false });
    return [
      { header: t("table.symbol"), value: (e) => e.symbol },
      {
        header: t("table.percent", { window: formatWindowShort(t, windowMinutes) }),
        value: (e) => formatSignedPercent(e.pct, locale),
      },
      { header: `${t("table.price3h")} (USD)`, value: (e) => price(e.price_3hour_ago) },
      { header: `${t("table.priceLive")} (USD)`, value: (e) => price(e.price) },
      { header: t("table.exchange"), value: (e) => e.exchange },
      { header: t("table.time"), value: (e) => formatTime(e.ts) },
    ];
  }, [t, locale, windowMinutes]);
  return <ExportMenu baseName="movers" columns={columns} rows={entries} label={t("list.export")} />;
}
