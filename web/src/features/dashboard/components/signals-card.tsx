import {
  type OverallDirection,
  SUMMARY_MAX_BADGES,
  SUMMARY_MAX_SYMBOLS,
  summarizeSignals,
} from "@domain/signals";
import { HistoryIcon } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useTransitionQuery } from "@/hooks/use-transition-query";
import { Link } from "react-router-dom";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { cn } from "@/lib/utils";
import { SignalsExport } from "./signals-export";
import { dashboardQueries } from "../api/queries";

/** How each strategy's past signals played out (`track-record-page.tsx`). */
const TRACK_RECORD_PATH = "/dashboard/track-record";

const directionClass: Record<OverallDirection, string> = {
  buy: "border-transparent bg-success text-success-foreground",
  sell: "border-transparent bg-destructive text-destructive-foreground",
  neutral: "",
};

function signalClass(signal: string): string {
  if (signal === "bullish" || signal === "buy") return "border-success/50 text-success";
  if (signal === "bearish" || signal === "sell") return "border-destructive/50 text-destructive";
  return "text-muted-foreground";
}

/**
 * Strategy signals of the last hour, refetched every minute: the first 10 symbols, up to 4
 * strategy badges each, their average confidence and the overall buy / sell / neutral direction.
 */
export function SignalsCard() {
  const { t } = useTranslation("dashboard");
  const signals = useTransitionQuery(dashboardQueries.signals());
  const summary = useMemo(
    () =>
      summarizeSignals(signals.data ?? [], {
        maxSymbols: SUMMARY_MAX_SYMBOLS,
        maxBadges: SUMMARY_MAX_BADGES,
      }),
    [signals.data],
  );

  return (
    <Card className="h-fit gap-4" aria-labelledby="signals-title">
      <CardHeader>
        <CardTitle id="signals-title" className="text-lg">
          <h2>{t("signals.title")}</h2>
        </CardTitle>
        <CardDescription>{t("signals.description")}</CardDescription>
        <SignalsExport rows={signals.data ?? []} />
      </CardHeader>
      <CardContent>
        {signals.isPending ? (
          <Spinner label={t("signals.loading")} />
        ) : signals.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {t("signals.failed")}
          </p>
        ) : summary.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t("signals.empty")}</p>
        ) : (
          <ul aria-label={t("signals.title")} className="flex flex-col divide-y">
            {summary.map((item) => (
              <li key={item.symbol} className="flex flex-col gap-1.5 py-2 first:pt-0 last:pb-0">
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate font-semibold">{item.symbol}</span>
                  <Badge variant="outline" className={cn(directionClass[item.direction])}>
                    {t(`signals.overall.${item.direction}`)}
                  </Badge>
                </div>
                <div className="flex flex-wrap items-center gap-1">
                  {item.badges.map((badge) => (
                    <Badge
                      key={badge.strategy}
                      variant="outline"
                      data-slot="strategy-badge"
                      className={signalClass(badge.signal)}
                    >
                      {badge.label}
                    </Badge>
                  ))}
                  <span className="ml-auto text-xs text-muted-foreground">
                    {t("signals.confidence", { value: item.avgConfidencePct })}
                  </span>
                </div>
              </li>
            ))}
          </ul>
        )}
        <Button asChild variant="link" size="sm" className="mt-3 h-auto px-0">
          <Link to={TRACK_RECORD_PATH}>
            <HistoryIcon aria-hidden="true" />
            {t("signals.trackRecordLink")}
          </Link>
        </Button>
      </CardContent>
    </Card>
  );
}
