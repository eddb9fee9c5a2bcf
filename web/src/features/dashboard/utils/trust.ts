import {
  isMoverFlag,
  type MoverEntry,
  type MoverFlag,
  type MoverTrustFields,
} from "@domain/realtime";

/**
 * Issue 26's fields on every mover row (contract-26, decision 0046: `movers_feed`, the movers
 * broadcast, `MoverEntry`). Read through `trustOf`, which also copes with a row from an older
 * server or a malformed broadcast, so the list never breaks on a missing field.
 */
export type { MoverFlag };

/** Each flag's key in the locale files (camelCase, like every key there). */
export const FLAG_KEYS = {
  no_volume_rise: "noVolumeRise",
  young_pool: "youngPool",
  pulled_pool: "pulledPool",
  dex_cex_gap: "dexCexGap",
  wash_volume: "washVolume",
} as const satisfies Record<MoverFlag, string>;
export type TrustFields = MoverTrustFields;

/** A mover row as the dashboard shows it. */
export type TrustEntry = MoverEntry;

function finite(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * A row's trust fields, read defensively: a missing list is empty, a missing figure null, a
 * missing score `null` (no badge), a missing asset the row's own instrument (no grouping).
 */
export function trustOf(entry: Partial<TrustFields> & Pick<MoverEntry, "instrument_id">): Omit<
  TrustFields,
  "trust_score"
> & {
  trust_score: number | null;
} {
  const score = finite(entry.trust_score);
  return {
    volume_24h_usd: finite(entry.volume_24h_usd),
    liquidity_usd: finite(entry.liquidity_usd),
    spread_pct: finite(entry.spread_pct),
    thin: entry.thin === true,
    confirmed_on: Array.isArray(entry.confirmed_on)
      ? entry.confirmed_on.filter((venue) => typeof venue === "string")
      : [],
    flags: Array.isArray(entry.flags) ? entry.flags.filter(isMoverFlag) : [],
    trust_score: score === null ? null : Math.min(100, Math.max(0, Math.round(score))),
    asset:
      typeof entry.asset === "string" && entry.asset !== ""
        ? entry.asset
        : `#${entry.instrument_id}`,
    pool_name:
      typeof entry.pool_name === "string" && entry.pool_name !== "" ? entry.pool_name : null,
  };
}

export type TrustFilters = {
  /** Off (the default) hides thin moves; how many it hides is reported, never silent. */
  showThin: boolean;
  /** Only moves confirmed on at least one other venue. */
  confirmedOnly: boolean;
};

/** The rows the trust filters keep, in their order, and how many thin rows were hidden. */
export function applyTrustFilters<T extends TrustEntry>(
  entries: readonly T[],
  { showThin, confirmedOnly }: TrustFilters,
): { kept: T[]; hiddenThin: number; hiddenUnconfirmed: number } {
  const kept: T[] = [];
  let hiddenThin = 0;
  let hiddenUnconfirmed = 0;
  for (const entry of entries) {
    const trust = trustOf(entry);
    if (!showThin && trust.thin) hiddenThin += 1;
    else if (confirmedOnly && trust.confirmed_on.length === 0) hiddenUnconfirmed += 1;
    else kept.push(entry);
  }
  return { kept, hiddenThin, hiddenUnconfirmed };
}

/** One asset's rows: the most liquid venue's row leads, the others sit behind an expander. */
export type MoverGroup<T extends TrustEntry = TrustEntry> = {
  asset: string;
  lead: T;
  others: T[];
};

/** How much can be traded where: pool liquidity first, else 24 h volume; unknown last. */
function depth(entry: TrustEntry): [number, number] {
  const trust = trustOf(entry);
  return [trust.liquidity_usd ?? -1, trust.volume_24h_usd ?? -1];
}

function deeper(a: TrustEntry, b: TrustEntry): boolean {
  const [liquidityA, volumeA] = depth(a);
  const [liquidityB, volumeB] = depth(b);
  if (liquidityA !== liquidityB) return liquidityA > liquidityB;
  return volumeA > volumeB;
}

/**
 * Rows of the same `asset` as one group each, placed where the asset's best-ranked row stood (the
 * server's order is kept between groups). The lead is the row with the highest liquidity (else
 * 24 h volume; a tie keeps the better-ranked row); the others follow in their ranked order.
 * With `enabled` false every row is its own group.
 */
export function groupByAsset<T extends TrustEntry>(
  entries: readonly T[],
  enabled = true,
): MoverGroup<T>[] {
  if (!enabled) {
    return entries.map((entry) => ({ asset: trustOf(entry).asset, lead: entry, others: [] }));
  }
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const asset = trustOf(entry).asset;
    const rows = groups.get(asset);
    if (rows) rows.push(entry);
    else groups.set(asset, [entry]);
  }
  return [...groups].map(([asset, rows]) => {
    const lead = rows.reduce((best, row) => (deeper(row, best) ? row : best));
    return { asset, lead, others: rows.filter((row) => row !== lead) };
  });
}

export type MoverOrder = "rank" | "trust";

/**
 * Groups in the order chosen: `rank` keeps the server's ranking; `trust` puts the highest trust
 * score first (rows without a score last), ties keeping their ranked order.
 */
export function sortGroups<T extends TrustEntry>(
  groups: readonly MoverGroup<T>[],
  order: MoverOrder,
): MoverGroup<T>[] {
  if (order === "rank") return [...groups];
  const score = (group: MoverGroup<T>) => trustOf(group.lead).trust_score ?? -1;
  return groups
    .map((group, index) => ({ group, index }))
    .sort((a, b) => score(b.group) - score(a.group) || a.index - b.index)
    .map(({ group }) => group);
}

/** The rows on screen, top to bottom: each lead, then its venues when its group is open. */
export function visibleRows<T extends TrustEntry>(
  groups: readonly MoverGroup<T>[],
  expanded: ReadonlySet<string>,
): T[] {
  return groups.flatMap((group) =>
    expanded.has(group.asset) ? [group.lead, ...group.others] : [group.lead],
  );
}

/** One reason behind a trust score, as a translation key and its values. */
export type TrustReason =
  | { kind: "flag"; flag: MoverFlag }
  | { kind: "thin" }
  | { kind: "confirmed"; venues: string[] }
  | { kind: "unconfirmed" }
  | { kind: "liquidity"; usd: number }
  | { kind: "volume"; usd: number };

/**
 * Why a row has its score, worst first: each flag, thinness, then the confirmation (or its
 * absence), then the depth that was measured (pool liquidity, else 24 h volume).
 */
export function trustReasons(entry: TrustEntry): TrustReason[] {
  const trust = trustOf(entry);
  const reasons: TrustReason[] = trust.flags.map((flag) => ({ kind: "flag", flag }));
  if (trust.thin) reasons.push({ kind: "thin" });
  reasons.push(
    trust.confirmed_on.length > 0
      ? { kind: "confirmed", venues: trust.confirmed_on }
      : { kind: "unconfirmed" },
  );
  if (trust.liquidity_usd !== null) reasons.push({ kind: "liquidity", usd: trust.liquidity_usd });
  else if (trust.volume_24h_usd !== null)
    reasons.push({ kind: "volume", usd: trust.volume_24h_usd });
  return reasons;
}

/** The badge's level: high from 70, medium from 40, else low (colour plus the number in words). */
export function trustLevel(score: number): "high" | "medium" | "low" {
  return score >= 70 ? "high" : score >= 40 ? "medium" : "low";
}
