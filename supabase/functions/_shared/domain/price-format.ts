/**
 * Prices that keep their digits: every price shown as text keeps at least four significant
 * digits, and tiny prices use the subscript-zero notation DEX traders know (`$0.0₈1234` is
 * $0.000000001234: a zero, the decimal separator, a zero and, in subscript, how many zeros
 * follow the separator before the digits). Numbers follow the reader's locale through `Intl`
 * (`0,0₈1234 $` in German). `formatPriceFull` gives the same price written out, for the
 * accessible name and the hover title.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 * No Deno, Node or DOM globals, no dependencies.
 */

import { MISSING_VALUE } from "./format.ts";

/** Significant digits every price keeps. */
export const PRICE_SIGNIFICANT_DIGITS = 4;
/** Prices of 1 and more keep at least this many decimals (`$65,432.10`). */
export const PRICE_MIN_DECIMALS = 2;
/** From this many zeros after the decimal separator on, the zeros are written as a subscript. */
export const SUBSCRIPT_FROM_ZEROS = 4;

export type PriceFormatOptions = {
  /** With the dollar sign (default) or as a bare number (chart axes). */
  currency?: boolean;
};

const SUBSCRIPT_DIGITS = ["₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"];
const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, currency: boolean, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${currency}|${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      ...(currency ? { style: "currency", currency: "USD" } : {}),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formats.set(key, format);
  }
  return format;
}

/** `8` → `₈`, `12` → `₁₂`. */
export function subscriptNumber(value: number): string {
  return String(Math.trunc(Math.abs(value)))
    .split("")
    .map((digit) => SUBSCRIPT_DIGITS[Number(digit)])
    .join("");
}

type PriceShape =
  /** A price written with `decimals` decimals. */
  | { kind: "plain"; decimals: number }
  /** A tiny price: `zeros` zeros after the separator, then the significant `digits`. */
  | { kind: "tiny"; zeros: number; digits: string; decimals: number };

/**
 * How a price is written: with enough decimals for four significant digits (at least two), or,
 * below 0.0001, as zeros and digits for the subscript notation. Rounding to four significant
 * digits happens first, so 0.000099996 is written as 0.0001000, not as 0.0₄10000.
 */
export function priceShape(price: number): PriceShape {
  const size = Math.abs(price);
  if (size === 0) return { kind: "plain", decimals: PRICE_MIN_DECIMALS };
  const [mantissa, exp] = size.toExponential(PRICE_SIGNIFICANT_DIGITS - 1).split("e");
  const exponent = Number(exp);
  if (exponent >= 0) {
    return {
      kind: "plain",
      decimals: Math.max(PRICE_MIN_DECIMALS, PRICE_SIGNIFICANT_DIGITS - 1 - exponent),
    };
  }
  const zeros = -exponent - 1;
  const decimals = zeros + PRICE_SIGNIFICANT_DIGITS;
  if (zeros < SUBSCRIPT_FROM_ZEROS) return { kind: "plain", decimals };
  return { kind: "tiny", zeros, digits: mantissa.replace(".", ""), decimals };
}

/**
 * A price as shown on screen, in exports and in messages: `$65,432.10`, `$1.234`, `$0.01234`,
 * `$0.0₈1234` in English; `65.432,10 $`, `0,0₈1234 $` in German. "—" when it is not finite.
 */
export function formatPrice(
  price: number,
  locale = "en",
  options: PriceFormatOptions = {},
): string {
  if (!Number.isFinite(price)) return MISSING_VALUE;
  const currency = options.currency ?? true;
  const shape = priceShape(price);
  if (shape.kind === "plain") return numberFormat(locale, currency, shape.decimals).format(price);
  // Let Intl place the sign, the currency and the separator around a stand-in fraction, then put
  // the zero, the subscript and the digits where the fraction was.
  const tiny = `0${subscriptNumber(shape.zeros)}${shape.digits}`;
  return numberFormat(locale, currency, 1)
    .formatToParts(price < 0 ? -0.1 : 0.1)
    .map((part) => (part.type === "fraction" ? tiny : part.value))
    .join("");
}

/**
 * The same price written out in full (`$0.000000001234`), for the accessible name and the
 * hover title of a price shown with `formatPrice`. "—" when it is not finite.
 */
export function formatPriceFull(
  price: number,
  locale = "en",
  options: PriceFormatOptions = {},
): string {
  if (!Number.isFinite(price)) return MISSING_VALUE;
  return numberFormat(locale, options.currency ?? true, priceShape(price).decimals).format(price);
}
