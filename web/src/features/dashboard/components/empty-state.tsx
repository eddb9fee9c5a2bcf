import { EyeIcon, FilterXIcon, RadarIcon, SlidersHorizontalIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useFilterActions } from "../stores/filters-store";
import type { EmptyReason } from "../utils/filter-movers";

/** Where the user chooses their exchanges (`profiles.selected_exchanges`). */
const SETTINGS_PATH = "/dashboard/settings";

/** No movers yet: the scanner runs, live data will arrive. */
export function EmptyState() {
  const { t } = useTranslation("dashboard");
  return (
    <Card
      role="status"
      className="items-center gap-2 border-dashed px-6 py-10 text-center text-muted-foreground"
    >
      <RadarIcon className="size-8" aria-hidden="true" />
      <p className="font-medium text-foreground">{t("empty.title")}</p>
      <p className="text-sm">{t("empty.waiting")}</p>
      <p className="flex items-center gap-2 text-xs">
        <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-success" />
        {t("empty.scanner")}
      </p>
    </Card>
  );
}

/**
 * There are entries, but none from the user's exchanges (`profiles.selected_exchanges`): say so
 * and lead to the settings, where the selection is made.
 */
export function ExchangesEmptyState({ noneSelected }: { noneSelected: boolean }) {
  const { t } = useTranslation("dashboard");
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-3 rounded-md border border-dashed p-6 text-center text-sm"
    >
      <p>{noneSelected ? t("empty.exchanges.none") : t("empty.exchanges.excluded")}</p>
      <Button asChild variant="outline" size="sm">
        <Link to={SETTINGS_PATH}>
          <SlidersHorizontalIcon aria-hidden="true" />
          {t("empty.exchanges.link")}
        </Link>
      </Button>
    </div>
  );
}

/**
 * Entries from the user's exchanges exist, but the filters hide them all: name the cause and
 * offer the way out in one click (show all, clear the minimum, reset the filters), and the
 * settings for the threshold.
 */
export function FilteredEmptyState({
  reason,
  threshold,
  minPercent,
}: {
  reason: EmptyReason;
  threshold: number;
  minPercent: number;
}) {
  const { t } = useTranslation("dashboard");
  const { setThresholdOff, setMinPercent, clearSelections } = useFilterActions();
  const message =
    reason.cause === "threshold"
      ? t(reason.alsoMinPercent ? "empty.belowLimits" : "empty.belowThreshold", {
          count: reason.hidden,
          threshold,
          min: minPercent,
        })
      : reason.cause === "minPercent"
        ? t("empty.belowMinimum", { count: reason.hidden, min: minPercent })
        : t("empty.hiddenByFilters", { count: reason.hidden });
  return (
    <div
      role="status"
      data-testid="filtered-empty"
      className="flex flex-col items-center gap-3 rounded-md border border-dashed p-6 text-center text-sm"
    >
      <p>{message}</p>
      <div className="flex flex-wrap justify-center gap-2">
        {reason.cause === "threshold" && (
          <>
            <Button
              type="button"
              size="sm"
              onClick={() => {
                setThresholdOff(true);
                if (reason.alsoMinPercent) setMinPercent(0);
              }}
            >
              <EyeIcon aria-hidden="true" />
              {t("empty.showAll")}
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to={SETTINGS_PATH}>
                <SlidersHorizontalIcon aria-hidden="true" />
                {t("empty.changeThreshold")}
              </Link>
            </Button>
          </>
        )}
        {reason.cause === "minPercent" && (
          <Button type="button" size="sm" onClick={() => setMinPercent(0)}>
            <FilterXIcon aria-hidden="true" />
            {t("empty.clearMinimum")}
          </Button>
        )}
        {reason.cause === "filters" && (
          <Button type="button" size="sm" onClick={clearSelections}>
            <FilterXIcon aria-hidden="true" />
            {t("empty.resetFilters")}
          </Button>
        )}
      </div>
    </div>
  );
}

/** While "Show all" is on: say that the threshold is off, and turn it back on in one click. */
export function ThresholdOffNote({ threshold }: { threshold: number }) {
  const { t } = useTranslation("dashboard");
  const { setThresholdOff } = useFilterActions();
  return (
    <div
      role="note"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-dashed px-3 py-2 text-sm"
    >
      <span>{t("thresholdOff.note", { threshold })}</span>
      <Button type="button" variant="outline" size="sm" onClick={() => setThresholdOff(false)}>
        {t("thresholdOff.apply")}
      </Button>
    </div>
  );
}
