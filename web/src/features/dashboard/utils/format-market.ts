import { ageLabel, numberFormat } from "@domain/format";
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

/** Each language's age labels as made ("seconds|12" → "12 s"): a few hundred at most. */
const quoteAgeLabels = new WeakMap<TFunction<"dashboard">, Map<string, string>>();

/**
 * A quote's age on the venue's clock: "2 s", "40 s", "3 min" (decision 0033). Each label is
 * translated once per language (by `t`) and then looked up: every age cell asks every second,
 * and a translation costs about 100 µs (decision 0106).
 */
export function formatQuoteAge(
  t: TFunction<"dashboard">,
  ts: string | number,
  now: number,
): string {
  const age = quoteAge(ts, now);
  let labels = quoteAgeLabels.get(t);
  if (!labels) {
    labels = new Map();
    quoteAgeLabels.set(t, labels);
  }
  const key = `${age.unit}|${age.value}`;
  let label = labels.get(key);
  if (label === undefined) {
    label = t(`quoteAge.${age.unit}`, { value: age.value });
    labels.set(key, label);
  }
  return label;
}

/** A duration in whole seconds as "2 s", "15 s", "2 min". */
export function formatSeconds(t: TFunction<"dashboard">, seconds: number): string {
  return seconds < 60 || seconds % 60 !== 0
    ? t("quoteAge.seconds", { value: seconds })
    : t("quoteAge.minutes", { value: seconds / 60 });
}

const compactUsd = new Map<string, Intl.NumberFormat>();

/** A dollar amount in the reader's short form: "$1.2M", "1,2 Mio. $", "$950". */
export function formatUsdCompact(value: number, locale: string): string {
  let format = compactUsd.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: "USD",
      notation: "compact",
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    });
    compactUsd.set(locale, format);
  }
  return format.format(value);
}

/** A spread in percent with up to 2 decimals in the reader's format: "0.05 %", "0,05 %". */
export function formatSpread(pct: number, locale: string): string {
  const minimumFractionDigits = pct < 1 ? 2 : 0;
  return numberFormat(
    locale,
    { style: "percent", maximumFractionDigits: 2, minimumFractionDigits },
    `spread|${minimumFractionDigits}`,
  ).format(pct / 100);
}

const listFormats = new Map<string, Intl.ListFormat>();

/** Names joined in the reader's language: "A, B and C", "A, B und C" (one format per language). */
export function formatList(items: readonly string[], locale: string): string {
  let format = listFormats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: "conjunction" });
    listFormats.set(locale, format);
  }
  return format.format(items);
}
