import { create } from "zustand";
import { type Direction, parseMinPercent } from "../utils/filter-movers";

/**
 * Local-storage key of the dashboard's minimum percent (spec section 9 names one such key; the
 * other filters last for the session only).
 */
export const MIN_PERCENT_STORAGE_KEY = "minPercent";

type FilterList = "sources" | "networks" | "venues";

type FiltersState = {
  direction: Direction;
  minPercent: number;
  /** "Show all": the user's alert threshold hides nothing, for this session. */
  thresholdOff: boolean;
  sources: string[];
  networks: string[];
  venues: string[];
  actions: {
    setDirection: (direction: Direction) => void;
    /** Takes the field's text (or a number): non-numeric becomes 0; persisted. */
    setMinPercent: (raw: unknown) => void;
    setSelection: (filter: FilterList, values: string[]) => void;
    setThresholdOff: (off: boolean) => void;
    /** Direction, source, network and DEX back to all (the minimum and threshold stay). */
    clearSelections: () => void;
    reset: () => void;
  };
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

const initialSelections = () => ({
  direction: "all" as Direction,
  sources: [] as string[],
  networks: [] as string[],
  venues: [] as string[],
  thresholdOff: false,
});

const useFiltersStore = create<FiltersState>()((set) => ({
  ...initialSelections(),
  minPercent: readStoredMinPercent(),
  actions: {
    setDirection: (direction) => set({ direction }),
    setMinPercent: (raw) => {
      const minPercent = parseMinPercent(raw);
      storeMinPercent(minPercent);
      set({ minPercent });
    },
    setSelection: (filter, values) => set({ [filter]: values }),
    setThresholdOff: (thresholdOff) => set({ thresholdOff }),
    clearSelections: () => set({ direction: "all", sources: [], networks: [], venues: [] }),
    reset: () => set({ ...initialSelections(), minPercent: readStoredMinPercent() }),
  },
}));

export const useDirection = () => useFiltersStore((state) => state.direction);
export const useMinPercent = () => useFiltersStore((state) => state.minPercent);
export const useThresholdOff = () => useFiltersStore((state) => state.thresholdOff);
export const useSelection = (filter: FilterList) => useFiltersStore((state) => state[filter]);
export const useFilterActions = () => useFiltersStore((state) => state.actions);

/** Back to the defaults, the minimum percent re-read from storage (tests, logout). */
export function resetDashboardFilters(): void {
  useFiltersStore.getState().actions.reset();
}
