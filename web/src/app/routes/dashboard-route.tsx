import { lazy, Suspense } from "react";
import { DashboardPage } from "@/features/dashboard/components/dashboard-page";

// "Mute alerts" sits inside a symbol's analysis (itself loaded on demand): it loads with it, not
// with the list (it brings the alerts feature's schemas and a menu).
const MuteSymbolMenu = lazy(() =>
  import("@/features/alerts/components/mute-symbol-menu").then((m) => ({
    default: m.MuteSymbolMenu,
  })),
);

/** /dashboard: the dashboard, with the alerts feature's "Mute alerts" in each symbol's analysis. */
export function DashboardRoute() {
  return (
    <DashboardPage
      symbolActions={(symbol) => (
        <Suspense fallback={null}>
          <MuteSymbolMenu symbol={symbol} />
        </Suspense>
      )}
    />
  );
}
