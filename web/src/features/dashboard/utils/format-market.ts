import { ageLabel } from "@domain/format";
import { windowLabel } from "@domain/plans";
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
