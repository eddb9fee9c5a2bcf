import { isQuoteStale } from "@domain/quote-age";
import { type MoverEntry, quoteTime } from "@domain/realtime";
import type { Sparkline as SparklineData } from "../api/queries";
import { LineChartIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { formatQuoteAge, formatWindowShort } from "../utils/format-market";
import { BuyLink } from "./buy-link";
import { PercentText } from "./percent-text";
import { PriceText } from "./price-text";
import { ROW_ATTRIBUTE, ROW_FOCUS_ATTRIBUTE } from "../hooks/use-dashboard-shortcuts";
import { QUOTE_AGE_REFRESH_MS, useNow } from "../hooks/use-now";
import { Sparkline } from "./sparkline";
import { StaleMark } from "./stale-mark";

type MoversTableProps = {
  entries: readonly MoverEntry[];
  windowMinutes: number;
  onAnalyse: (entry: MoverEntry) => void;
  /** Each instrument's last 30 minutes (`movers_sparklines`), by instrument id. */
  sparklines?: ReadonlyMap<number, SparklineData>;
  /** The row the j/k shortcuts selected (its instrument id), marked and kept in view. */
  selectedId?: number | null;
};

/** The desktop list: one row per mover. */
export function MoversTable({
  entries,
  windowMinutes,
  onAnalyse,
  sparklines,
  selectedId = null,
}: MoversTableProps) {
  const { t } = useTranslation("dashboard");
  // Each row shows its quote's age in seconds (decision 0033): this list re-renders every second.
  const now = useNow(QUOTE_AGE_REFRESH_MS);
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
              {t("table.dataAge")}
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
          {entries.map((entry) => {
            const quotedAt = quoteTime(entry);
            const stale = isQuoteStale(quotedAt, windowMinutes, now);
            const selected = entry.instrument_id === selectedId;
            return (
              <tr
                key={entry.instrument_id}
                {...{ [ROW_ATTRIBUTE]: entry.instrument_id }}
                aria-current={selected ? "true" : undefined}
                // The quote's venue time: `npm run bench` measures how old a quote is when rendered.
                data-ts={quotedAt}
                data-stale={stale ? "true" : undefined}
                className={cn(
                  "scroll-my-16 border-t hover:bg-muted/30",
                  stale && "text-muted-foreground",
                  selected && "bg-muted/60 outline-2 -outline-offset-2 outline-ring",
                )}
              >
                <th scope="row" className="px-3 py-2 text-left font-semibold">
                  <button
                    type="button"
                    {...{ [ROW_FOCUS_ATTRIBUTE]: "" }}
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
                <td
                  className="px-3 py-2 whitespace-nowrap text-muted-foreground"
                  data-testid="data-age"
                >
                  <time dateTime={quotedAt}>{formatQuoteAge(t, quotedAt, now)}</time>
                  {stale ? (
                    <StaleMark
                      label={t("table.stale")}
                      hint={t("table.staleHint", { window: formatWindowShort(t, windowMinutes) })}
                    />
                  ) : null}
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
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
