import { hasProAnalytics } from "@domain/plans";
import { useTranslation } from "react-i18next";
import { UpgradePrompt } from "@/components/upgrade-prompt";
import { Card } from "@/components/ui/card";
import { useCurrentUser } from "@/hooks/use-current-user";
import { IndicatorPanes } from "./indicator-panes";
import { InsightsCards } from "./insights-cards";

/**
 * The analysis' Pro sections: for Pro and Enterprise the historical comparison, the analytics
 * cards and the additional indicators; for other plans an upgrade prompt in their place.
 */
export function ProAnalysis({ instrumentId, symbol }: { instrumentId: number; symbol: string }) {
  const { t } = useTranslation("dashboard");
  const { profile } = useCurrentUser();
  if (!profile) return null;
  if (
    !hasProAnalytics({
      plan: profile.plan,
      subscriptionActive: profile.subscription_active,
      banned: profile.banned,
    })
  ) {
    return (
      <UpgradePrompt title={t("pro.upgradeTitle")} description={t("pro.upgradeDescription")} />
    );
  }
  return (
    <Card className="gap-4 px-4 py-3" data-testid="pro-analysis">
      <InsightsCards instrumentId={instrumentId} />
      <IndicatorPanes instrumentId={instrumentId} symbol={symbol} />
    </Card>
  );
}
