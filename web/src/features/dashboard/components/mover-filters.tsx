import { EXCHANGE_SELECTIONS, type ExchangeSelection } from "@domain/market";
import type { MoverEntry } from "@domain/realtime";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { EXCHANGE_LABEL_KEYS } from "@/lib/exchange-selection";
import {
  type TrustSwitch,
  useDirection,
  useFilterActions,
  useMinPercent,
  useSelection,
  useTrustSwitch,
} from "../stores/filters-store";
import {
  type Direction,
  filterOptions,
  MIN_PERCENT_MAX,
  MIN_PERCENT_MIN,
  MIN_PERCENT_STEP,
} from "../utils/filter-movers";
import { OptionFilter } from "./option-filter";
import { OrderToggle } from "./order-toggle";
import { MIN_PERCENT_TARGET } from "../hooks/use-dashboard-shortcuts";

const DIRECTIONS: readonly Direction[] = ["all", "gains", "losses"];
const SWITCHES: readonly TrustSwitch[] = ["showThin", "confirmedOnly", "groupByAsset"];

/** One of issue 26's switches as a labelled checkbox (kept in the address). */
function TrustSwitchBox({ name }: { name: TrustSwitch }) {
  const { t } = useTranslation("dashboard");
  const on = useTrustSwitch(name);
  const actions = useFilterActions();
  return (
    <label className="flex min-h-8 cursor-pointer items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={on}
        onChange={(event) => actions.setSwitch(name, event.target.checked)}
        className="size-4 accent-primary"
      />
      {t(`trust.switches.${name}`)}
    </label>
  );
}

type MoverFiltersProps = {
  entries: readonly MoverEntry[];
  /** The user's own threshold in percent (`profiles.user_threshold`). */
  threshold: number;
  /** The user's exchanges (`profiles.selected_exchanges`). */
  selectedExchanges: readonly ExchangeSelection[];
};

/** Minimum percent, direction, and the source / network / DEX filters of the live list. */
export function MoverFilters({ entries, threshold, selectedExchanges }: MoverFiltersProps) {
  const { t, i18n } = useTranslation("dashboard");
  const minPercentId = useId();
  const direction = useDirection();
  const minPercent = useMinPercent();
  const sources = useSelection("sources");
  const networks = useSelection("networks");
  const venues = useSelection("venues");
  const actions = useFilterActions();
  const options = useMemo(() => filterOptions(entries), [entries]);
  // The field keeps what is typed ("" or "1e"), the filter the parsed number.
  const [draft, setDraft] = useState<string | null>(null);
  // Named only when some are left out (all three is the default; none has its own empty state).
  const someExchanges =
    selectedExchanges.length > 0 && selectedExchanges.length < EXCHANGE_SELECTIONS.length
      ? new Intl.ListFormat(i18n.language, { style: "long", type: "conjunction" }).format(
          selectedExchanges.map((value) => t(`exchanges.${EXCHANGE_LABEL_KEYS[value]}`)),
        )
      : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={minPercentId} className="text-sm font-medium">
            {t("filters.minPercent")}
          </label>
          <Input
            id={minPercentId}
            data-shortcut-target={MIN_PERCENT_TARGET}
            type="number"
            inputMode="decimal"
            min={MIN_PERCENT_MIN}
            max={MIN_PERCENT_MAX}
            step={MIN_PERCENT_STEP}
            value={draft ?? String(minPercent)}
            aria-describedby={`${minPercentId}-hint`}
            onChange={(event) => {
              setDraft(event.target.value);
              actions.setMinPercent(event.target.value);
            }}
            onBlur={() => setDraft(null)}
            className="w-28"
          />
        </div>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
          {SWITCHES.map((name) => (
            <TrustSwitchBox key={name} name={name} />
          ))}
        </div>
        <div role="group" aria-label={t("filters.direction")} className="flex gap-1">
          {DIRECTIONS.map((value) => (
            <Button
              key={value}
              type="button"
              size="sm"
              variant={direction === value ? "default" : "outline"}
              aria-pressed={direction === value}
              onClick={() => actions.setDirection(value)}
            >
              {t(`filters.${value}`)}
            </Button>
          ))}
        </div>
      </div>
      <p id={`${minPercentId}-hint`} className="text-xs text-muted-foreground">
        {t("filters.minPercentHint")} {threshold > 0 && t("filters.thresholdHint", { threshold })}{" "}
        {someExchanges !== null && t("filters.exchangesHint", { exchanges: someExchanges })}
      </p>
      {/* Wider screens have it above the list. */}
      <OrderToggle className="flex md:hidden" />
      <div className="flex flex-wrap items-start gap-4">
        <OptionFilter
          label={t("filters.source")}
          options={options.sources.map((value) => ({
            value,
            label: value === "cex" || value === "dex" ? t(`filters.sources.${value}`) : value,
          }))}
          selected={sources}
          onChange={(values) => actions.setSelection("sources", values)}
        />
        <OptionFilter
          label={t("filters.network")}
          options={options.networks.map((value) => ({ value, label: value }))}
          selected={networks}
          onChange={(values) => actions.setSelection("networks", values)}
        />
        <OptionFilter
          label={t("filters.venue")}
          options={options.venues.map((value) => ({ value, label: value }))}
          selected={venues}
          onChange={(values) => actions.setSelection("venues", values)}
        />
      </div>
    </div>
  );
}
