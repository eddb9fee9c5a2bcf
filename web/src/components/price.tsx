import { formatPrice, formatPriceFull } from "@domain/price-format";
import { useFixedT } from "@/i18n/use-fixed-t";
import { cn } from "@/lib/utils";

type PriceProps = {
  value: number;
  className?: string;
};

/**
 * A USD price that keeps its digits (`formatPrice`: four significant digits, subscript zeros for
 * tiny prices) in the reader's language. When zeros are folded into a subscript, the full number
 * is the accessible name and the hover title.
 */
export function Price({ value, className }: PriceProps) {
  const { locale } = useFixedT("common");
  const shown = formatPrice(value, locale);
  const written = formatPriceFull(value, locale);
  const classes = cn("font-mono tabular-nums", className);
  if (shown === written) return <span className={classes}>{shown}</span>;
  return (
    <span className={classes} title={written} data-price={value}>
      <span aria-hidden="true">{shown}</span>
      <span className="sr-only">{written}</span>
    </span>
  );
}
