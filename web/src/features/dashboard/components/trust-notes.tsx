import { useFixedT } from "@/i18n/use-fixed-t";
import { type TrustEntry, trustOf, FLAG_KEYS } from "../utils/trust";
import { formatList } from "../utils/format-market";
import { HoverCard } from "./hover-card";

/**
 * Under the badge: "Confirmed on N venues" (the venues on hover, focus or tap, and in its
 * description) and each flag's short reason, never hidden.
 */
export function TrustNotes({ entry }: { entry: TrustEntry }) {
  const { t, locale } = useFixedT("dashboard");
  const trust = trustOf(entry);
  const venues = formatList(trust.confirmed_on, locale);
  return (
    <>
      {trust.confirmed_on.length > 0 && (
        <HoverCard
          className="text-left text-xs text-success underline decoration-dotted underline-offset-2"
          content={t("trust.confirmedList", { venues })}
        >
          {t("trust.confirmed", { count: trust.confirmed_on.length })}
        </HoverCard>
      )}
      {trust.flags.length > 0 && (
        <span
          data-testid="flag-notes"
          className="text-xs text-amber-700 dark:text-amber-400"
          title={trust.flags.map((flag) => t(`trust.flags.${FLAG_KEYS[flag]}.long`)).join(" ")}
        >
          <span className="sr-only">
            {t("trust.flagsLabel", {
              flags: trust.flags.map((flag) => t(`trust.flags.${FLAG_KEYS[flag]}.long`)).join(" "),
            })}
          </span>
          <span aria-hidden="true">
            {trust.flags.map((flag) => t(`trust.flags.${FLAG_KEYS[flag]}.short`)).join(" · ")}
          </span>
        </span>
      )}
    </>
  );
}
