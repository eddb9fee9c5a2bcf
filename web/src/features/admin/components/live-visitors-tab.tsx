import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { PLAN_IDS } from "@domain/plans";
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
import { useTableView } from "../hooks/use-table-view";
import {
  pageOf,
  parseVisitorsView,
  viewVisitors,
  VISITOR_URL_DEFAULTS,
  type VisitorSort,
} from "../utils/client-table";
import { formatDateTime } from "../utils/format";
import { SortHeader } from "./sort-header";
import { FilterSelect, SearchField } from "./table-filters";
import { TablePager } from "./table-pager";

const VISITOR_KEYS = {
  search: "visitorQ",
  sort: "visitorSort",
  order: "visitorOrder",
  page: "visitorPage",
};
const lastActivityFirst = (column: VisitorSort) => column === "last_activity_at";

/**
 * Users active in the last 5 minutes; live through `admin:visitors`, refreshed every 30 s.
 * Search, plan, sort and page live in the address (`visitorQ`, `visitorPlan`, `visitorSort`,
 * `visitorOrder`, `visitorPage`; decision 0045).
 */
export function LiveVisitorsTab() {
  const { t, i18n } = useTranslation("admin");
  const visitors = useQuery(adminQueries.visitors());
  useLiveVisitorsStream();
  const { view, setView, searchDraft, setSearchDraft, sortProps, onPage } = useTableView({
    defaults: VISITOR_URL_DEFAULTS,
    keys: VISITOR_KEYS,
    parse: parseVisitorsView,
    descendingFirst: lastActivityFirst,
  });
  const shown = useMemo(() => viewVisitors(visitors.data ?? [], view), [visitors.data, view]);

  const filters = (
    <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
      <SearchField value={searchDraft} label={t("visitors.search")} onChange={setSearchDraft} />
      <FilterSelect
        value={view.plan}
        label={t("visitors.filterPlan")}
        allLabel={t("users.allPlans")}
        options={PLAN_IDS.map((id) => ({ value: id, label: t(`plan.${id}`) }))}
        onChange={(value) => setView({ visitorPlan: value })}
      />
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
            onPage={onPage}
            testId="admin-visitors-total"
          />
        </>
      )}
    </div>
  );
}
