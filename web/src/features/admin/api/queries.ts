import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { PlanId } from "@domain/plans";
import type { Database } from "@/lib/database.types";
import { toRequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";

type Returns<F extends keyof Database["public"]["Functions"]> =
  Database["public"]["Functions"][F]["Returns"];

/** Admin stats refresh every 30 s, activity logs every 10 s (spec section 9). */
export const STATS_REFRESH_MS = 30_000;
export const LOGS_REFRESH_MS = 10_000;
export const VISITORS_REFRESH_MS = 30_000;
export const USERS_PAGE_SIZE = 25;
export const LOGS_SHOWN = 200;
export const LOGS_EXPORTED = 1000;

export type UserSort = "email" | "plan" | "created_at" | "last_activity_at";

export type UserListParams = {
  search: string;
  plan: PlanId | null;
  banned: boolean | null;
  subscription: boolean | null;
  sortBy: UserSort;
  sortDesc: boolean;
  page: number;
};

export type LogFilters = { admin: string; action: string; target: string };
export type ReportStatusFilter = "open" | "all";

export type AdminUserRow = NonNullable<Returns<"admin_list_users">>[number];
export type AdminStats = NonNullable<Returns<"admin_stats">>[number];
export type LiveVisitor = NonNullable<Returns<"admin_live_visitors">>[number];
export type ActivityLog = NonNullable<Returns<"admin_activity_logs">>[number];
export type AlertRecord = NonNullable<Returns<"admin_latest_alerts">>[number];
export type ReportRow = NonNullable<Returns<"admin_reports">>[number];

export async function listUsers(params: UserListParams) {
  const { data, error, status } = await supabase.rpc("admin_list_users", {
    search: params.search.trim() || undefined,
    plan_filter: params.plan ?? undefined,
    banned_filter: params.banned ?? undefined,
    subscription_filter: params.subscription ?? undefined,
    sort_by: params.sortBy,
    sort_desc: params.sortDesc,
    page_size: USERS_PAGE_SIZE,
    page_offset: params.page * USERS_PAGE_SIZE,
  });
  if (error) throw toRequestError(error, status);
  const rows = data ?? [];
  return { rows, total: rows[0]?.total_count ?? 0 };
}

export async function listActivityLogs(filters: LogFilters, maxRows: number) {
  const { data, error, status } = await supabase.rpc("admin_activity_logs", {
    admin_filter: filters.admin.trim() || undefined,
    action_filter: filters.action || undefined,
    target_filter: filters.target.trim() || undefined,
    max_rows: maxRows,
  });
  if (error) throw toRequestError(error, status);
  return data ?? [];
}

async function getStats(): Promise<AdminStats | null> {
  const { data, error, status } = await supabase.rpc("admin_stats");
  if (error) throw toRequestError(error, status);
  return data?.[0] ?? null;
}

async function getLiveVisitors() {
  const { data, error, status } = await supabase.rpc("admin_live_visitors");
  if (error) throw toRequestError(error, status);
  return data ?? [];
}

export type DeliveryStat = NonNullable<Returns<"admin_alert_delivery_stats">>[number];

async function getDeliveryStats() {
  const { data, error, status } = await supabase.rpc("admin_alert_delivery_stats");
  if (error) throw toRequestError(error, status);
  return data ?? [];
}

async function getLatestAlerts() {
  const { data, error, status } = await supabase.rpc("admin_latest_alerts");
  if (error) throw toRequestError(error, status);
  return data ?? [];
}

async function getReports(filter: ReportStatusFilter) {
  const { data, error, status } = await supabase.rpc("admin_reports", {
    // The RPC reads a null status as "all"; supabase-js drops undefined, so send null explicitly.
    status_filter: (filter === "open" ? "open" : null) as string,
    max_rows: 200,
  });
  if (error) throw toRequestError(error, status);
  return data ?? [];
}

/** The admin panel's queries; every admin action invalidates `adminKeys.all`. */
export const adminKeys = {
  all: ["admin"] as const,
  users: () => [...adminKeys.all, "users"] as const,
  logs: () => [...adminKeys.all, "logs"] as const,
  visitors: () => [...adminKeys.all, "visitors"] as const,
  stats: () => [...adminKeys.all, "stats"] as const,
};

export const adminQueries = {
  users: (params: UserListParams) =>
    queryOptions({
      queryKey: [...adminKeys.users(), params] as const,
      queryFn: () => listUsers(params),
      placeholderData: keepPreviousData,
    }),
  stats: () =>
    queryOptions({
      queryKey: adminKeys.stats(),
      queryFn: getStats,
      refetchInterval: STATS_REFRESH_MS,
    }),
  visitors: () =>
    queryOptions({
      queryKey: adminKeys.visitors(),
      queryFn: getLiveVisitors,
      refetchInterval: VISITORS_REFRESH_MS,
    }),
  logs: (filters: LogFilters) =>
    queryOptions({
      queryKey: [...adminKeys.logs(), filters] as const,
      queryFn: () => listActivityLogs(filters, LOGS_SHOWN),
      refetchInterval: LOGS_REFRESH_MS,
      placeholderData: keepPreviousData,
    }),
  alerts: () =>
    queryOptions({
      queryKey: [...adminKeys.all, "alerts"] as const,
      queryFn: getLatestAlerts,
    }),
  deliveryStats: () =>
    queryOptions({
      queryKey: [...adminKeys.all, "delivery-stats"] as const,
      queryFn: getDeliveryStats,
      refetchInterval: STATS_REFRESH_MS,
    }),
  reports: (filter: ReportStatusFilter) =>
    queryOptions({
      queryKey: [...adminKeys.all, "reports", filter] as const,
      queryFn: () => getReports(filter),
    }),
};
