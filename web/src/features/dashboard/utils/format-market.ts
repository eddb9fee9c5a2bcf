import { ageLabel } from "@domain/format";
import { windowLabel } from "@domain/plans";
import { quoteAge } from "@domain/quote-age";
import type { TFunction } from "i18next";

/** "Now", "12s ago", "3 min ago", "2h ago", "1d ago" in the current language. */
export function formatAge(t: TFunction<"dashboard">, ts: string, now: number): string {
  const label = ageLabel(ts, now);
  return label.unit === "now" ? t("age.now") : t(`age.${label.unit}`, { value: label.value });
}

/** A window's short name: "15 min", "10 s". */
export function formatWindowShort(t: TFunction<"dashboard">, minutes: number): string {
  const label = windowLabel(minutes);
  return t(`windowShort.${label.unit}`, { count: label.count });
}

/** A quote's age on the venue's clock: "2 s", "40 s", "3 min" (decision 0033). */
export function formatQuoteAge(t: TFunction<"dashboard">, ts: string, now: number): string {
  const age = quoteAge(ts, now);
  return t(`quoteAge.${age.unit}`, { value: age.value });
}

/** A duration in whole seconds as "2 s", "15 s", "2 min". */
export function formatSeconds(t: TFunction<"dashboard">, seconds: number): string {
  return seconds < 60 || seconds % 60 !== 0
    ? t("quoteAge.seconds", { value: seconds })
    : t("quoteAge.minutes", { value: seconds / 60 });
}
