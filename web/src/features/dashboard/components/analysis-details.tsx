import type { Analysis } from "@domain/analysis";
import { riskText } from "@domain/analysis";
import { formatSignedPercent } from "@domain/format";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card";
import { RiskStars } from "./risk-stars";

function Fact({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="gap-1 px-4 py-3">
      <h4 className="text-xs font-medium text-muted-foreground uppercase">{title}</h4>
      <div className="text-sm font-semibold">{children}</div>
    </Card>
  );
}

/** The analysis' cards: forecast, risk, momentum, volatility, liquidity, data points. */
export function AnalysisDetails({ analysis }: { analysis: Analysis }) {
  const { t, i18n } = useTranslation("dashboard");
  const pct = formatSignedPercent(analysis.forecastPct, i18n.resolvedLanguage ?? "en");

  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Fact title={t("analysis.forecast.title")}>
        <p>{t(`analysis.forecast.${analysis.forecast}`, { pct })}</p>
        <p className="text-xs font-normal text-muted-foreground">
          {t("analysis.forecast.confidence", { value: analysis.confidence })}
        </p>
      </Fact>
      <Fact title={t("analysis.risk.title")}>
        <div className="flex items-center gap-2">
          <RiskStars score={analysis.riskScore} />
          <span>{t(`analysis.risk.${riskText(analysis.riskScore)}`)}</span>
        </div>
      </Fact>
      <Fact title={t("analysis.momentum.title")}>
        {t(`analysis.momentum.${analysis.momentum}`)}
      </Fact>
      <Fact title={t("analysis.volatility.title")}>
        {t(`analysis.volatility.${analysis.volatility}`)}
      </Fact>
      <Fact title={t("analysis.liquidity.title")}>
        {t(`analysis.liquidity.${analysis.liquidityScore}`)}
      </Fact>
      <Fact title={t("analysis.data.title")}>
        {t("analysis.data.value", { count: analysis.dataPoints, timeframe: analysis.timeframe })}
      </Fact>
    </div>
  );
}
