import { MuteSymbolMenu } from "@/features/alerts/components/mute-symbol-menu";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";

/** /dashboard: the dashboard, with the alerts feature's "Mute alerts" in each symbol's analysis. */
export function DashboardRoute() {
  return <DashboardPage symbolActions={(symbol) => <MuteSymbolMenu symbol={symbol} />} />;
}
