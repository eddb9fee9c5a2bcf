import { deepStrictEqual, ok, strictEqual as assertEquals } from "node:assert/strict";
import {
  alertEmail,
  type AlertItem,
  discordBody,
  formatPct,
  formatPrice,
  itemLine,
  type Locale,
  type MarketAlertPayload,
  startOfNextDay,
  telegramText,
  zoneOf,
} from "./messages.ts";

const links = { site: "https://app.example" };
const item = (i: number, pct = 12.345): AlertItem => ({
  instrumentId: i,
  symbol: `SYM${i}/USDT`,
  exchange: "Binance",
  direction: pct > 0 ? "pump" : "dump",
  pct,
  windowMinutes: 15,
  price: 1.2345,
  ts: "2026-11-24T23:30:00.000Z",
});
// Scanned at 23:30 UTC on 24 November: 00:30 on the 25th in Berlin and 08:30 in Tokyo, 18:30 on
// the 24th in New York.
const capped: MarketAlertPayload = {
  shape: "single",
  items: [item(1)],
  scannedAt: "2026-11-24T23:30:00.000Z",
  capReached: true,
  dailyCap: 10,
};
const settings = "https://app.example/dashboard/settings";

Deno.test("the cap resumes at the start of the user's next day, in their zone", () => {
  const at = new Date(capped.scannedAt);
  assertEquals(startOfNextDay(at, "Europe/Berlin").toISOString(), "2026-11-25T23:00:00.000Z");
  assertEquals(startOfNextDay(at, "America/New_York").toISOString(), "2026-11-25T05:00:00.000Z");
  assertEquals(startOfNextDay(at, "Asia/Tokyo").toISOString(), "2026-11-25T15:00:00.000Z");
  assertEquals(startOfNextDay(at, "UTC").toISOString(), "2026-11-25T00:00:00.000Z");
  // A day of 23 hours (Berlin's summer time starts on 29 March 2026).
  assertEquals(
    startOfNextDay(new Date("2026-03-28T23:30:00Z"), "Europe/Berlin").toISOString(),
    "2026-03-29T22:00:00.000Z",
  );
  assertEquals(zoneOf("Not/AZone"), "UTC");
  assertEquals(zoneOf(null), "UTC");
});

Deno.test("e-mail: the alert that reaches the cap is its own notice, in German and Berlin time", () => {
  const email = alertEmail(capped, "de", links, "Europe/Berlin");
  ok(email.subject.startsWith("Tageslimit von 10 Alarmen erreicht: SYM1/USDT stieg um"));
  deepStrictEqual(email.text.split("\n").slice(0, 4), [
    "Tageslimit von 10 Alarmen erreicht",
    "Heute keine weiteren Alarme bis 26.11.2026, 00:00 (Europe/Berlin).",
    `Das Limit ändern Sie in Ihren Alarmeinstellungen: ${settings}`,
    "",
  ]);
  ok(email.text.includes("SYM1/USDT"), "the alert it carries is in it");
  ok(email.html.includes("Heute keine weiteren Alarme bis 26.11.2026, 00:00 (Europe/Berlin)."));
  ok(
    email.html.includes(
      `<a href="${settings}">Das Limit ändern Sie in Ihren Alarmeinstellungen</a>`,
    ),
  );
  // An ordinary alert has none of it.
  const plain = alertEmail({ ...capped, capReached: undefined }, "de", links, "Europe/Berlin");
  ok(!plain.subject.includes("Tageslimit") && !plain.text.includes("Tageslimit"));
});

Deno.test("Discord: the cap notice is the first embed, in English and New York time", () => {
  const body = discordBody(capped, "en", links, "America/New_York");
  assertEquals(body.embeds.length, 2);
  // ICU versions differ in the space before "AM" (U+0020 or U+202F): compared as one.
  deepStrictEqual(
    {
      ...body.embeds[0]!,
      color: undefined,
      description: body.embeds[0]!.description?.replace(/\u202f/g, " "),
    },
    {
      title: "Daily cap of 10 alerts reached",
      url: settings,
      description: "No more alerts today until Nov 25, 2026, 12:00 AM (America/New_York).\n" +
        `[Change the cap in your alert settings](${settings})`,
      color: undefined,
      timestamp: "2026-11-24T23:30:00.000Z",
    },
  );
  ok(body.embeds[1]!.title.startsWith("SYM1/USDT rose"));
  // A capped digest: the notice, then the digest embed.
  const digest = discordBody(
    { ...capped, shape: "digest", items: [item(1), item(2), item(3)], total: 3 },
    "en",
    links,
    "America/New_York",
  );
  deepStrictEqual(digest.embeds.map((e) => e.title), [
    "Daily cap of 10 alerts reached",
    "3 symbols crossed your alert threshold",
  ]);
});

Deno.test("Telegram: the cap notice heads the message, in French and Tokyo time; Spanish too", () => {
  const text = telegramText(capped, "fr", links, "Asia/Tokyo");
  ok(
    text.startsWith(
      "⚠️ <b>Limite quotidienne de 10 alertes atteinte</b>\n" +
        "Plus d&#39;alertes aujourd&#39;hui jusqu&#39;au 26 nov. 2026, 00:00 (Asia/Tokyo).\n" +
        `<a href="${settings}">Modifiez la limite dans vos paramètres d&#39;alerte</a>\n\n<b>SYM1/USDT`,
    ),
    text,
  );
  const es = telegramText(capped, "es", links, "Europe/Berlin");
  ok(es.includes("No recibirás más alertas hoy hasta el 26 nov 2026, 0:00 (Europe/Berlin)."), es);
  ok(es.includes("Límite diario de 10 alertas alcanzado"));
  ok(
    telegramText({ ...capped, dailyCap: 1 }, "es", links).includes(
      "Límite diario de 1 alerta alcanzado",
    ),
  );
  assertEquals(
    alertEmail({ ...capped, dailyCap: 1 }, "en", links).text.split("\n")[0],
    "Daily cap of 1 alert reached",
  );
});

// ---- Numbers, prices and dates in the reader's language and zone (issue 28) --------------------

/** ICU versions differ in the space before AM/PM (U+0020 or U+202F): dates compare with one. */
const plainSpaces = (s: string) => s.replace(/\u202f(?=[AP]M)/g, " ");

Deno.test("moves and prices follow the reader's language", () => {
  const cases: [Locale, string, string, string, string][] = [
    ["en", "+12.35%", "-5.00%", "$1,234.57", "$0.0\u20881234"],
    ["de", "+12,35\u00a0%", "-5,00\u00a0%", "1.234,57\u00a0$", "0,0\u20881234\u00a0$"],
    ["fr", "+12,35\u00a0%", "-5,00\u00a0%", "1\u202f234,57\u00a0$US", "0,0\u20881234\u00a0$US"],
    ["es", "+12,35\u00a0%", "-5,00\u00a0%", "1234,57\u00a0US$", "0,0\u20881234\u00a0US$"],
  ];
  for (const [locale, up, down, price, tiny] of cases) {
    assertEquals(formatPct(12.345, locale), up, locale);
    assertEquals(formatPct(-5, locale), down, locale);
    assertEquals(formatPrice(1234.5678, locale), price, locale);
    // Four significant digits, however small.
    assertEquals(formatPrice(0.000000001234, locale), tiny, locale);
  }
});

Deno.test("an alert's time is in the reader's zone and language: four languages, three zones", () => {
  const quote: AlertItem = { ...item(1), price: 1234.5678, ts: "2026-11-24T23:30:05.000Z" };
  const expected: Record<Locale, Record<string, string>> = {
    en: {
      "Europe/Berlin": "Nov 25, 2026, 12:30:05 AM (Europe/Berlin)",
      "America/New_York": "Nov 24, 2026, 6:30:05 PM (America/New_York)",
      "Asia/Tokyo": "Nov 25, 2026, 8:30:05 AM (Asia/Tokyo)",
    },
    de: {
      "Europe/Berlin": "25.11.2026, 00:30:05 (Europe/Berlin)",
      "America/New_York": "24.11.2026, 18:30:05 (America/New_York)",
      "Asia/Tokyo": "25.11.2026, 08:30:05 (Asia/Tokyo)",
    },
    fr: {
      "Europe/Berlin": "25 nov. 2026, 00:30:05 (Europe/Berlin)",
      "America/New_York": "24 nov. 2026, 18:30:05 (America/New_York)",
      "Asia/Tokyo": "25 nov. 2026, 08:30:05 (Asia/Tokyo)",
    },
    es: {
      "Europe/Berlin": "25 nov 2026, 0:30:05 (Europe/Berlin)",
      "America/New_York": "24 nov 2026, 18:30:05 (America/New_York)",
      "Asia/Tokyo": "25 nov 2026, 8:30:05 (Asia/Tokyo)",
    },
  };
  for (const [locale, zones] of Object.entries(expected) as [Locale, Record<string, string>][]) {
    for (const [zone, time] of Object.entries(zones)) {
      assertEquals(
        plainSpaces(itemLine(quote, locale, links, zone).time),
        time,
        `${locale} ${zone}`,
      );
    }
  }
  // No zone in the profile: UTC.
  assertEquals(
    plainSpaces(itemLine(quote, "en", links).time),
    "Nov 24, 2026, 11:30:05 PM (UTC)",
  );
});

Deno.test("every channel's text carries the reader's formats", () => {
  const payload: MarketAlertPayload = {
    shape: "single",
    items: [{ ...item(1), price: 1234.5678 }],
    scannedAt: "2026-11-24T23:30:00.000Z",
  };
  const email = alertEmail(payload, "de", links, "Europe/Berlin");
  assertEquals(email.subject, "SYM1/USDT stieg um +12,35\u00a0% in 15 Min.");
  ok(
    email.text.includes(
      "Börse: Binance · Bewegung: +12,35\u00a0% (15 Min.) · Preis: 1.234,57\u00a0$ · Zeit: 25.11.2026, 00:30:00 (Europe/Berlin)",
    ),
    email.text,
  );
  const discord = discordBody(payload, "fr", links, "Asia/Tokyo").embeds[0]!;
  deepStrictEqual(discord.fields!.slice(1, 3).map((f) => f.value), [
    "+12,35\u00a0% (15 min)",
    "1\u202f234,57\u00a0$US",
  ]);
  const telegram = telegramText(payload, "es", links, "America/New_York");
  ok(
    telegram.includes("Precio: 1234,57\u00a0US$\n24 nov 2026, 18:30:00 (America/New_York)"),
    telegram,
  );
});

Deno.test("a DEX alert names its pool in every channel; a CEX alert names the exchange only", () => {
  const pool: AlertItem = {
    ...item(7),
    symbol: "SFP/WBNB",
    exchange: "PancakeSwap V3 (BNB Chain)",
    poolName: "SFP / WBNB 0.25%",
  };
  assertEquals(itemLine(pool, "en", links).venue, "PancakeSwap V3 (BNB Chain) · SFP / WBNB 0.25%");
  assertEquals(itemLine({ ...item(8), poolName: null }, "en", links).venue, "Binance");
  const payload: MarketAlertPayload = {
    shape: "single",
    items: [pool],
    scannedAt: "2026-11-24T23:30:00.000Z",
  };
  ok(alertEmail(payload, "fr", links).text.includes("SFP / WBNB 0.25%"));
  ok(telegramText(payload, "de", links).includes("SFP / WBNB 0.25%"));
  ok(JSON.stringify(discordBody(payload, "es", links)).includes("SFP / WBNB 0.25%"));
});
