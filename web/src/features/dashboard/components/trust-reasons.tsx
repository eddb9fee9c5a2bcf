import { useFixedT } from "@/i18n/use-fixed-t";
import { formatList, formatUsdCompact } from "../utils/format-market";
import { type TrustEntry, type TrustReason, trustReasons, FLAG_KEYS } from "../utils/trust";

/** One reason as a sentence in the reader's language. */
export function useReasonText(): (reason: TrustReason) => string {
  const { t, locale } = useFixedT("dashboard");
  return (reason) => {
    switch (reason.kind) {
      case "flag":
        return t(`trust.flags.${FLAG_KEYS[reason.flag]}.long`);
      case "thin":
        return t("trust.thinHint");
      case "confirmed":
        return `${t("trust.confirmed", { count: reason.venues.length })}. ${t(
          "trust.confirmedList",
          {
            venues: formatList(reason.venues, locale),
          },
        )}`;
      case "unconfirmed":
        return t("trust.unconfirmed");
      case "liquidity":
        return t("trust.liquidityReason", { value: formatUsdCompact(reason.usd, locale) });
      case "volume":
        return t("trust.volumeReason", { value: formatUsdCompact(reason.usd, locale) });
    }
  };
}

/** Every reason behind a row's trust score, as sentences (the badge's card, the analysis). */
export function TrustReasons({ entry }: { entry: TrustEntry }) {
  const text = useReasonText();
  return (
    <ul className="flex list-disc flex-col gap-1 pl-4">
      {trustReasons(entry).map((reason) => (
        <li key={reason.kind === "flag" ? reason.flag : reason.kind}>{text(reason)}</li>
      ))}
    </ul>
  );
}
