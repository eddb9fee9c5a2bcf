import { formatPrice } from "@domain/price-format";
import type { TFunction } from "i18next";

/**
 * A preview of the alert messages the delivery worker sends (supabase/functions/deliver-alerts/
 * messages.ts), built from the same texts (the `messages` namespace, decision 0059) and the same
 * formats: `Intl` percentages with two decimals and a sign, prices with four significant digits
 * (`@domain/price-format`), moments in the reader's language and zone with the zone named.
 */

export type MessageLocale = "de" | "en" | "fr" | "es";
const LOCALES: readonly MessageLocale[] = ["de", "en", "fr", "es"];

/** The worker's choice: the profile's language, English when it stores none. */
export function messageLocaleOf(value: string | null | undefined): MessageLocale {
  return LOCALES.includes(value as MessageLocale) ? (value as MessageLocale) : "en";
}

/** The worker's choice: the profile's zone when `Intl` knows it, else UTC. */
export function messageZoneOf(value: string | null | undefined): string {
  if (!value) return "UTC";
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value;
  } catch {
    return "UTC";
  }
}

export function previewPct(pct: number, locale: MessageLocale): string {
  return new Intl.NumberFormat(locale, {
    style: "percent",
    signDisplay: "always",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(pct / 100);
}

export function previewMoment(at: Date, locale: MessageLocale, zone: string): string {
  const format = new Intl.DateTimeFormat(locale, {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: zone,
  });
  return `${format.format(at)} (${zone})`;
}

export type PreviewItem = {
  symbol: string;
  exchange: string;
  direction: "pump" | "dump";
  pct: number;
  windowMinutes: number;
  price: number;
  ts: string;
};

export type PreviewLine = {
  title: string;
  /** "Venue: … · Move: … (…) · Price: … · Time: …", as the e-mail's text part has it. */
  details: string;
};

export type PreviewMessage = { heading: string; lines: PreviewLine[]; disclaimer: string };

/** The `messages` namespace's `t`, fixed to the recipient's language. */
export type MessagesT = TFunction<"messages">;

function line(t: MessagesT, item: PreviewItem, locale: MessageLocale, zone: string): PreviewLine {
  const pct = previewPct(item.pct, locale);
  const window =
    item.windowMinutes === 0
      ? t("window.seconds")
      : t("window.minutes", { minutes: item.windowMinutes });
  const title = t("alertTitle", {
    symbol: item.symbol,
    verb: t(`move.${item.direction}`),
    pct,
    window,
  });
  const details = [
    `${t("labels.venue")}: ${item.exchange}`,
    `${t("labels.move")}: ${pct} (${window})`,
    `${t("labels.price")}: ${formatPrice(item.price, locale)}`,
    `${t("labels.time")}: ${previewMoment(new Date(item.ts), locale, zone)}`,
  ].join(" · ");
  return { title, details };
}

/** A single alert (one symbol) or a digest (several), as the e-mail's text part reads. */
export function previewMessage(
  t: MessagesT,
  items: readonly PreviewItem[],
  locale: MessageLocale,
  zone: string,
): PreviewMessage {
  const lines = items.map((item) => line(t, item, locale, zone));
  const heading =
    items.length > 1 ? t("digestTitle", { count: String(items.length) }) : lines[0]!.title;
  return { heading, lines, disclaimer: t("disclaimer") };
}

/** Example moves in the user's window, at `now`: a large cap, a tiny price, and a fall. */
export function sampleItems(windowMinutes: number, now: number): PreviewItem[] {
  const ts = new Date(now).toISOString();
  return [
    {
      symbol: "BTC/USDT",
      exchange: "Binance",
      direction: "pump",
      pct: 12.345,
      windowMinutes,
      price: 65432.1,
      ts,
    },
    {
      symbol: "PEPE/USDT",
      exchange: "Bybit",
      direction: "pump",
      pct: 8.5,
      windowMinutes,
      price: 0.000001234,
      ts,
    },
    {
      symbol: "SOL/USD",
      exchange: "Coinbase",
      direction: "dump",
      pct: -6.75,
      windowMinutes,
      price: 142.5,
      ts,
    },
  ];
}
