import { useCallback, useMemo } from "react";
import { create } from "zustand";
import { useUrlState } from "@/hooks/use-url-state";
import { readEnum, readList, readNumber } from "@/lib/url-state";
import type { MoverOrder } from "../utils/trust";
import {
  type Direction,
  MIN_PERCENT_MAX,
  MIN_PERCENT_MIN,
  parseMinPercent,
} from "../utils/filter-movers";

/**
 * Local-storage key of the dashboard's minimum percent (spec section 9 names one such key). The
 * address wins over it (decision 0045): `?min=` when set, else the stored value.
 */
export const MIN_PERCENT_STORAGE_KEY = "minPercent";

type FilterList = "sources" | "networks" | "venues";

/**
 * The dashboard's filters in the address (decision 0045): `dir`, `min`, `source`, `network`,
 * `dex`; issue 26's `thin=1` (show thin moves), `confirmed=1` (confirmed only), `group=0`
 * (one row per venue) and `sort=trust` (decision 0048). Defaults are left out; an invalid value
 * reads as the default.
 */
export const FILTER_PARAMS = {
  direction: "dir",
  minPercent: "min",
  sources: "source",
  networks: "network",
  venues: "dex",
  showThin: "thin",
  confirmedOnly: "confirmed",
  groupByAsset: "group",
  order: "sort",
} as const;

const DIRECTIONS: readonly Direction[] = ["all", "gains", "losses"];
const SWITCH = ["0", "1"] as const;
const ORDERS: readonly MoverOrder[] = ["rank", "trust"];

/** The trust switches (issue 26): thin moves hidden, all moves, grouped by asset. */
export type TrustSwitch = "showThin" | "confirmedOnly" | "groupByAsset";
const SWITCH_DEFAULTS: Record<TrustSwitch, boolean> = {
  showThin: false,
  confirmedOnly: false,
  groupByAsset: true,
};

export type DashboardFilters = {
  direction: Direction;
  minPercent: number;
  sources: string[];
  networks: string[];
  venues: string[];
  showThin: boolean;
  confirmedOnly: boolean;
  groupByAsset: boolean;
  order: MoverOrder;
};

function readSwitch(params: Pick<URLSearchParams, "get">, name: TrustSwitch): boolean {
  const fallback = SWITCH_DEFAULTS[name];
  return readEnum(params, FILTER_PARAMS[name], SWITCH, fallback ? "1" : "0") === "1";
}

/** The filters an address names; `storedMinPercent` when it names no valid minimum. */
export function parseDashboardFilters(
  params: Pick<URLSearchParams, "get">,
  storedMinPercent = 0,
): DashboardFilters {
  return {
    direction: readEnum(params, FILTER_PARAMS.direction, DIRECTIONS, "all"),
    minPercent: readNumber(
      params,
      FILTER_PARAMS.minPercent,
      { min: MIN_PERCENT_MIN, max: MIN_PERCENT_MAX },
      storedMinPercent,
    ),
    sources: readList(params, FILTER_PARAMS.sources),
    networks: readList(params, FILTER_PARAMS.networks),
    venues: readList(params, FILTER_PARAMS.venues),
    showThin: readSwitch(params, "showThin"),
    confirmedOnly: readSwitch(params, "confirmedOnly"),
    groupByAsset: readSwitch(params, "groupByAsset"),
    order: readEnum(params, FILTER_PARAMS.order, ORDERS, "rank"),
  };
}

const URL_DEFAULTS = {
  [FILTER_PARAMS.direction]: "all",
  [FILTER_PARAMS.minPercent]: 0,
  [FILTER_PARAMS.showThin]: "0",
  [FILTER_PARAMS.confirmedOnly]: "0",
  [FILTER_PARAMS.groupByAsset]: "1",
  [FILTER_PARAMS.order]: "rank",
};

function readStoredMinPercent(): number {
  try {
    return parseMinPercent(globalThis.localStorage?.getItem(MIN_PERCENT_STORAGE_KEY) ?? 0);
  } catch {
    return 0;
  }
}

function storeMinPercent(value: number): void {
  try {
    globalThis.localStorage?.setItem(MIN_PERCENT_STORAGE_KEY, String(value));
  } catch {
    // Storage may be unavailable (private mode, quota); the filter still works for the session.
  }
}

/**
 * "Show all" (the user's alert threshold hides nothing) lasts for the session, not the address;
 * the stored minimum is mirrored here so a page without `?min=` follows it at once.
 */
const useSessionStore = create<{ thresholdOff: boolean; storedMinPercent: number }>()(() => ({
  thresholdOff: false,
  storedMinPercent: readStoredMinPercent(),
}));

function useDashboardFilters(): DashboardFilters {
  const [params] = useUrlState();
  const stored = useSessionStore((state) => state.storedMinPercent);
  const key = params.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => parseDashboardFilters(params, stored), [key, stored]);
}

export const useDirection = () => useDashboardFilters().direction;
export const useMinPercent = () => useDashboardFilters().minPercent;
export const useSelection = (filter: FilterList) => useDashboardFilters()[filter];
export const useTrustSwitch = (name: TrustSwitch) => useDashboardFilters()[name];
export const useMoverOrder = () => useDashboardFilters().order;
export const useThresholdOff = () => useSessionStore((state) => state.thresholdOff);

/** Filter changes replace the history entry (decision 0045): Back does not undo keystrokes. */
export function useFilterActions() {
  const [, setParams] = useUrlState(URL_DEFAULTS);
  const setDirection = useCallback(
    (direction: Direction) => setParams({ [FILTER_PARAMS.direction]: direction }),
    [setParams],
  );
  /** Takes the field's text (or a number): non-numeric becomes 0; kept in the address and storage. */
  const setMinPercent = useCallback(
    (raw: unknown) => {
      const minPercent = parseMinPercent(raw);
      storeMinPercent(minPercent);
      useSessionStore.setState({ storedMinPercent: minPercent });
      setParams({ [FILTER_PARAMS.minPercent]: minPercent });
    },
    [setParams],
  );
  const setSelection = useCallback(
    (filter: FilterList, values: string[]) => setParams({ [FILTER_PARAMS[filter]]: values }),
    [setParams],
  );
  const setSwitch = useCallback(
    (name: TrustSwitch, on: boolean) => setParams({ [FILTER_PARAMS[name]]: on ? "1" : "0" }),
    [setParams],
  );
  const setOrder = useCallback(
    (order: MoverOrder) => setParams({ [FILTER_PARAMS.order]: order }),
    [setParams],
  );
  const setThresholdOff = useCallback(
    (thresholdOff: boolean) => useSessionStore.setState({ thresholdOff }),
    [],
  );
  /** Direction, source, network and DEX back to all (the minimum and threshold stay). */
  const clearSelections = useCallback(
    () =>
      setParams({
        [FILTER_PARAMS.direction]: null,
        [FILTER_PARAMS.sources]: null,
        [FILTER_PARAMS.networks]: null,
        [FILTER_PARAMS.venues]: null,
      }),
    [setParams],
  );
  return {
    setDirection,
    setMinPercent,
    setSelection,
    setSwitch,
    setOrder,
    setThresholdOff,
    clearSelections,
  };
}

/** "Show all" back off (tests, logout); the address filters go with the address. */
export function resetDashboardFilters(): void {
  useSessionStore.setState({ thresholdOff: false, storedMinPercent: readStoredMinPercent() });
}
