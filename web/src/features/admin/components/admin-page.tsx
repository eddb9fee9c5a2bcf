import { lazy, type ReactNode, Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useUrlState } from "@/hooks/use-url-state";
import { readEnum } from "@/lib/url-state";
import { StatCards } from "./stat-cards";
import { UsersTab } from "./users-tab";

// The other tabs load when first opened: the users table is what the panel opens on.
const LiveVisitorsTab = lazy(() =>
  import("./live-visitors-tab").then((m) => ({ default: m.LiveVisitorsTab })),
);
const ActivityLogsTab = lazy(() =>
  import("./activity-logs-tab").then((m) => ({ default: m.ActivityLogsTab })),
);
const AlertsTab = lazy(() => import("./alerts-tab").then((m) => ({ default: m.AlertsTab })));
const ReportsTab = lazy(() => import("./reports-tab").then((m) => ({ default: m.ReportsTab })));

/** A tab's content while its code loads: a spinner with the panel's "Loading…" text. */
function Later({ children }: { children: ReactNode }) {
  const { t } = useTranslation("admin");
  return (
    <Suspense fallback={<Spinner label={t("loading")} className="mx-auto my-8 size-5" />}>
      {children}
    </Suspense>
  );
}

const TABS = ["users", "visitors", "logs", "alerts", "reports"] as const;

/**
 * /admin: stats, users, live visitors, activity logs, alerts and community reports. The open tab
 * is `?tab=` (users when absent), so a shared link opens the same table (decision 0045).
 */
export function AdminPage() {
  const { t } = useTranslation("admin");
  const [params, setUrl] = useUrlState({ tab: "users" });
  const tab = readEnum(params, "tab", TABS, "users");
  return (
    <div className="container mx-auto flex w-full max-w-7xl flex-col gap-6 px-4 py-8">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("title")}</h1>
      <StatCards />
      <Tabs
        value={tab}
        onValueChange={(value) => setUrl({ tab: value })}
        className="flex flex-col gap-4"
      >
        <TabsList className="h-auto w-full justify-start sm:w-fit">
          <TabsTrigger value="users">{t("tabs.users")}</TabsTrigger>
          <TabsTrigger value="visitors">{t("tabs.visitors")}</TabsTrigger>
          <TabsTrigger value="logs">{t("tabs.logs")}</TabsTrigger>
          <TabsTrigger value="alerts">{t("tabs.alerts")}</TabsTrigger>
          <TabsTrigger value="reports">{t("tabs.reports")}</TabsTrigger>
        </TabsList>
        {/* Kept mounted: search, filters and page survive a look at another tab. */}
        <TabsContent value="users" forceMount className="data-[state=inactive]:hidden">
          <UsersTab />
        </TabsContent>
        <TabsContent value="visitors">
          <Later>
            <LiveVisitorsTab />
          </Later>
        </TabsContent>
        <TabsContent value="logs">
          <Later>
            <ActivityLogsTab />
          </Later>
        </TabsContent>
        <TabsContent value="alerts">
          <Later>
            <AlertsTab />
          </Later>
        </TabsContent>
        <TabsContent value="reports">
          <Later>
            <ReportsTab />
          </Later>
        </TabsContent>
      </Tabs>
    </div>
  );
}
