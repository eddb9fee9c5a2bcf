import { type ExchangeSelection, selectionOf } from "@domain/market";
import type { MoverEntry } from "@domain/realtime";

export type Direction = "all" | "gains" | "losses";

/** Bounds of the minimum-percent input (spec section 5 and 9). */
export const MIN_PERCENT_MIN = 0;
export const MIN_PERCENT_MAX = 1000;
export const MIN_PERCENT_STEP = 5;

export type MoverFilters = {
  direction: Direction;
  /** Above 0 hides entries whose absolute percent is below it. */
  minPercent: number;
  /** The user's own threshold (`profiles.user_threshold`), applied the same way. */
  threshold: number;
  /**
   * The user's exchanges (`profiles.selected_exchanges`): entries of other venues are hidden.
   * Unlike the lists below, an empty list hides everything.
   */
  selectedExchanges: readonly ExchangeSelection[];
  /** Selected values; an empty list means all. */
  sources: readonly string[];
  networks: readonly string[];
  venues: readonly string[];
};

/** The minimum-percent field's text as a number: non-numeric becomes 0, clamped to 0–1000. */
export function parseMinPercent(raw: unknown): number {
  const value = typeof raw === "number" ? raw : Number.parseFloat(String(raw ?? ""));
  if (!Number.isFinite(value)) return 0;
  return Math.min(MIN_PERCENT_MAX, Math.max(MIN_PERCENT_MIN, value));
}

/**
 * The DEX a pool trades on: the exchange text without its "(network)" suffix, e.g.
 * "Uniswap V3 (ethereum)" → "Uniswap V3". CEX entries have none.
 */
export function venueOf(entry: Pick<MoverEntry, "exchange" | "exchange_type">): string | null {
  if (entry.exchange_type !== "dex") return null;
  const venue = entry.exchange.replace(/\s*\([^)]*\)\s*$/, "").trim();
  return venue === "" ? null : venue;
}

let collator: Intl.Collator | undefined;
/** `a.localeCompare(b)` with one collator for every call (each `localeCompare` makes its own). */
const compareText = (a: string, b: string) => (collator ??= new Intl.Collator()).compare(a, b);

function distinct(values: Iterable<string | null | undefined>): string[] {
  const set = new Set<string>();
  for (const value of values) if (value) set.add(value);
  return [...set].sort(compareText);
}

/** The values each filter can choose from, taken from the live list. */
export function filterOptions(entries: readonly MoverEntry[]) {
  return {
    sources: distinct(entries.map((entry) => entry.exchange_type)),
    networks: distinct(entries.map((entry) => entry.network)),
    venues: distinct(entries.map(venueOf)),
    /** Exchanges the entries come from (the live indicator's "sources"). */
    exchanges: distinct(entries.map((entry) => entry.exchange)),
  };
}

/** How many exchanges and networks the live list comes from (`filterOptions`' counts, unsorted). */
export function optionCounts(entries: readonly MoverEntry[]): {
  exchanges: number;
  networks: number;
} {
  const exchanges = new Set<string>();
  const networks = new Set<string>();
  for (const entry of entries) {
    if (entry.exchange) exchanges.add(entry.exchange);
    if (entry.network) networks.add(entry.network);
  }
  return { exchanges: exchanges.size, networks: networks.size };
}

/** Whether the entry's venue is one of the user's exchanges (`profiles.selected_exchanges`). */
export function inSelectedExchanges(
  entry: Pick<MoverEntry, "exchange" | "exchange_type" | "source">,
  selectedExchanges: readonly ExchangeSelection[],
): boolean {
  return selectedExchanges.includes(selectionOf(entry));
}

function matches(selected: readonly string[], value: string | null): boolean {
  return selected.length === 0 || (value !== null && selected.includes(value));
}

/** The entries the dashboard shows, in their order. */
export function filterMovers(entries: readonly MoverEntry[], filters: MoverFilters): MoverEntry[] {
  const { direction, minPercent, threshold, selectedExchanges, sources, networks, venues } =
    filters;
  return entries.filter((entry) => {
    if (direction === "gains" && !(entry.pct > 0)) return false;
    if (direction === "losses" && !(entry.pct < 0)) return false;
    const size = Math.abs(entry.pct);
    if (minPercent > 0 && size < minPercent) return false;
    if (threshold > 0 && size < threshold) return false;
    if (!inSelectedExchanges(entry, selectedExchanges)) return false;
    return (
      matches(sources, entry.exchange_type) &&
      matches(networks, entry.network) &&
      matches(venues, venueOf(entry))
    );
  });
}

/**
 * Why filters that hide every entry do so, and how many entries one click would bring back:
 * - `threshold`: the user's alert threshold (with the minimum, if that hides them too);
 * - `minPercent`: the dashboard's minimum percent alone;
 * - `filters`: the direction, source, network or DEX filters.
 * Only asked when `filterMovers` returned nothing while the user's exchanges have entries.
 */
export type EmptyReason =
  | { cause: "threshold"; hidden: number; alsoMinPercent: boolean }
  | { cause: "minPercent"; hidden: number }
  | { cause: "filters"; hidden: number };

export function explainEmpty(entries: readonly MoverEntry[], filters: MoverFilters): EmptyReason {
  const count = (changes: Partial<MoverFilters>) =>
    filterMovers(entries, { ...filters, ...changes }).length;
  const withoutThreshold = filters.threshold > 0 ? count({ threshold: 0 }) : 0;
  if (withoutThreshold > 0)
    return { cause: "threshold", hidden: withoutThreshold, alsoMinPercent: false };
  const withoutMinimum = filters.minPercent > 0 ? count({ minPercent: 0 }) : 0;
  if (withoutMinimum > 0) return { cause: "minPercent", hidden: withoutMinimum };
  const withoutEither = count({ threshold: 0, minPercent: 0 });
  if (withoutEither > 0)
    return { cause: "threshold", hidden: withoutEither, alsoMinPercent: filters.minPercent > 0 };
  return {
    cause: "filters",
    hidden: entries.filter((entry) => inSelectedExchanges(entry, filters.selectedExchanges)).length,
  };
}
