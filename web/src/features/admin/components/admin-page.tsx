import { useTranslation } from "react-i18next";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useUrlState } from "@/hooks/use-url-state";
import { readEnum } from "@/lib/url-state";
import { ActivityLogsTab } from "./activity-logs-tab";
import { AlertsTab } from "./alerts-tab";
import { LiveVisitorsTab } from "./live-visitors-tab";
import { ReportsTab } from "./reports-tab";
import { StatCards } from "./stat-cards";
import { UsersTab } from "./users-tab";

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
          <LiveVisitorsTab />
        </TabsContent>
        <TabsContent value="logs">
          <ActivityLogsTab />
        </TabsContent>
        <TabsContent value="alerts">
          <AlertsTab />
        </TabsContent>
        <TabsContent value="reports">
          <ReportsTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
