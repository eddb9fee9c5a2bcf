import { ExternalLinkIcon } from "lucide-react";
import { useFixedT } from "@/i18n/use-fixed-t";
import { Button } from "@/components/ui/button";
import type { MoverEntry } from "@domain/realtime";

/** Only http(s) pool links are opened; anything else counts as missing. */
function safeUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Opens the pool (or market) page in a new tab, or reads "N/A" when there is none. */
export function BuyLink({
  entry,
  labelClassName,
}: {
  entry: Pick<MoverEntry, "pool_url" | "symbol" | "exchange">;
  /** Classes of the word "Buy" (the table hides it where room is short; the link keeps its name). */
  labelClassName?: string;
}) {
  const { t } = useFixedT("dashboard");
  const url = safeUrl(entry.pool_url);
  if (!url) return <span className="text-sm text-muted-foreground">{t("table.notAvailable")}</span>;
  return (
    <Button asChild size="sm" variant="outline">
      <a
        href={url}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={t("table.buyOn", { symbol: entry.symbol, exchange: entry.exchange })}
      >
        <span className={labelClassName}>{t("table.buy")}</span>
        <ExternalLinkIcon aria-hidden="true" />
      </a>
    </Button>
  );
}
