import type { TFunction } from "i18next";
import type { ExportColumn } from "@/lib/csv";
import type { ActivityLog, AdminUserRow, ReportRow } from "../api/queries";
import { formatDateTime } from "./format";

/**
 * The users table's export (CSV / JSON through the shared `exportRows`): the columns the table
 * shows, in the reader's language, plus the username, ban reason and last activity it shows on
 * hover or not at all.
 */
export function userExportColumns(
  t: TFunction<"admin">,
  language: string,
): ExportColumn<AdminUserRow>[] {
  return [
    { header: t("users.email"), value: (row) => row.email },
    { header: t("users.username"), value: (row) => row.username },
    { header: t("users.role"), value: (row) => t(`setup.roles.${row.role ?? "user"}`) },
    { header: t("users.plan"), value: (row) => t(`plan.${row.plan ?? "none"}`) },
    {
      header: t("users.subscription"),
      value: (row) => (row.subscription_active ? t("users.active") : t("users.inactive")),
    },
    {
      header: t("users.status"),
      value: (row) => (row.banned ? t("users.statusBanned") : t("users.statusActive")),
    },
    { header: t("users.banReason"), value: (row) => (row.banned ? row.banned_reason : "") },
    { header: t("users.created"), value: (row) => formatDateTime(row.created_at, language) },
    {
      header: t("users.lastActivity"),
      value: (row) => formatDateTime(row.last_activity_at, language),
    },
  ];
}

/** The community reports' export: one row per report, as the cards show it. */
export function reportExportColumns(
  t: TFunction<"admin">,
  language: string,
): ExportColumn<ReportRow>[] {
  return [
    {
      header: t("reports.columns.created"),
      value: (row) => formatDateTime(row.created_at, language),
    },
    {
      header: t("reports.columns.reason"),
      value: (row) => t(`reports.reason.${row.reason ?? "other"}`),
    },
    {
      header: t("reports.columns.status"),
      value: (row) => t(`reports.status.${(row.status ?? "open") as "open"}`),
    },
    { header: t("reports.columns.reporter"), value: (row) => row.reporter_email },
    { header: t("reports.columns.reported"), value: (row) => row.reported_email },
    { header: t("reports.columns.group"), value: (row) => row.group_name },
    {
      header: t("reports.columns.message"),
      value: (row) => (row.message_deleted ? t("reports.messageDeleted") : row.message_content),
    },
    { header: t("reports.columns.description"), value: (row) => row.description },
    {
      header: t("reports.columns.reviewed"),
      value: (row) => formatDateTime(row.reviewed_at, language),
    },
  ];
}

/**
 * The activity log's export (CSV / JSON through the shared `exportRows`): the time in the
 * reader's format, the action in their words and as the database's code (stable for tools),
 * then who, whom, the details and the IP. A missing admin, target or IP is empty in CSV and
 * `null` in JSON; every other value is a string.
 */
export function activityLogExportColumns(
  t: TFunction<"admin">,
  language: string,
  actionLabel: (action: string) => string,
): ExportColumn<ActivityLog>[] {
  return [
    { header: t("logs.time"), value: (row) => formatDateTime(row.created_at, language) },
    { header: t("logs.actionColumn"), value: (row) => actionLabel(row.action ?? "") },
    { header: t("logs.actionCode"), value: (row) => row.action },
    { header: t("logs.admin"), value: (row) => row.admin_email },
    { header: t("logs.target"), value: (row) => row.target_user_email },
    { header: t("logs.details"), value: (row) => row.details },
    { header: t("logs.ip"), value: (row) => row.ip_address },
  ];
}
