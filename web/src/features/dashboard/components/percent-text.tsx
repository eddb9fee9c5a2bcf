import { formatSignedPercent, isGain } from "@domain/format";
import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";

/** A signed percent with 2 decimals: green above 0, otherwise red. */
export function PercentText({ pct, className }: { pct: number; className?: string }) {
  const { i18n } = useTranslation();
  return (
    <span
      className={cn(
        "font-mono font-semibold tabular-nums",
        isGain(pct) ? "text-success" : "text-destructive",
        className,
      )}
    >
      {formatSignedPercent(pct, i18n.resolvedLanguage ?? "en")}
    </span>
  );
}
