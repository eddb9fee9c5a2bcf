import { useFixedT } from "@/i18n/use-fixed-t";
import { cn } from "@/lib/utils";
import { type TrustEntry, trustLevel, trustOf } from "../utils/trust";
import { HoverCard } from "./hover-card";
import { TrustReasons } from "./trust-reasons";

const levelClass = {
  high: "border-success/50 text-success",
  medium: "border-amber-500/60 text-amber-700 dark:text-amber-400",
  low: "border-destructive/60 text-destructive",
} as const;

/** The row's trust score (0–100) as a small badge; its reasons on hover, focus or tap. */
export function TrustBadge({ entry }: { entry: TrustEntry }) {
  const { t } = useFixedT("dashboard");
  const score = trustOf(entry).trust_score;
  if (score === null) {
    return <span className="text-xs text-muted-foreground">{t("trust.noScore")}</span>;
  }
  const level = trustLevel(score);
  return (
    <HoverCard
      label={t("trust.badgeLabel", { score, level: t(`trust.level.${level}`) })}
      className={cn(
        "inline-flex min-w-9 justify-center rounded-md border px-1.5 py-0.5 font-mono text-xs font-semibold tabular-nums",
        levelClass[level],
      )}
      content={
        <>
          <p className="mb-1 font-semibold">{t("trust.reasonsTitle")}</p>
          <TrustReasons entry={entry} />
        </>
      }
    >
      {score}
    </HoverCard>
  );
}
