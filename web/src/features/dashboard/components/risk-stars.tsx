import { StarIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";

/** The risk score as 5 stars, `score` of them filled (5 = lowest risk). */
export function RiskStars({ score }: { score: number }) {
  const { t } = useTranslation("dashboard");
  return (
    <span
      role="img"
      aria-label={t("analysis.risk.stars", { count: score })}
      className="flex gap-0.5"
    >
      {Array.from({ length: 5 }, (_, i) => (
        <StarIcon
          key={i}
          aria-hidden="true"
          data-filled={i < score}
          className={cn(
            "size-4",
            i < score ? "fill-amber-400 text-amber-400" : "text-muted-foreground/40",
          )}
        />
      ))}
    </span>
  );
}
