import { formatSignedPercent, isGain } from "@domain/format";
import { useFixedT } from "@/i18n/use-fixed-t";
import { cn } from "@/lib/utils";

/** A signed percent with 2 decimals: green above 0, otherwise red. */
export function PercentText({ pct, className }: { pct: number; className?: string }) {
  const { locale } = useFixedT("common");
  return (
    <span
      className={cn(
        "font-mono font-semibold tabular-nums",
        isGain(pct) ? "text-success" : "text-destructive",
        className,
      )}
    >
      {formatSignedPercent(pct, locale)}
    </span>
  );
}
