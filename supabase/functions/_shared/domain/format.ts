/**
 * Display formatting for market data, shared by the SPA and the edge
 * functions (e-mail and chat alerts). Runtime-agnostic: only `Intl`.
 */

/** Shown in place of a number that is missing or not finite. */
export const MISSING_VALUE = "—";

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * One `Intl.NumberFormat` per locale and options, made on first use. `name` stands for the
 * options where a caller on a hot path (a few formats per dashboard row) has a cheaper key than
 * their JSON; such names never start with "{", so they cannot meet a JSON key.
 */
export function numberFormat(
  locale: string,
  options: Intl.NumberFormatOptions,
  name: string = JSON.stringify(options),
): Intl.NumberFormat {
  const key = `${locale}|${name}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, format);
  }
  return format;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

/** A move counts as a gain (shown green) only above zero; zero and below are red. */
export function isGain(pct: number): boolean {
  return pct > 0;
}

/**
 * Signed percent change with a fixed number of decimals (default 2):
 * `+12.34%`, `-3.20%`, `0.00%` in English; `+12,34 %` in German.
 * `pct` is already a percentage (12.34 means 12.34 %).
 */
export function formatSignedPercent(pct: number, locale = "en", fractionDigits = 2): string {
  if (!Number.isFinite(pct)) return MISSING_VALUE;
  // Named, not keyed by the options' JSON: a dashboard formats a few of these per row.
  return numberFormat(
    locale,
    {
      style: "percent",
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      signDisplay: "exceptZero",
    },
    `signed-percent|${fractionDigits}`,
  ).format(pct / 100);
}

/** A price in US dollars with a fixed number of decimals (default 4): `$1,234.5678`. */
export function formatUsdPrice(price: number, locale = "en", fractionDigits = 4): string {
  if (!Number.isFinite(price)) return MISSING_VALUE;
  return numberFormat(locale, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  }).format(price);
}

/** Clock time (hours, minutes, seconds) of a timestamp in the given locale and time zone. */
export function formatClockTime(
  ts: string | number | Date,
  locale = "en",
  timeZone?: string,
): string {
  const date = ts instanceof Date ? ts : new Date(ts);
  if (Number.isNaN(date.getTime())) return MISSING_VALUE;
  return dateFormat(locale, {
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}

export type AgeUnit = "seconds" | "minutes" | "hours" | "days";
export type AgeLabel = { unit: "now" } | { unit: AgeUnit; value: number };

/**
 * How long ago a timestamp was, as parts a caller translates:
 * "Now" under 10 s, then "N s ago", "N min ago", "N h ago", "N d ago".
 * Timestamps in the future count as now.
 */
export function ageLabel(ts: string | number | Date, now: number | Date = Date.now()): AgeLabel {
  const then = (ts instanceof Date ? ts : new Date(ts)).getTime();
  const current = now instanceof Date ? now.getTime() : now;
  const seconds = Math.floor((current - then) / 1000);
  if (!Number.isFinite(seconds) || seconds < 10) return { unit: "now" };
  if (seconds < 60) return { unit: "seconds", value: seconds };
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: "minutes", value: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "hours", value: hours };
  return { unit: "days", value: Math.floor(hours / 24) };
}
