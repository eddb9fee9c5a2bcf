import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { PLAN_IDS } from "@domain/plans";
import { Badge } from "@/components/ui/badge";
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
import { useUrlState } from "@/hooks/use-url-state";
import { useUrlTextDraft } from "@/hooks/use-url-text-draft";
import { adminQueries } from "../api/queries";
import { useLiveVisitorsStream } from "../hooks/use-live-visitors-stream";
import {
  pageOf,
  parseVisitorsView,
  viewVisitors,
  VISITOR_URL_DEFAULTS,
  type VisitorSort,
} from "../utils/client-table";
import { formatDateTime } from "../utils/format";
import { SortHeader } from "./sort-header";
import { TablePager } from "./table-pager";

const ALL = "all";

/**
 * Users active in the last 5 minutes; live through `admin:visitors`, refreshed every 30 s.
 * Search, plan, sort and page live in the address (`visitorQ`, `visitorPlan`, `visitorSort`,
 * `visitorOrder`, `visitorPage`; decision 0045).
 */
export function LiveVisitorsTab() {
  const { t, i18n } = useTranslation("admin");
  const visitors = useQuery(adminQueries.visitors());
  useLiveVisitorsStream();
  const [params, setUrl] = useUrlState(VISITOR_URL_DEFAULTS);
  const view = useMemo(() => parseVisitorsView(params), [params]);
  const setView = (changes: Record<string, string>) => setUrl({ visitorPage: 1, ...changes });
  const [searchDraft, setSearchDraft] = useUrlTextDraft(view.search, (visitorQ) =>
    setView({ visitorQ }),
  );
  const shown = useMemo(() => viewVisitors(visitors.data ?? [], view), [visitors.data, view]);
  const onSort = (column: VisitorSort) => {
    const desc = column === view.sortBy ? !view.sortDesc : column === "last_activity_at";
    setView({ visitorSort: column, visitorOrder: desc ? "desc" : "asc" });
  };

  const filters = (
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
      <Input
        type="search"
        value={searchDraft}
        maxLength={100}
        placeholder={t("visitors.search")}
        aria-label={t("visitors.search")}
        onChange={(event) => setSearchDraft(event.target.value)}
      />
      <Select value={view.plan} onValueChange={(value) => setView({ visitorPlan: value })}>
        <SelectTrigger className="w-full" aria-label={t("visitors.filterPlan")}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL}>{t("users.allPlans")}</SelectItem>
          {PLAN_IDS.map((id) => (
            <SelectItem key={id} value={id}>
              {t(`plan.${id}`)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );

  if (visitors.isPending) return <Spinner label={t("loading")} className="mx-auto my-8 size-5" />;
  if (visitors.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {visitors.error.message}
      </p>
    );
  if (visitors.data.length === 0)
    return <p className="py-8 text-center text-muted-foreground">{t("visitors.empty")}</p>;
  const current = pageOf(shown, view.page);
  const sortProps = { sortBy: view.sortBy, sortDesc: view.sortDesc, onSort };
  return (
    <div className="flex flex-col gap-4">
      {filters}
      {shown.length === 0 ? (
        <p className="py-8 text-center text-muted-foreground">{t("visitors.noMatch")}</p>
      ) : (
        <>
          <div className="overflow-x-auto rounded-md border">
            <Table>
              <TableHeader>
                <TableRow>
                  <SortHeader column="email" label={t("visitors.email")} {...sortProps} />
                  <SortHeader column="plan" label={t("visitors.plan")} {...sortProps} />
                  <SortHeader
                    column="last_activity_at"
                    label={t("visitors.lastActivity")}
                    {...sortProps}
                  />
                  <TableHead>{t("visitors.status")}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {current.rows.map((visitor) => (
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
          <TablePager
            page={current.page}
            pages={current.pages}
            total={shown.length}
            onPage={(page) => setUrl({ visitorPage: page + 1 })}
            testId="admin-visitors-total"
          />
        </>
      )}
    </div>
  );
}
