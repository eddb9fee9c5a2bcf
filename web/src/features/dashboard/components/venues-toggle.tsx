import { ChevronDownIcon } from "lucide-react";
import { useFixedT } from "@/i18n/use-fixed-t";
import { cn } from "@/lib/utils";

type VenuesToggleProps = {
  asset: string;
  /** How many other venues the asset moved on (behind the expander). */
  count: number;
  expanded: boolean;
  /** The element that lists them (rows or cards). */
  controls: string;
  onToggle: () => void;
};

/** "+2 venues": opens or closes the same asset's other venues under its lead row. */
export function VenuesToggle({ asset, count, expanded, controls, onToggle }: VenuesToggleProps) {
  const { t } = useFixedT("dashboard");
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls={controls}
      aria-label={t("trust.venuesLabel", { asset, count })}
      onClick={onToggle}
      className="inline-flex items-center gap-0.5 rounded-sm text-xs font-normal whitespace-nowrap text-primary underline-offset-2 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      {t("trust.venues", { count })}
      <ChevronDownIcon
        aria-hidden="true"
        className={cn("size-3 transition-transform", expanded && "rotate-180")}
      />
    </button>
  );
}
