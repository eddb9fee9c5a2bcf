import { confirmedTime, isQuoteStale, type VenueConfirmation } from "@domain/quote-age";
import { formatSignedPercent } from "@domain/format";
import { quoteTime } from "@domain/realtime";
import type { Sparkline as SparklineData } from "../api/queries";
import { CornerDownRightIcon, LineChartIcon } from "lucide-react";
import { Fragment, memo } from "react";
import { useTranslation } from "react-i18next";
import { useFixedT } from "@/i18n/use-fixed-t";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { formatQuoteAge, formatWindowShort } from "../utils/format-market";
import { type MoverGroup, type MoverOrder, type TrustEntry, trustOf } from "../utils/trust";
import { BuyLink } from "./buy-link";
import { LiquidityText } from "./liquidity-text";
import { PercentText } from "./percent-text";
import { PriceText } from "./price-text";
import { ROW_ATTRIBUTE, ROW_FOCUS_ATTRIBUTE } from "../hooks/use-dashboard-shortcuts";
import { clockNow, QUOTE_AGE_REFRESH_MS, useClock, useClockText } from "../hooks/use-now";
import type { VenueConfirmations } from "../hooks/use-venue-confirmations";
import { RowSparkline, SparklinesContext } from "./sparkline";
import { StaleMark } from "./stale-mark";
import { TrustBadge } from "./trust-badge";
import { TrustNotes } from "./trust-notes";
import { VenuesToggle } from "./venues-toggle";

type MoversTableProps = {
  /** The rows grouped by asset (or one per row), in the order shown. */
  groups: readonly MoverGroup[];
  /** Assets whose other venues are open. */
  expanded: ReadonlySet<string>;
  onToggle: (asset: string) => void;
  order: MoverOrder;
  windowMinutes: number;
  onAnalyse: (entry: TrustEntry) => void;
  /** Each instrument's last 30 minutes (`movers_sparklines`), by instrument id. */
  sparklines?: ReadonlyMap<number, SparklineData>;
  /** The row the j/k shortcuts selected (its instrument id), marked and kept in view. */
  selectedId?: number | null;
  /** Each venue's confirmed-through time (decision 0079): unchanged quotes age from it. */
  confirmations?: VenueConfirmations;
};

/**
 * Columns that need room, by the table's own width (a container query: the signals panel beside
 * it takes 20rem from 1280 px on). The sparkline from 56rem (the 1280 px layout has 56.4rem), the
 * 3-hour price from 72rem; the Analysis button's word from 68rem and the Buy button's from 64rem
 * (their icons and accessible names always). While a button shows only its icon, its column's
 * header is read by screen readers only, and below 64rem the cells' padding narrows: a header
 * word such as "KAUFEN" or "ANÁLISIS" is wider than the icon and pushed the last column out of
 * the 1280 px layout in German, French and Spanish (the table's least width must stay below
 * 56.4rem in all four languages; tests/e2e/layout.spec.ts). For the same reason the venue's name
 * is cut at 6rem there (full name on hover) and long header words carry soft hyphens in the
 * locale files ("Daten-alter").
 */
const SPARKLINE_COLUMN = "hidden @min-[56rem]:table-cell";
const ANALYSIS_LABEL = "hidden @min-[68rem]:inline";
const PRICE_3H_COLUMN = "hidden @min-[72rem]:table-cell";
const ANALYSIS_HEADER = "sr-only @min-[68rem]:not-sr-only";
const BUY_LABEL = "hidden @min-[64rem]:inline";
const BUY_HEADER = "sr-only @min-[64rem]:not-sr-only";
const CELL = "px-1 py-2 @min-[64rem]:px-1.5";

/** A symbol that may wrap after its slash ("PEOPLE/" "USDT"), never inside a name. */
function SymbolText({ symbol }: { symbol: string }) {
  const slash = symbol.indexOf("/");
  if (slash < 0) return symbol;
  return (
    <>
      {symbol.slice(0, slash + 1)}
      <wbr />
      {symbol.slice(slash + 1)}
    </>
  );
}

/** The id of a venue row behind its group's expander (the expander controls these). */
export const venueRowId = (instrumentId: number) => `mover-venue-${instrumentId}`;

/** One mover as a table row or a phone card (mover-cards.tsx, which has no selection). */
export type MoverRowProps = {
  entry: TrustEntry;
  /** The group's lead when this row is one of its other venues, else null. */
  lead: TrustEntry | null;
  asset: string;
  /** The other venues' row (or card) ids (the expander controls them); "" when there are none. */
  othersIds: string;
  othersCount: number;
  open: boolean;
  selected: boolean;
  windowMinutes: number;
  onAnalyse: (entry: TrustEntry) => void;
  onToggle: (asset: string) => void;
  /** The row's venue's confirmation (decision 0079), null when it confirms nothing. */
  confirmation: VenueConfirmation | null;
};

/**
 * A quote's age, counted in seconds: its text follows the clock without a render (decision
 * 0106); the row renders again only when its quote turns stale.
 */
export function QuoteAge({ quotedAt }: { quotedAt: string }) {
  const { t } = useFixedT("dashboard");
  const then = Date.parse(quotedAt);
  const format = (now: number) => formatQuoteAge(t, then, now);
  const ref = useClockText<HTMLTimeElement>(format, QUOTE_AGE_REFRESH_MS);
  return (
    <time ref={ref} dateTime={quotedAt}>
      {format(clockNow(QUOTE_AGE_REFRESH_MS))}
    </time>
  );
}

/**
 * One row, memoised on its own props (the entry object, which a scan replaces only for the
 * instruments it moved): a live update re-renders the rows that changed, not the table, and the
 * clock re-renders a row only when its quote turns stale (decision 0065).
 */
const MoverRow = memo(function MoverRow({
  entry,
  lead,
  asset,
  othersIds,
  othersCount,
  open,
  selected,
  windowMinutes,
  onAnalyse,
  onToggle,
  confirmation,
}: MoverRowProps) {
  const { t, locale } = useFixedT("dashboard");
  const quotedAt = quoteTime(entry);
  // The data age and the stale mark count from the time the venue confirmed the price through:
  // the quote's own time, or its venue's confirmation while the quote is unchanged.
  const confirmedAt = confirmedTime(entry, confirmation);
  const stale = useClock((now) => isQuoteStale(confirmedAt, windowMinutes, now));
  const trust = trustOf(entry);
  return (
    <tr
      id={lead ? venueRowId(entry.instrument_id) : undefined}
      {...{ [ROW_ATTRIBUTE]: entry.instrument_id }}
      aria-current={selected ? "true" : undefined}
      // The quote's venue time: `npm run bench` measures how old a quote is when rendered.
      data-ts={quotedAt}
      data-confirmed-at={confirmedAt}
      data-stale={stale ? "true" : undefined}
      data-venue-of={lead ? asset : undefined}
      className={cn(
        "scroll-my-16 border-t align-top hover:bg-muted/30",
        lead && "bg-muted/20",
        stale && "text-muted-foreground",
        selected && "bg-muted/60 outline-2 -outline-offset-2 outline-ring",
      )}
    >
      <th scope="row" className={cn(CELL, "text-left font-semibold")}>
        <span className="flex items-start gap-1">
          {lead && (
            <CornerDownRightIcon
              className="mt-0.5 size-3.5 shrink-0 text-muted-foreground"
              aria-hidden="true"
            />
          )}
          <button
            type="button"
            {...{ [ROW_FOCUS_ATTRIBUTE]: "" }}
            className="rounded-sm text-left underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
            onClick={() => onAnalyse(entry)}
          >
            <SymbolText symbol={entry.symbol} />
          </button>
        </span>
      </th>
      <td className={cn(CELL, "text-right")}>
        <PercentText pct={entry.pct} />
      </td>
      <td className={cn(CELL, SPARKLINE_COLUMN)}>
        <RowSparkline instrumentId={entry.instrument_id} live={entry} pct={entry.pct} />
      </td>
      <td className={cn(CELL, PRICE_3H_COLUMN, "text-right")}>
        <PriceText price={entry.price_3hour_ago} />
      </td>
      <td className={cn(CELL, "text-right")}>
        <PriceText price={entry.price} />
        {lead && lead.price > 0 && (
          <span className="block text-xs font-normal text-muted-foreground">
            {t("trust.priceGap", {
              diff: formatSignedPercent(((entry.price - lead.price) / lead.price) * 100, locale),
              venue: lead.exchange,
            })}
          </span>
        )}
      </td>
      <td className={cn(CELL, "max-w-24 text-muted-foreground @min-[64rem]:max-w-32")}>
        <span className="block truncate" title={entry.exchange}>
          {entry.exchange}
        </span>
        {trust.pool_name && (
          <span className="block truncate text-xs" title={trust.pool_name}>
            {trust.pool_name}
          </span>
        )}
        {!lead && othersCount > 0 && (
          <VenuesToggle
            asset={asset}
            count={othersCount}
            expanded={open}
            controls={othersIds}
            onToggle={() => onToggle(asset)}
          />
        )}
      </td>
      <td className={CELL}>
        <LiquidityText entry={entry} />
      </td>
      <td className={CELL}>
        <span className="flex max-w-32 flex-col items-start gap-0.5">
          <TrustBadge entry={entry} />
          <TrustNotes entry={entry} />
        </span>
      </td>
      <td className={cn(CELL, "text-muted-foreground")} data-testid="data-age">
        <QuoteAge quotedAt={confirmedAt} />
        {stale ? (
          <StaleMark
            label={t("table.stale")}
            hint={t("table.staleHint", { window: formatWindowShort(t, windowMinutes) })}
          />
        ) : null}
      </td>
      <td className={CELL}>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          aria-label={t("table.openAnalysis", { symbol: entry.symbol })}
          onClick={() => onAnalyse(entry)}
        >
          <LineChartIcon aria-hidden="true" />
          <span className={ANALYSIS_LABEL}>{t("table.analysis")}</span>
        </Button>
      </td>
      <td className={CELL}>
        <BuyLink entry={entry} labelClassName={BUY_LABEL} />
      </td>
    </tr>
  );
});

/**
 * The desktop list: one row per asset (its most liquid venue) with the others behind "+N venues",
 * or one row per venue. Shown from 1024 px (cards below); columns drop by the table's width
 * (decision 0048).
 */
export function MoversTable({
  groups,
  expanded,
  onToggle,
  order,
  windowMinutes,
  onAnalyse,
  sparklines,
  selectedId = null,
  confirmations,
}: MoversTableProps) {
  const { t } = useTranslation("dashboard");
  const head =
    "px-1 py-2 text-left text-xs font-medium text-muted-foreground uppercase @min-[64rem]:px-1.5";

  const row = (entry: TrustEntry, lead: TrustEntry | null, group: MoverGroup) => (
    <MoverRow
      key={entry.instrument_id}
      entry={entry}
      lead={lead}
      asset={group.asset}
      othersIds={lead ? "" : group.others.map((other) => venueRowId(other.instrument_id)).join(" ")}
      othersCount={lead ? 0 : group.others.length}
      open={!lead && expanded.has(group.asset)}
      selected={entry.instrument_id === selectedId}
      windowMinutes={windowMinutes}
      onAnalyse={onAnalyse}
      onToggle={onToggle}
      confirmation={confirmations?.get(entry.source) ?? null}
    />
  );

  return (
    <div className="@container overflow-x-auto rounded-lg border">
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
            <th scope="col" className={cn(head, SPARKLINE_COLUMN)}>
              {t("table.sparklineHeader")}
            </th>
            <th scope="col" className={cn(head, PRICE_3H_COLUMN, "text-right")}>
              {t("table.price3h")}
            </th>
            <th scope="col" className={`${head} text-right`}>
              {t("table.priceLive")}
            </th>
            <th scope="col" className={head}>
              {t("table.exchange")}
            </th>
            <th scope="col" className={head}>
              {t("trust.liquidityHeader")}
            </th>
            <th
              scope="col"
              className={head}
              aria-sort={order === "trust" ? "descending" : undefined}
            >
              {t("trust.trustHeader")}
            </th>
            <th scope="col" className={head}>
              {t("table.dataAge")}
            </th>
            <th scope="col" className={head}>
              <span className={ANALYSIS_HEADER}>{t("table.analysis")}</span>
            </th>
            <th scope="col" className={head}>
              <span className={BUY_HEADER}>{t("table.buy")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          <SparklinesContext value={sparklines}>
            {groups.map((group) => (
              <Fragment key={group.lead.instrument_id}>
                {row(group.lead, null, group)}
                {expanded.has(group.asset) &&
                  group.others.map((other) => row(other, group.lead, group))}
              </Fragment>
            ))}
          </SparklinesContext>
        </tbody>
      </table>
    </div>
  );
}
