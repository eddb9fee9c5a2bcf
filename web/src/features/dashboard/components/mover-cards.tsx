import { isQuoteStale } from "@domain/quote-age";
import { type MoverEntry, quoteTime } from "@domain/realtime";
import type { Sparkline as SparklineData } from "../api/queries";
import { LineChartIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { formatQuoteAge, formatWindowShort } from "../utils/format-market";
import { BuyLink } from "./buy-link";
import { PercentText } from "./percent-text";
import { PriceText } from "./price-text";
import { QUOTE_AGE_REFRESH_MS, useNow } from "../hooks/use-now";
import { Sparkline } from "./sparkline";
import { StaleMark } from "./stale-mark";

type MoverCardsProps = {
  entries: readonly MoverEntry[];
  windowMinutes: number;
  onAnalyse: (entry: MoverEntry) => void;
  /** Each instrument's last 30 minutes (`movers_sparklines`), by instrument id. */
  sparklines?: ReadonlyMap<number, SparklineData>;
};

/** The phone list: one card per mover. */
export function MoverCards({ entries, windowMinutes, onAnalyse, sparklines }: MoverCardsProps) {
  const { t } = useTranslation("dashboard");
  const now = useNow(QUOTE_AGE_REFRESH_MS);
  return (
    <ul aria-label={t("table.caption")} className="flex flex-col gap-3">
      {entries.map((entry) => (
        <li key={entry.instrument_id}>
          <Card className="gap-3 px-4 py-3">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <button
                  type="button"
                  className="truncate text-left text-base font-semibold underline-offset-4 hover:underline"
                  onClick={() => onAnalyse(entry)}
                >
                  {entry.symbol}
                </button>
                <p className="truncate text-xs text-muted-foreground">{entry.exchange}</p>
              </div>
              <div className="flex shrink-0 items-center gap-2">
                <Sparkline
                  line={sparklines?.get(entry.instrument_id)}
                  live={entry}
                  pct={entry.pct}
                />
                <PercentText pct={entry.pct} className="text-lg" />
              </div>
            </div>
            <dl className="grid grid-cols-3 gap-2 text-xs">
              <div>
                <dt className="text-muted-foreground">{t("table.price3h")}</dt>
                <dd>
                  <PriceText price={entry.price_3hour_ago} />
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t("table.priceLive")}</dt>
                <dd>
                  <PriceText price={entry.price} />
                </dd>
              </div>
              <div className="text-right">
                <dt className="text-muted-foreground">{t("table.dataAge")}</dt>
                <dd data-testid="data-age">
                  <time dateTime={quoteTime(entry)}>
                    {formatQuoteAge(t, quoteTime(entry), now)}
                  </time>
                  {isQuoteStale(quoteTime(entry), windowMinutes, now) ? (
                    <StaleMark
                      label={t("table.stale")}
                      hint={t("table.staleHint", { window: formatWindowShort(t, windowMinutes) })}
                    />
                  ) : null}
                </dd>
              </div>
            </dl>
            <div className="flex gap-2">
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
              <BuyLink entry={entry} />
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
