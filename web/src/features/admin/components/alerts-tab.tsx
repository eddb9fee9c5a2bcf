import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { cn } from "@/lib/utils";
import { type AlertRecord, adminQueries } from "../api/queries";
import { formatChange, formatDateTime } from "../utils/format";

/** The last hour's delivery per channel (admin_alert_delivery_stats), then the latest alerts. */
export function AlertsTab() {
  return (
    <div className="space-y-6">
      <DeliveryStats />
      <LatestAlerts />
    </div>
  );
}

function DeliveryStats() {
  const { t, i18n } = useTranslation("admin");
  const stats = useQuery(adminQueries.deliveryStats());
  const seconds = (value: number | null) =>
    value === null
      ? t("alerts.noDeliveries")
      : t("alerts.seconds", {
          value: value.toLocaleString(i18n.language, { maximumFractionDigits: 1 }),
        });
  return (
    <section aria-labelledby="admin-delivery-title" className="space-y-2">
      <h2 id="admin-delivery-title" className="text-lg font-semibold">
        {t("alerts.deliveryTitle")}
      </h2>
      <p className="text-sm text-muted-foreground">{t("alerts.deliveryHint")}</p>
      {stats.isPending ? (
        <Spinner label={t("loading")} className="mx-auto my-4 size-5" />
      ) : stats.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {stats.error.message}
        </p>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t("alerts.channel")}</TableHead>
                <TableHead className="text-right">{t("alerts.sent")}</TableHead>
                <TableHead className="text-right">{t("alerts.p50")}</TableHead>
                <TableHead className="text-right">{t("alerts.p95")}</TableHead>
                <TableHead className="text-right">{t("alerts.failed")}</TableHead>
                <TableHead className="text-right">{t("alerts.inDoubt")}</TableHead>
                <TableHead className="text-right">{t("alerts.waiting")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {stats.data.map((row) => (
                <TableRow key={row.channel ?? ""}>
                  <TableCell className="font-medium">
                    {t(`alerts.channels.${row.channel as "email" | "discord" | "telegram"}`)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{row.sent ?? 0}</TableCell>
                  <TableCell className="text-right tabular-nums">
                    {seconds(row.p50_seconds)}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">
                    {seconds(row.p95_seconds)}
                  </TableCell>
                  <TableCell
                    className={cn(
                      "text-right tabular-nums",
                      (row.failed ?? 0) > 0 && "text-red-600 dark:text-red-400",
                    )}
                  >
                    {row.failed ?? 0}
                  </TableCell>
                  <TableCell
                    className={cn(
                      "text-right tabular-nums",
                      (row.in_doubt ?? 0) > 0 && "text-amber-600 dark:text-amber-400",
                    )}
                  >
                    {row.in_doubt ?? 0}
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{row.waiting ?? 0}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </section>
  );
}

/** The latest 50 alerts sent. */
function LatestAlerts() {
  const { t, i18n } = useTranslation("admin");
  const alerts = useQuery(adminQueries.alerts());
  return (
    <section aria-labelledby="admin-latest-alerts-title" className="space-y-2">
      <h2 id="admin-latest-alerts-title" className="text-lg font-semibold">
        {t("alerts.latestTitle")}
      </h2>
      <LatestAlertsBody alerts={alerts} language={i18n.language} />
    </section>
  );
}

function LatestAlertsBody({
  alerts,
  language,
}: {
  alerts: ReturnType<typeof useQuery<AlertRecord[]>>;
  language: string;
}) {
  const { t } = useTranslation("admin");

  if (alerts.isPending) return <Spinner label={t("loading")} className="mx-auto my-8 size-5" />;
  if (alerts.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {alerts.error.message}
      </p>
    );
  if (alerts.data.length === 0)
    return <p className="py-8 text-center text-muted-foreground">{t("alerts.empty")}</p>;
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("alerts.symbol")}</TableHead>
            <TableHead>{t("alerts.exchange")}</TableHead>
            <TableHead>{t("alerts.change")}</TableHead>
            <TableHead>{t("alerts.recipient")}</TableHead>
            <TableHead>{t("alerts.time")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {alerts.data.slice(0, 50).map((alert) => (
            <TableRow key={alert.id}>
              <TableCell className="font-medium">
                {alert.symbol}
                {alert.symbol_count > 1 && (
                  <span
                    className="ml-1 text-xs font-normal text-muted-foreground"
                    title={alert.symbols.join(", ")}
                  >
                    {t("alerts.more", { count: alert.symbol_count - 1 })}
                  </span>
                )}
              </TableCell>
              <TableCell>{alert.exchange}</TableCell>
              <TableCell
                className={cn(
                  "tabular-nums",
                  Number(alert.pct) >= 0
                    ? "text-emerald-600 dark:text-emerald-400"
                    : "text-red-600 dark:text-red-400",
                )}
              >
                {formatChange(Number(alert.pct))}
              </TableCell>
              <TableCell className="max-w-[14rem] truncate">{alert.recipient}</TableCell>
              <TableCell className="whitespace-nowrap">
                {formatDateTime(alert.created_at, language)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
