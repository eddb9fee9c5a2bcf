/** "+12.34%" / "-5.00%": the alerts table's change (spec section 2). */
import { dateTimeFormat } from "@/lib/time-zone";
export function formatChange(pct: number): string {
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(2)}%`;
}

/** Euros without cents, in the current language. */
export function formatEuros(amount: number, language: string): string {
  return new Intl.NumberFormat(language, {
    style: "currency",
    currency: "EUR",
    maximumFractionDigits: 0,
  }).format(amount);
}

export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  return dateTimeFormat(language, { dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
}

export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return "";
  return dateTimeFormat(language, { dateStyle: "medium" }).format(new Date(iso));
}
