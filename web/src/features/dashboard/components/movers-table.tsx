import type { MoverEntry } from "@domain/realtime";
import type { Sparkline as SparklineData } from "../api/queries";
import { LineChartIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { formatAge, formatWindowShort } from "../utils/format-market";
import { BuyLink } from "./buy-link";
import { PercentText } from "./percent-text";
import { PriceText } from "./price-text";
import { Sparkline } from "./sparkline";

type MoversTableProps = {
  entries: readonly MoverEntry[];
  windowMinutes: number;
  /** The current time, ticking every 5 s, for the age labels. */
  now: number;
  onAnalyse: (entry: MoverEntry) => void;
  /** Each instrument's last 30 minutes (`movers_sparklines`), by instrument id. */
  sparklines?: ReadonlyMap<number, SparklineData>;
};

/** The desktop list: one row per mover. */
export function MoversTable({
  entries,
  windowMinutes,
  now,
  onAnalyse,
  sparklines,
}: MoversTableProps) {
  const { t } = useTranslation("dashboard");
  const head = "px-3 py-2 text-left text-xs font-medium text-muted-foreground uppercase";

  return (
    <div className="overflow-x-auto rounded-lg border">
      <table className="w-full text-sm">
        <caption className="sr-only">{t("table.caption")}</caption>
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className={head}>
              {t("table.symbol")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("table.percent", { window: formatWindowShort(t, windowMinutes) })}
            </th>
            <th scope="col" className={head}>
              {t("table.sparklineHeader")}
            </th>
            {/* Columns drop by priority on narrower screens: the 3-hour price first. */}
            <th scope="col" className={`${head} hidden text-right 2xl:table-cell`}>
              {t("table.price3h")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("table.priceLive")}
            </th>
            <th scope="col" className={head}>
              {t("table.exchange")}
            </th>
            <th scope="col" className={head}>
              {t("table.time")}
            </th>
            <th scope="col" className={head}>
              {t("table.analysis")}
            </th>
            <th scope="col" className={head}>
              {t("table.buy")}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr
              key={entry.instrument_id}
              // The quote's time: `npm run bench` measures how old a quote is when it is rendered.
              data-ts={entry.ts}
              className="border-t hover:bg-muted/30"
            >
              <th scope="row" className="px-3 py-2 text-left font-semibold">
                <button
                  type="button"
                  className="rounded-sm underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  onClick={() => onAnalyse(entry)}
                >
                  {entry.symbol}
                </button>
              </th>
              <td className="px-3 py-2 text-right">
                <PercentText pct={entry.pct} />
              </td>
              <td className="px-3 py-2">
                <Sparkline
                  line={sparklines?.get(entry.instrument_id)}
                  live={entry}
                  pct={entry.pct}
                />
              </td>
              <td className="hidden px-3 py-2 text-right 2xl:table-cell">
                <PriceText price={entry.price_3hour_ago} />
              </td>
              <td className="px-3 py-2 text-right">
                <PriceText price={entry.price} />
              </td>
              <td
                className="max-w-36 truncate px-3 py-2 text-muted-foreground"
                title={entry.exchange}
              >
                {entry.exchange}
              </td>
              <td className="px-3 py-2 whitespace-nowrap text-muted-foreground">
                <time dateTime={entry.ts}>{formatAge(t, entry.ts, now)}</time>
              </td>
              <td className="px-3 py-2">
                <Button
                  type="button"
                  size="sm"
                  variant="secondary"
                  aria-label={t("table.openAnalysis", { symbol: entry.symbol })}
                  onClick={() => onAnalyse(entry)}
                >
                  <LineChartIcon aria-hidden="true" />
                  {t("table.analysis")}
                </Button>
              </td>
              <td className="px-3 py-2">
                <BuyLink entry={entry} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
