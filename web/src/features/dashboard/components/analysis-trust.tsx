import { useTranslation } from "react-i18next";
import { Card } from "@/components/ui/card";
import { type TrustEntry, trustLevel, trustOf } from "../utils/trust";
import { LiquidityText } from "./liquidity-text";
import { TrustReasons } from "./trust-reasons";

/**
 * The analysis' trust section (issue 26): the score, every reason spelled out, the venues the
 * move is confirmed on, the pool's name and where the move can be traded.
 */
export function AnalysisTrust({ entry }: { entry: TrustEntry }) {
  const { t } = useTranslation("dashboard");
  const trust = trustOf(entry);
  return (
    <Card className="gap-2 px-4 py-3" data-testid="analysis-trust">
      <h3 className="font-semibold">{t("trust.analysis.title")}</h3>
      {trust.trust_score === null ? (
        <p className="text-sm text-muted-foreground">{t("trust.noScore")}</p>
      ) : (
        <p className="text-sm font-semibold">
          {t("trust.analysis.score", {
            score: trust.trust_score,
            level: t(`trust.level.${trustLevel(trust.trust_score)}`),
          })}
        </p>
      )}
      {trust.pool_name && (
        <p className="text-sm">{t("trust.analysis.pool", { pool: trust.pool_name })}</p>
      )}
      <LiquidityText entry={entry} />
      <div className="text-sm">
        <TrustReasons entry={entry} />
      </div>
      <div className="text-sm">
        <h4 className="text-xs font-medium text-muted-foreground uppercase">
          {t("trust.analysis.venuesTitle")}
        </h4>
        {trust.confirmed_on.length > 0 ? (
          <ul className="mt-1 flex flex-wrap gap-1.5">
            {trust.confirmed_on.map((venue) => (
              <li key={venue} className="rounded-md border px-1.5 py-0.5 text-xs">
                {venue}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-muted-foreground">{t("trust.analysis.noVenues")}</p>
        )}
      </div>
    </Card>
  );
}
