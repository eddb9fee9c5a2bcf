import { PLAN_IDS, type PlanId } from "@domain/plans";
import { readEnum, readNumber, readText } from "@/lib/url-state";
import type { AlertRecord, LiveVisitor } from "../api/queries";

/**
 * The admin tables whose rows arrive whole (the latest 50 alerts, the users active in the last
 * five minutes) are searched, filtered, sorted and paged in the browser; their view lives in the
 * address like the server-paged tables' (decision 0045). Each tab has its own prefixed keys, so
 * the views of several tabs can share one address.
 */

type Params = Pick<URLSearchParams, "get">;
/** The "all" choice of every filter; the address leaves it out. */
export const ALL = "all";

export const CLIENT_PAGE_SIZE = 20;

/** Rows of one page (0-based, brought within range) and the number of pages (at least 1). */
export function pageOf<T>(rows: readonly T[], page: number, size = CLIENT_PAGE_SIZE) {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(0, page), pages - 1);
  return { rows: rows.slice(current * size, (current + 1) * size), page: current, pages };
}

/** A copy sorted by `key`; missing values last in either direction, ties keep their order. */
export function sortBy<T>(
  rows: readonly T[],
  key: (row: T) => string | number | null | undefined,
  desc: boolean,
): T[] {
  return rows
    .map((row, index) => ({ row, index, value: key(row) }))
    .sort((a, b) => {
      if (a.value === b.value) return a.index - b.index;
      if (a.value === null || a.value === undefined) return 1;
      if (b.value === null || b.value === undefined) return -1;
      const order =
        typeof a.value === "number" && typeof b.value === "number"
          ? a.value - b.value
          : String(a.value).localeCompare(String(b.value));
      return (desc ? -order : order) || a.index - b.index;
    })
    .map((entry) => entry.row);
}

const includes = (value: string | null | undefined, needle: string) =>
  (value ?? "").toLowerCase().includes(needle);

// --- Latest alerts (`?alertQ=&alertChannel=&alertDir=&alertSort=&alertOrder=&alertPage=`) ---

export const ALERT_CHANNELS = ["email", "discord", "telegram"] as const;
export const ALERT_SORTS = ["created_at", "symbol", "pct", "recipient"] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

export const ALERT_URL_DEFAULTS = {
  alertQ: "",
  alertChannel: ALL,
  alertDir: ALL,
  alertSort: "created_at",
  alertOrder: "desc",
  alertPage: 1,
} as const;

export type AlertsView = {
  search: string;
  channel: (typeof ALERT_CHANNELS)[number] | typeof ALL;
  direction: "up" | "down" | typeof ALL;
  sortBy: AlertSort;
  sortDesc: boolean;
  /** 0-based; the address counts from 1. */
  page: number;
};

export function parseAlertsView(params: Params): AlertsView {
  return {
    search: readText(params, "alertQ", 100),
    channel: readEnum(params, "alertChannel", [ALL, ...ALERT_CHANNELS], ALL),
    direction: readEnum(params, "alertDir", [ALL, "up", "down"] as const, ALL),
    sortBy: readEnum(params, "alertSort", ALERT_SORTS, "created_at"),
    sortDesc: readEnum(params, "alertOrder", ["asc", "desc"] as const, "desc") === "desc",
    page: readNumber(params, "alertPage", { min: 1, max: 10_000, integer: true }, 1) - 1,
  };
}

/** The alerts the view shows, in its order (all pages). */
export function viewAlerts(rows: readonly AlertRecord[], view: AlertsView): AlertRecord[] {
  const needle = view.search.trim().toLowerCase();
  const kept = rows.filter(
    (row) =>
      (view.channel === ALL || row.channel === view.channel) &&
      (view.direction === ALL || (view.direction === "up" ? row.pct >= 0 : row.pct < 0)) &&
      (needle === "" ||
        includes(row.symbol, needle) ||
        row.symbols.some((symbol) => includes(symbol, needle)) ||
        includes(row.exchange, needle) ||
        includes(row.recipient, needle)),
  );
  const key = (row: AlertRecord) =>
    view.sortBy === "pct"
      ? Number(row.pct)
      : view.sortBy === "created_at"
        ? Date.parse(row.created_at)
        : row[view.sortBy];
  return sortBy(kept, key, view.sortDesc);
}

// --- Live visitors (`?visitorQ=&visitorPlan=&visitorSort=&visitorOrder=&visitorPage=`) ---

export const VISITOR_SORTS = ["last_activity_at", "email", "plan"] as const;
export type VisitorSort = (typeof VISITOR_SORTS)[number];

export const VISITOR_URL_DEFAULTS = {
  visitorQ: "",
  visitorPlan: ALL,
  visitorSort: "last_activity_at",
  visitorOrder: "desc",
  visitorPage: 1,
} as const;

export type VisitorsView = {
  search: string;
  plan: PlanId | typeof ALL;
  sortBy: VisitorSort;
  sortDesc: boolean;
  page: number;
};

export function parseVisitorsView(params: Params): VisitorsView {
  return {
    search: readText(params, "visitorQ", 100),
    plan: readEnum(params, "visitorPlan", [ALL, ...PLAN_IDS], ALL),
    sortBy: readEnum(params, "visitorSort", VISITOR_SORTS, "last_activity_at"),
    sortDesc: readEnum(params, "visitorOrder", ["asc", "desc"] as const, "desc") === "desc",
    page: readNumber(params, "visitorPage", { min: 1, max: 10_000, integer: true }, 1) - 1,
  };
}

export function viewVisitors(rows: readonly LiveVisitor[], view: VisitorsView): LiveVisitor[] {
  const needle = view.search.trim().toLowerCase();
  const kept = rows.filter(
    (row) =>
      (view.plan === ALL || row.plan === view.plan) &&
      (needle === "" || includes(row.email, needle)),
  );
  const key = (row: LiveVisitor) =>
    view.sortBy === "last_activity_at"
      ? Date.parse(row.last_activity_at)
      : view.sortBy === "plan"
        ? PLAN_IDS.indexOf(row.plan)
        : row.email;
  return sortBy(kept, key, view.sortDesc);
}
