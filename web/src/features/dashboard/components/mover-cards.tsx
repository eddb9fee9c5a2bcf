import { confirmedTime, isQuoteStale } from "@domain/quote-age";
import { formatSignedPercent } from "@domain/format";
import type { Sparkline as SparklineData } from "../api/queries";
import { CornerDownRightIcon, LineChartIcon } from "lucide-react";
import { memo } from "react";
import { useTranslation } from "react-i18next";
import { useFixedT } from "@/i18n/use-fixed-t";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { formatWindowShort } from "../utils/format-market";
import { type MoverRowProps, QuoteAge } from "./movers-table";
import { BuyLink } from "./buy-link";
import { PercentText } from "./percent-text";
import { PriceText } from "./price-text";
import { useClock } from "../hooks/use-now";
import type { VenueConfirmations } from "../hooks/use-venue-confirmations";
import { ROW_ATTRIBUTE, ROW_FOCUS_ATTRIBUTE } from "../hooks/use-dashboard-shortcuts";
import { RowSparkline, SparklinesContext } from "./sparkline";
import { StaleMark } from "./stale-mark";
import { cn } from "@/lib/utils";
import { type MoverGroup, type TrustEntry, trustOf } from "../utils/trust";
import { LiquidityText } from "./liquidity-text";
import { TrustBadge } from "./trust-badge";
import { TrustNotes } from "./trust-notes";
import { VenuesToggle } from "./venues-toggle";

/** The id of a venue card behind its group's expander. */
const venueCardId = (instrumentId: number) => `mover-venue-card-${instrumentId}`;

type MoverCardsProps = {
  /** The groups shown (grouped by asset, or one per row), in order. */
  groups: readonly MoverGroup[];
  /** Assets whose other venues are open. */
  expanded: ReadonlySet<string>;
  onToggle: (asset: string) => void;
  windowMinutes: number;
  onAnalyse: (entry: TrustEntry) => void;
  /** Each instrument's last 30 minutes (`movers_sparklines`), by instrument id. */
  sparklines?: ReadonlyMap<number, SparklineData>;
  /** Each venue's confirmed-through time (decision 0079): unchanged quotes age from it. */
  confirmations?: VenueConfirmations;
};

type MoverCardProps = Omit<MoverRowProps, "selected">;

/** One card, memoised like the table's rows: a live update re-renders the cards that changed. */
const MoverCard = memo(function MoverCard({
  entry,
  lead,
  asset,
  othersIds,
  othersCount,
  open,
  windowMinutes,
  onAnalyse,
  onToggle,
  confirmation,
}: MoverCardProps) {
  const { t, locale } = useFixedT("dashboard");
  // As the table's rows: the data age counts from the venue's confirmation (decision 0079).
  const confirmedAt = confirmedTime(entry, confirmation);
  const stale = useClock((now) => isQuoteStale(confirmedAt, windowMinutes, now));
  const trust = trustOf(entry);
  return (
    <li
      id={lead ? venueCardId(entry.instrument_id) : undefined}
      // j/k find the visible row: below 1024 px that is the card.
      {...{ [ROW_ATTRIBUTE]: entry.instrument_id }}
      // Cards below the screen are not laid out or painted until they come near it (their
      // height held by an estimate, then by the size they last had): the rows' arrival lays out
      // the first screen, not twenty cards (decision 0095).
      className="scroll-my-16 [contain-intrinsic-size:auto_14rem] [content-visibility:auto]"
    >
      <Card className={cn("gap-3 px-4 py-3", lead && "ml-4 bg-muted/30")}>
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <div className="flex items-center gap-1">
              {lead && (
                <CornerDownRightIcon
                  className="size-3.5 shrink-0 text-muted-foreground"
                  aria-hidden="true"
                />
              )}
              <button
                type="button"
                {...{ [ROW_FOCUS_ATTRIBUTE]: "" }}
                className="truncate text-left text-base font-semibold underline-offset-4 hover:underline"
                onClick={() => onAnalyse(entry)}
              >
                {entry.symbol}
              </button>
            </div>
            <p className="truncate text-xs text-muted-foreground">
              {trust.pool_name ? `${entry.exchange} · ${trust.pool_name}` : entry.exchange}
            </p>
            {!lead && othersCount > 0 && (
              <VenuesToggle
                asset={asset}
                count={othersCount}
                expanded={open}
                controls={othersIds}
                onToggle={() => onToggle(asset)}
              />
            )}
          </div>
          <div className="flex shrink-0 items-center gap-2">
            <RowSparkline instrumentId={entry.instrument_id} live={entry} pct={entry.pct} />
            <PercentText pct={entry.pct} className="text-lg" />
          </div>
        </div>
        <div className="flex items-start justify-between gap-3">
          <LiquidityText entry={entry} />
          <span className="flex flex-col items-end gap-0.5 text-right">
            <TrustBadge entry={entry} />
            <TrustNotes entry={entry} />
          </span>
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
              {lead && lead.price > 0 && (
                <span className="block text-muted-foreground">
                  {t("trust.priceGap", {
                    diff: formatSignedPercent(
                      ((entry.price - lead.price) / lead.price) * 100,
                      locale,
                    ),
                    venue: lead.exchange,
                  })}
                </span>
              )}
            </dd>
          </div>
          <div className="text-right">
            <dt className="text-muted-foreground">{t("table.dataAge")}</dt>
            <dd data-testid="data-age">
              <QuoteAge quotedAt={confirmedAt} />
              {stale ? (
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
  );
});

/** The phone list: one card per asset (its other venues behind "+N venues") or per venue. */
export function MoverCards({
  groups,
  expanded,
  onToggle,
  windowMinutes,
  onAnalyse,
  sparklines,
  confirmations,
}: MoverCardsProps) {
  const { t } = useTranslation("dashboard");
  const card = (entry: TrustEntry, lead: TrustEntry | null, group: MoverGroup) => (
    <MoverCard
      key={entry.instrument_id}
      entry={entry}
      lead={lead}
      asset={group.asset}
      othersIds={
        lead ? "" : group.others.map((other) => venueCardId(other.instrument_id)).join(" ")
      }
      othersCount={lead ? 0 : group.others.length}
      open={!lead && expanded.has(group.asset)}
      windowMinutes={windowMinutes}
      onAnalyse={onAnalyse}
      onToggle={onToggle}
      confirmation={confirmations?.get(entry.source) ?? null}
    />
  );
  return (
    <ul aria-label={t("table.caption")} className="flex flex-col gap-3 md:grid md:grid-cols-2">
      <SparklinesContext value={sparklines}>
        {groups.flatMap((group) => [
          card(group.lead, null, group),
          ...(expanded.has(group.asset) ? group.others.map((o) => card(o, group.lead, group)) : []),
        ])}
      </SparklinesContext>
    </ul>
  );
}
