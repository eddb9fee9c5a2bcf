import { EXCHANGE_SELECTIONS, type ExchangeSelection } from "@domain/market";

/**
 * `profiles.selected_exchanges` as the SPA uses it: the known values only, once each, in the
 * order of `EXCHANGE_SELECTIONS`. Without a stored list, all three (the column's default).
 */
export function exchangeSelectionsOf(
  stored: readonly string[] | null | undefined,
): ExchangeSelection[] {
  if (!stored) return [...EXCHANGE_SELECTIONS];
  return EXCHANGE_SELECTIONS.filter((value) => stored.includes(value));
}

/**
 * Each value's key segment in the translations (camelCase): `dashboard:exchanges.<segment>`,
 * `settings:exchanges.options.<segment>`.
 */
export const EXCHANGE_LABEL_KEYS = {
  coinbase: "coinbase",
  dex: "dex",
  "cex-major": "cexMajor",
} as const satisfies Record<ExchangeSelection, string>;
