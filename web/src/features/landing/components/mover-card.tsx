import { formatClockTime, formatSignedPercent, isGain } from "@domain/format";
import { TrendingDownIcon, TrendingUpIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Price } from "@/components/price";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/lib/utils";
import type { MoverTeaser } from "../api/queries";

type MoverCardProps = {
  mover: MoverTeaser;
};

export function MoverCard({ mover }: MoverCardProps) {
  const { t, i18n } = useTranslation("landing");
  const locale = i18n.resolvedLanguage ?? "en";
  const gain = isGain(mover.pct);
  const date = new Date(mover.ts);
  const TrendIcon = gain ? TrendingUpIcon : TrendingDownIcon;

  return (
    <Card className="gap-3 py-4">
      <CardContent className="flex flex-col gap-3 px-4">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate text-lg font-semibold">{mover.symbol}</h3>
            <p className="truncate text-sm text-muted-foreground">{mover.exchange}</p>
          </div>
          <p
            className={cn(
              "flex shrink-0 items-center gap-1 font-mono text-lg font-semibold tabular-nums",
              gain ? "text-success" : "text-destructive",
            )}
          >
            <TrendIcon className="size-4" aria-hidden="true" />
            <span className="sr-only">{t("live.change")}: </span>
            {formatSignedPercent(mover.pct, locale)}
          </p>
        </div>
        <dl className="flex items-end justify-between gap-3 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">{t("live.price")}</dt>
            <dd>
              <Price value={mover.price} />
            </dd>
          </div>
          <div className="text-right">
            <dt className="text-xs text-muted-foreground">{t("live.time")}</dt>
            <dd className="font-mono text-muted-foreground tabular-nums">
              <time dateTime={Number.isNaN(date.getTime()) ? undefined : date.toISOString()}>
                {formatClockTime(date, locale)}
              </time>
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
