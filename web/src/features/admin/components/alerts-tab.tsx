import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
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
import { useTableView } from "../hooks/use-table-view";
import {
  ALERT_CHANNELS,
  ALERT_URL_DEFAULTS,
  type AlertSort,
  type AlertsView,
  pageOf,
  parseAlertsView,
  viewAlerts,
} from "../utils/client-table";
import { formatChange, formatDateTime } from "../utils/format";
import { SortHeader } from "./sort-header";
import { FilterSelect, SearchField } from "./table-filters";
import { TablePager } from "./table-pager";

const ALERT_KEYS = { search: "alertQ", sort: "alertSort", order: "alertOrder", page: "alertPage" };
const newestOrLargestFirst = (column: AlertSort) => column === "created_at" || column === "pct";

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

/** The latest 50 alerts sent: searched, filtered, sorted and paged in the address. */
function LatestAlerts() {
  const { t, i18n } = useTranslation("admin");
  const alerts = useQuery(adminQueries.alerts());
  const { view, setView, searchDraft, setSearchDraft, sortProps, onPage } = useTableView({
    defaults: ALERT_URL_DEFAULTS,
    keys: ALERT_KEYS,
    parse: parseAlertsView,
    descendingFirst: newestOrLargestFirst,
  });
  return (
    <section aria-labelledby="admin-latest-alerts-title" className="space-y-2">
      <h2 id="admin-latest-alerts-title" className="text-lg font-semibold">
        {t("alerts.latestTitle")}
      </h2>
      <div className="grid gap-2 sm:grid-cols-3">
        <SearchField value={searchDraft} label={t("alerts.search")} onChange={setSearchDraft} />
        <FilterSelect
          value={view.channel}
          label={t("alerts.filterChannel")}
          allLabel={t("alerts.allChannels")}
          options={ALERT_CHANNELS.map((channel) => ({
            value: channel,
            label: t(`alerts.channels.${channel}`),
          }))}
          onChange={(value) => setView({ alertChannel: value })}
        />
        <FilterSelect
          value={view.direction}
          label={t("alerts.filterDirection")}
          allLabel={t("alerts.allDirections")}
          options={[
            { value: "up", label: t("alerts.up") },
            { value: "down", label: t("alerts.down") },
          ]}
          onChange={(value) => setView({ alertDir: value })}
        />
      </div>
      <LatestAlertsBody
        alerts={alerts}
        view={view}
        sortProps={sortProps}
        onPage={onPage}
        language={i18n.language}
      />
    </section>
  );
}

function LatestAlertsBody({
  alerts,
  view,
  sortProps,
  onPage,
  language,
}: {
  alerts: ReturnType<typeof useQuery<AlertRecord[]>>;
  view: AlertsView;
  sortProps: { sortBy: AlertSort; sortDesc: boolean; onSort: (column: AlertSort) => void };
  onPage: (page: number) => void;
  language: string;
}) {
  const { t } = useTranslation("admin");
  const shown = useMemo(() => viewAlerts(alerts.data ?? [], view), [alerts.data, view]);

  if (alerts.isPending) return <Spinner label={t("loading")} className="mx-auto my-8 size-5" />;
  if (alerts.isError)
    return (
      <p role="alert" className="text-sm text-destructive">
        {alerts.error.message}
      </p>
    );
  if (alerts.data.length === 0)
    return <p className="py-8 text-center text-muted-foreground">{t("alerts.empty")}</p>;
  if (shown.length === 0)
    return <p className="py-8 text-center text-muted-foreground">{t("alerts.noMatch")}</p>;
  const current = pageOf(shown, view.page);
  return (
    <>
      <div className="overflow-x-auto rounded-md border">
        <Table>
          <TableHeader>
            <TableRow>
              <SortHeader column="symbol" label={t("alerts.symbol")} {...sortProps} />
              <TableHead>{t("alerts.exchange")}</TableHead>
              <TableHead>{t("alerts.channel")}</TableHead>
              <SortHeader column="pct" label={t("alerts.change")} {...sortProps} />
              <SortHeader column="recipient" label={t("alerts.recipient")} {...sortProps} />
              <SortHeader column="created_at" label={t("alerts.time")} {...sortProps} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {current.rows.map((alert) => (
              <TableRow key={alert.id} data-testid="admin-alert-row">
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
                <TableCell>
                  {(ALERT_CHANNELS as readonly (string | null)[]).includes(alert.channel)
                    ? t(`alerts.channels.${alert.channel as (typeof ALERT_CHANNELS)[number]}`)
                    : alert.channel}
                </TableCell>
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
      <TablePager
        page={current.page}
        pages={current.pages}
        total={shown.length}
        onPage={onPage}
        testId="admin-alerts-total"
      />
    </>
  );
}
