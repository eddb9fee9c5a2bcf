import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ExportMenu } from "@/components/export-menu";
import { Input } from "@/components/ui/input";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { adminQueries, type LogFilters, listActivityLogs, LOGS_EXPORTED } from "../api/queries";
import { useUrlState } from "@/hooks/use-url-state";
import { useUrlTextDraft } from "@/hooks/use-url-text-draft";
import { readEnum, readText } from "@/lib/url-state";
import { activityLogExportColumns } from "../utils/export-columns";
import { formatDateTime } from "../utils/format";

/** The actions the database logs (admin RPCs and promote_self). */
export const LOGGED_ACTIONS = [
  "ban_user",
  "unban_user",
  "delete_user",
  "set_plan",
  "set_subscription",
  "set_ticket_status",
  "promote_self",
  "promote_self_failed",
  "delete_message",
  "resolve_report",
  "dismiss_report",
] as const;
const ALL = "all";
const ACTION_KEYS = {
  ban_user: "banUser",
  unban_user: "unbanUser",
  delete_user: "deleteUser",
  set_plan: "setPlan",
  set_subscription: "setSubscription",
  set_ticket_status: "setTicketStatus",
  promote_self: "promoteSelf",
  promote_self_failed: "promoteSelfFailed",
  delete_message: "deleteMessage",
  resolve_report: "resolveReport",
  dismiss_report: "dismissReport",
} as const satisfies Record<(typeof LOGGED_ACTIONS)[number], string>;

/** The audit log: filters by admin, action and target, refreshed every 10 s, CSV or JSON export. */
export function ActivityLogsTab() {
  const { t, i18n } = useTranslation("admin");
  // `?logAdmin=&logTarget=&logAction=` (decision 0045); the fields follow once typing pauses.
  const [params, setUrl] = useUrlState({ logAction: ALL });
  const action = readEnum(params, "logAction", [ALL, ...LOGGED_ACTIONS], ALL);
  const [admin, setAdmin] = useUrlTextDraft(readText(params, "logAdmin"), (value) =>
    setUrl({ logAdmin: value }),
  );
  const [target, setTarget] = useUrlTextDraft(readText(params, "logTarget"), (value) =>
    setUrl({ logTarget: value }),
  );
  const filters: LogFilters = {
    admin: readText(params, "logAdmin"),
    target: readText(params, "logTarget"),
    action: action === ALL ? "" : action,
  };
  const logs = useQuery(adminQueries.logs(filters));
  const actionLabel = (value: string) =>
    (LOGGED_ACTIONS as readonly string[]).includes(value)
      ? t(`logs.action.${ACTION_KEYS[value as (typeof LOGGED_ACTIONS)[number]]}`)
      : value;

  const exportColumns = useMemo(
    () => activityLogExportColumns(t, i18n.language, actionLabel),
    // `actionLabel` only reads `t`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language],
  );

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
        <Input
          value={admin}
          maxLength={100}
          placeholder={t("logs.filterAdmin")}
          aria-label={t("logs.filterAdmin")}
          onChange={(event) => setAdmin(event.target.value)}
        />
        <Select value={action} onValueChange={(value) => setUrl({ logAction: value })}>
          <SelectTrigger className="w-full" aria-label={t("logs.filterAction")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>{t("logs.allActions")}</SelectItem>
            {LOGGED_ACTIONS.map((value) => (
              <SelectItem key={value} value={value}>
                {actionLabel(value)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Input
          value={target}
          maxLength={100}
          placeholder={t("logs.filterTarget")}
          aria-label={t("logs.filterTarget")}
          onChange={(event) => setTarget(event.target.value)}
        />
        {/* The filtered log, up to its last 10,000 entries (not only the rows on screen). */}
        <ExportMenu
          baseName="activity-logs"
          columns={exportColumns}
          rows={logs.data ?? []}
          loadRows={() => listActivityLogs(filters, LOGS_EXPORTED)}
          onError={(error) => toast.error(t("toast.error"), { description: error.message })}
          label={t("logs.export")}
        />
      </div>
      {logs.isPending ? (
        <Spinner label={t("loading")} className="mx-auto my-8 size-5" />
      ) : logs.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {logs.error.message}
        </p>
      ) : logs.data.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{t("logs.empty")}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("logs.actionColumn")}</TableHead>
                <TableHead>{t("logs.admin")}</TableHead>
                <TableHead>{t("logs.target")}</TableHead>
                <TableHead>{t("logs.details")}</TableHead>
                <TableHead>{t("logs.ip")}</TableHead>
                <TableHead>{t("logs.time")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {logs.data.map((log) => (
                <TableRow key={log.id} data-testid="log-row" data-action={log.action ?? ""}>
                  <TableCell className="font-medium whitespace-nowrap">
                    {actionLabel(log.action ?? "")}
                  </TableCell>
                  <TableCell>{log.admin_email ?? t("logs.notAvailable")}</TableCell>
                  <TableCell>{log.target_user_email ?? t("logs.notAvailable")}</TableCell>
                  <TableCell className="max-w-[18rem] break-words">{log.details}</TableCell>
                  <TableCell className="font-mono text-xs" data-testid="log-ip">
                    {log.ip_address ?? t("logs.notAvailable")}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    {formatDateTime(log.created_at, i18n.language)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}
