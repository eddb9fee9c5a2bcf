import { MISSING_VALUE } from "@domain/format";
import { Price } from "@/components/price";

/** A USD price that keeps its digits, or "—" when there is none. */
export function PriceText({ price }: { price: number | null }) {
  if (price === null) return <span className="text-muted-foreground">{MISSING_VALUE}</span>;
  return <Price value={price} />;
}
