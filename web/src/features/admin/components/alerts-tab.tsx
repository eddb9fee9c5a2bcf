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
import { adminQueries } from "../api/queries";
import { formatChange, formatDateTime } from "../utils/format";

/** The latest 50 alerts sent. */
export function AlertsTab() {
  const { t, i18n } = useTranslation("admin");
  const alerts = useQuery(adminQueries.alerts());

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
              <TableCell className="font-medium">{alert.symbol}</TableCell>
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
                {formatDateTime(alert.created_at, i18n.language)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
