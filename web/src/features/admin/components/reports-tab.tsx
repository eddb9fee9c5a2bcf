import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ExportMenu } from "@/components/export-menu";
import { useUrlState } from "@/hooks/use-url-state";
import { readEnum } from "@/lib/url-state";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { adminQueries, type ReportRow, type ReportStatusFilter } from "../api/queries";
import { deleteReportedMessage, reviewReport } from "../api/report-actions";
import { useAdminAction } from "../api/user-actions";
import { reportExportColumns } from "../utils/export-columns";
import { formatDateTime } from "../utils/format";
import { BanDialog } from "./ban-dialog";

function ReportCard({
  report,
  onBan,
}: {
  report: ReportRow;
  onBan: (target: { id: string; email: string }) => void;
}) {
  const { t, i18n } = useTranslation("admin");
  const review = useAdminAction(reviewReport);
  const removeMessage = useAdminAction(deleteReportedMessage);
  const onError = (error: Error) => toast.error(t("toast.error"), { description: error.message });
  const open = report.status === "open";
  const busy = review.isPending || removeMessage.isPending;

  return (
    <Card data-testid="report-card" className="gap-3 py-4">
      <CardContent className="flex flex-col gap-3 px-4">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge variant="secondary">{t(`reports.reason.${report.reason ?? "other"}`)}</Badge>
          <Badge variant={open ? "default" : "outline"}>
            {t(`reports.status.${(report.status ?? "open") as "open"}`)}
          </Badge>
          <span className="text-muted-foreground">
            {formatDateTime(report.created_at, i18n.language)}
          </span>
        </div>
        <p className="text-sm">
          {t("reports.summary", {
            reporter: report.reporter_email ?? "",
            reported: report.reported_email ?? "",
          })}
          {report.reported_banned && (
            <Badge variant="outline" className="ml-2 border-destructive text-destructive">
              {t("badge.banned")}
            </Badge>
          )}
        </p>
        {report.description && (
          <p className="text-sm text-muted-foreground">“{report.description}”</p>
        )}
        {report.message_content ? (
          <blockquote className="rounded-md border-l-4 border-primary/60 bg-muted/50 px-3 py-2 text-sm break-words">
            <span className="block text-xs text-muted-foreground">
              {report.message_deleted
                ? t("reports.messageDeleted")
                : t("reports.messageIn", { group: report.group_name ?? "" })}
            </span>
            {report.message_content}
          </blockquote>
        ) : (
          <p className="text-xs text-muted-foreground">{t("reports.noMessage")}</p>
        )}
        <div className="flex flex-wrap gap-2">
          {open && (
            <>
              <Button
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={() =>
                  review.mutate(
                    { reportId: report.id ?? "", outcome: "dismissed" },
                    { onSuccess: () => toast.success(t("toast.reportDismissed")), onError },
                  )
                }
              >
                {t("reports.dismiss")}
              </Button>
              <Button
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={() =>
                  review.mutate(
                    { reportId: report.id ?? "", outcome: "resolved" },
                    { onSuccess: () => toast.success(t("toast.reportResolved")), onError },
                  )
                }
              >
                {t("reports.resolve")}
              </Button>
            </>
          )}
          {report.message_id && (
            <Button
              size="sm"
              variant="destructive"
              disabled={busy}
              onClick={() =>
                removeMessage.mutate(
                  { messageId: report.message_id ?? "" },
                  { onSuccess: () => toast.success(t("toast.messageDeleted")), onError },
                )
              }
            >
              {t("reports.deleteMessage")}
            </Button>
          )}
          {!report.reported_banned && report.reported_role !== "admin" && (
            <Button
              size="sm"
              variant="destructive"
              onClick={() =>
                onBan({ id: report.reported_id ?? "", email: report.reported_email ?? "" })
              }
            >
              {t("reports.banAuthor")}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** Community reports with the reported message: dismiss, resolve, delete the message, ban the author. */
export function ReportsTab() {
  const { t, i18n } = useTranslation("admin");
  const exportColumns = useMemo(() => reportExportColumns(t, i18n.language), [t, i18n.language]);
  // `?reports=all` (open ones when absent, decision 0045).
  const [params, setUrl] = useUrlState({ reports: "open" });
  const filter = readEnum<ReportStatusFilter>(params, "reports", ["open", "all"], "open");
  const [banTarget, setBanTarget] = useState<{ id: string; email: string } | null>(null);
  const reports = useQuery(adminQueries.reports(filter));

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Select value={filter} onValueChange={(value) => setUrl({ reports: value })}>
          <SelectTrigger className="w-48" aria-label={t("reports.filter")}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="open">{t("reports.openOnly")}</SelectItem>
            <SelectItem value="all">{t("reports.all")}</SelectItem>
          </SelectContent>
        </Select>
        <ExportMenu
          baseName="reports"
          columns={exportColumns}
          rows={reports.data ?? []}
          label={t("reports.export")}
        />
      </div>
      {reports.isPending ? (
        <Spinner label={t("loading")} className="mx-auto my-8 size-5" />
      ) : reports.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {reports.error.message}
        </p>
      ) : reports.data.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{t("reports.empty")}</p>
      ) : (
        <div className="grid gap-3 lg:grid-cols-2">
          {reports.data.map((report) => (
            <ReportCard key={report.id} report={report} onBan={setBanTarget} />
          ))}
        </div>
      )}
      <BanDialog user={banTarget} onOpenChange={(open) => !open && setBanTarget(null)} />
    </div>
  );
}
