import { useFixedT } from "@/i18n/use-fixed-t";
import { formatSpread, formatUsdCompact } from "../utils/format-market";
import { type TrustEntry, trustOf } from "../utils/trust";
import { StaleMark } from "./stale-mark";

/**
 * Where the move can be traded: pool liquidity (DEX), 24 h volume in USD and the spread where
 * the venue gives one, in the reader's short number form, and a "thin" mark below the floor.
 */
export function LiquidityText({ entry }: { entry: TrustEntry }) {
  const { t, locale } = useFixedT("dashboard");
  const trust = trustOf(entry);
  const parts: { key: string; short: string; full: string }[] = [];
  if (trust.liquidity_usd !== null) {
    const value = formatUsdCompact(trust.liquidity_usd, locale);
    parts.push({
      key: "liquidity",
      short: t("trust.liquidity", { value }),
      full: t("trust.liquidityFull", { value }),
    });
  }
  if (trust.volume_24h_usd !== null) {
    const value = formatUsdCompact(trust.volume_24h_usd, locale);
    parts.push({
      key: "volume",
      short: t("trust.volume", { value }),
      full: t("trust.volumeFull", { value }),
    });
  }
  if (trust.spread_pct !== null) {
    const value = formatSpread(trust.spread_pct, locale);
    parts.push({
      key: "spread",
      short: t("trust.spread", { value }),
      full: t("trust.spreadFull", { value }),
    });
  }
  return (
    <span className="flex flex-col text-xs whitespace-nowrap text-muted-foreground tabular-nums">
      {parts.length === 0 ? (
        <span>{t("trust.noFigures")}</span>
      ) : (
        parts.map((part) => (
          <span key={part.key} title={part.full}>
            {part.short}
          </span>
        ))
      )}
      {trust.thin && (
        <span data-testid="thin-mark">
          <StaleMark label={t("trust.thin")} hint={t("trust.thinHint")} />
        </span>
      )}
    </span>
  );
}
