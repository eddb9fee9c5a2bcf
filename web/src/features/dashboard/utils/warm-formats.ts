import { formatSignedPercent } from "@domain/format";
import { formatPrice, formatPriceFull } from "@domain/price-format";
import type { TFunction } from "i18next";
import { formatList, formatSpread, formatUsdCompact } from "./format-market";

/**
 * The formats a card or row uses, each made once: the first `Intl.NumberFormat` of a kind loads
 * the engine's locale data (15–60 ms on a slowed phone). Made one at a time while the rows are
 * read, each in an idle moment of its own, they are not made in the middle of the rows' render.
 */
export function rowFormatSteps(locale: string, t: TFunction<"dashboard">): (() => unknown)[] {
  return [
    () => formatSignedPercent(1.5, locale),
    () => formatPrice(1.2345, locale),
    () => formatPriceFull(0.00000001234, locale),
    () => formatPrice(0.00000001234, locale),
    () => formatUsdCompact(1234567, locale),
    () => formatSpread(0.5, locale),
    () => formatSpread(1.5, locale),
    () => formatList(["A", "B"], locale),
    // i18next's plural rules of the language (the cards' "Confirmed on N venues").
    () => t("trust.confirmed", { count: 2 }),
  ];
}

/**
 * Runs `steps` one per call of `schedule` (an idle callback); returns the cancel of the pending one.
 */
export function runStepsWhenIdle(
  steps: readonly (() => unknown)[],
  schedule: (run: () => void) => () => void,
): () => void {
  let cancel = () => {};
  const next = (i: number) => {
    if (i >= steps.length) return;
    cancel = schedule(() => {
      steps[i]!();
      next(i + 1);
    });
  };
  next(0);
  return () => cancel();
}
