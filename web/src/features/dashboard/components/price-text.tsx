import { formatUsdPrice, MISSING_VALUE } from "@domain/format";
import { useTranslation } from "react-i18next";
import { priceDigits } from "../utils/format-market";

/** A USD price, or "—" when there is none. */
export function PriceText({ price }: { price: number | null }) {
  const { i18n } = useTranslation();
  if (price === null) return <span className="text-muted-foreground">{MISSING_VALUE}</span>;
  return (
    <span className="font-mono tabular-nums">
      {formatUsdPrice(price, i18n.resolvedLanguage ?? "en", priceDigits(price))}
    </span>
  );
}
