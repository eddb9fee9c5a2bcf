import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { adminQueries } from "../api/queries";
import { useLiveVisitorsStream } from "../hooks/use-live-visitors-stream";
import { formatDateTime } from "../utils/format";

/** Users active in the last 5 minutes; live through `admin:visitors`, refreshed every 30 s. */
export function LiveVisitorsTab() {
  const { t, i18n } = useTranslation("admin");
  const visitors = useQuery(adminQueries.visitors());
  useLiveVisitorsStream();

  if (visitors.isPending) return <Spinner label={t("loading")} className="mx-auto my-8 size-5" />;
  if (visitors.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {visitors.error.message}
      </p>
    );
  if (visitors.data.length === 0)
    return <p className="py-8 text-center text-muted-foreground">{t("visitors.empty")}</p>;
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("visitors.email")}</TableHead>
            <TableHead>{t("visitors.plan")}</TableHead>
            <TableHead>{t("visitors.lastActivity")}</TableHead>
            <TableHead>{t("visitors.status")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {visitors.data.map((visitor) => (
            <TableRow key={visitor.id} data-testid="visitor-row">
              <TableCell className="font-medium">{visitor.email}</TableCell>
              <TableCell>{t(`plan.${visitor.plan ?? "none"}`)}</TableCell>
              <TableCell className="whitespace-nowrap">
                {formatDateTime(visitor.last_activity_at, i18n.language)}
              </TableCell>
              <TableCell>
                <Badge className="bg-emerald-600 text-white dark:bg-emerald-500/80">
                  {t("visitors.online")}
                </Badge>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
