import { formatPrice as formatPriceFor } from "../_shared/domain/price-format.ts";
import { translate } from "../_shared/i18n/messages.ts";

// What an outbox job says: the e-mail (subject, text, HTML), the Discord embeds and the Telegram
// text of a market alert or a digest, and the ticket e-mails, in the recipient's language
// (de, en, fr, es; English when the profile stores none). The texts themselves are the JSON files
// in `_shared/i18n/<lng>/messages.json`, which the SPA's i18n loads too (decision 0059).

export type Locale = "de" | "en" | "fr" | "es";
export const LOCALES: readonly Locale[] = ["de", "en", "fr", "es"];

export function localeOf(value: string | null | undefined): Locale {
  return LOCALES.includes(value as Locale) ? (value as Locale) : "en";
}

export interface AlertItem {
  instrumentId: number;
  symbol: string;
  exchange: string;
  direction: "pump" | "dump";
  pct: number;
  windowMinutes: number;
  price: number;
  ts: string;
  /** A DEX move's pool, by its own name with the fee tier (`SFP / WBNB 0.25%`); null for CEX. */
  poolName?: string | null;
}

export interface MarketAlertPayload {
  shape: "single" | "digest";
  items: AlertItem[];
  scannedAt: string;
  /** How many symbols crossed (a digest lists the largest moves only; the rest are counted). */
  total?: number;
  unsubscribeToken?: string;
  /** This message reaches the user's daily cap: it carries the one "cap reached" notice. */
  capReached?: boolean;
  /** The cap that was reached (alert messages a day). */
  dailyCap?: number;
}

/** Symbols in the alert, listed or not. */
function totalOf(payload: MarketAlertPayload): number {
  return Math.max(payload.total ?? 0, payload.items.length);
}

export interface TicketPayload {
  ticketId: string;
  ticketNumber: number;
  subject: string;
  status: string;
  previousStatus?: string;
  excerpt?: string;
}

/** An Enterprise ticket past its first-response target (to each admin; decision 0036). */
export interface TicketOverduePayload {
  ticketId: string;
  ticketNumber: number;
  subject: string;
  dueAt: string;
}

export interface Links {
  /** The SPA's origin (SITE_URL), e.g. https://moverscan.app */
  site: string;
  /** The one-click unsubscribe endpoint (List-Unsubscribe, RFC 8058), without the token. */
  unsubscribeEndpoint?: string;
}

/** The texts of one language (`_shared/i18n/<lng>/messages.json`, shared with the SPA). */
function textsFor(locale: Locale) {
  const t = (key: string, values?: Record<string, string | number>) =>
    translate(locale, key, values);
  return {
    pump: t("move.pump"),
    dump: t("move.dump"),
    window: (w: number) => (w === 0 ? t("window.seconds") : t("window.minutes", { minutes: w })),
    alertTitle: (symbol: string, verb: string, pct: string, window: string) =>
      t("alertTitle", { symbol, verb, pct, window }),
    digestTitle: (count: number) => t("digestTitle", { count: String(count) }),
    venue: t("labels.venue"),
    move: t("labels.move"),
    price: t("labels.price"),
    time: t("labels.time"),
    analysis: t("links.analysis"),
    mute: t("links.mute"),
    unsubscribe: t("links.unsubscribe"),
    settings: t("links.settings"),
    capTitle: (count: number) => t("cap.title", { count }),
    capUntil: (until: string) => t("cap.until", { until }),
    capChange: t("cap.change"),
    disclaimer: t("disclaimer"),
    ticketReplySubject: (number: number) => t("ticket.replySubject", { number }),
    ticketReplyIntro: (number: number, subject: string) =>
      t("ticket.replyIntro", { number, subject }),
    ticketStatusSubject: (number: number, status: string) =>
      t("ticket.statusSubject", { number, status }),
    ticketStatusIntro: (number: number, subject: string, status: string) =>
      t("ticket.statusIntro", { number, subject, status }),
    ticketOverdueSubject: (number: number) => t("ticket.overdueSubject", { number }),
    ticketOverdueIntro: (number: number, subject: string, due: string) =>
      t("ticket.overdueIntro", { number, subject, due }),
    ticketOpen: t("ticket.open"),
    // The database's ticket statuses (snake_case) under the files' camelCase keys.
    status: {
      open: t("ticket.status.open"),
      in_progress: t("ticket.status.inProgress"),
      resolved: t("ticket.status.resolved"),
      closed: t("ticket.status.closed"),
    } as Record<string, string>,
  };
}

const T = Object.fromEntries(LOCALES.map((locale) => [locale, textsFor(locale)])) as Record<
  Locale,
  ReturnType<typeof textsFor>
>;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A move in the reader's language, two decimals and the sign always: `+12.35%` (en),
 * `+12,35 %` (de, fr, es; the space is the one `Intl` puts there).
 */
export function formatPct(pct: number, locale: Locale = "en"): string {
  let format = percentFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "percent",
      signDisplay: "always",
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    percentFormats.set(locale, format);
  }
  return format.format(pct / 100);
}

/**
 * A price in the reader's language with at least four significant digits (the SPA's formatter,
 * `_shared/domain/price-format.ts`): `$1.235`, `$65,432.10`, `$0.0₈1234`; `1,235 $` in German.
 */
export function formatPrice(price: number, locale: Locale = "en"): string {
  return formatPriceFor(price, locale);
}

function trimSlash(s: string): string {
  return s.replace(/\/+$/, "");
}

export function analysisUrl(links: Links, symbol: string): string {
  return `${trimSlash(links.site)}/dashboard?symbol=${encodeURIComponent(symbol)}`;
}

export function muteUrl(links: Links, symbol: string, minutes = 60): string {
  return `${trimSlash(links.site)}/dashboard/settings?mute=${
    encodeURIComponent(symbol)
  }&minutes=${minutes}`;
}

export function unsubscribePageUrl(links: Links, token: string): string {
  return `${trimSlash(links.site)}/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
}

export function ticketUrl(links: Links, ticketId: string): string {
  return `${trimSlash(links.site)}/support/ticket/${encodeURIComponent(ticketId)}`;
}

export function settingsUrl(links: Links): string {
  return `${trimSlash(links.site)}/dashboard/settings`;
}

// Building an Intl format costs far more than using one (a digest formats a moment per item,
// and the worker renders thousands of messages a scan), so each is built once and kept: one per
// zone for the check below, one per language, zone and style for moments.
const knownZones = new Map<string, string>();

/** An IANA zone `Intl` knows (profiles.time_zone is checked by the database), else UTC. */
export function zoneOf(value: string | null | undefined): string {
  if (!value) return "UTC";
  let zone = knownZones.get(value);
  if (zone === undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: value });
      zone = value;
    } catch {
      zone = "UTC";
    }
    // Bounded: IANA has a few hundred zones; anything past that is not kept.
    if (knownZones.size < 1000) knownZones.set(value, zone);
  }
  return zone;
}

const wallFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall clock in `zone` at `ms`, as the UTC milliseconds of the same date and time fields. */
function wallClock(ms: number, zone: string): number {
  let format = wallFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallFormats.set(zone, format);
  }
  const f: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) f[part.type] = Number(part.value);
  return Date.UTC(f.year!, f.month! - 1, f.day!, f.hour!, f.minute!, f.second!);
}

/**
 * The start of the day after `at`'s day in `zone` (when a daily cap counted in the user's day
 * starts again; the database counts `(scanned_at at time zone time_zone)::date`).
 */
export function startOfNextDay(at: Date, zone: string): Date {
  const wall = new Date(wallClock(at.getTime(), zone));
  const target = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1);
  const offset = (ms: number) => wallClock(ms, zone) - Math.floor(ms / 1000) * 1000;
  const guess = target - offset(target);
  return new Date(target - offset(guess));
}

const momentFormats = new Map<string, Intl.DateTimeFormat>();

/** A moment for the reader: date and time in their language and zone, the zone named. */
export function formatMoment(
  at: Date,
  locale: Locale,
  zone: string,
  timeStyle: "short" | "medium" = "short",
): string {
  const key = `${locale}|${zone}|${timeStyle}`;
  let format = momentFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle, timeZone: zone });
    momentFormats.set(key, format);
  }
  return `${format.format(at)} (${zone})`;
}

/** The "cap reached" notice a message carries, or null. */
export interface CapNotice {
  title: string;
  until: string;
  change: string;
  settings: string;
}

export function capNotice(
  payload: MarketAlertPayload,
  locale: Locale,
  links: Links,
  zone: string,
): CapNotice | null {
  if (payload.capReached !== true) return null;
  const t = T[locale];
  const cap = Number(payload.dailyCap);
  const resumes = startOfNextDay(new Date(payload.scannedAt), zone);
  return {
    // enqueue_alerts always sets dailyCap beside capReached (profiles.alert_daily_cap, 1-500).
    title: t.capTitle(cap),
    until: t.capUntil(formatMoment(resumes, locale, zone)),
    change: t.capChange,
    settings: settingsUrl(links),
  };
}

export interface ItemLine {
  title: string;
  pct: string;
  window: string;
  venue: string;
  price: string;
  time: string;
  analysis: string;
  mute: string;
}

export function itemLine(item: AlertItem, locale: Locale, links: Links, zone = "UTC"): ItemLine {
  const t = T[locale];
  const pct = formatPct(Number(item.pct), locale);
  const window = t.window(item.windowMinutes);
  return {
    title: t.alertTitle(item.symbol, t[item.direction], pct, window),
    pct,
    window,
    // A DEX move names its pool: two pools of one pair on one DEX differ only there.
    venue: item.poolName ? `${item.exchange} · ${item.poolName}` : item.exchange,
    price: formatPrice(Number(item.price), locale),
    // The quote's time to the second, in the reader's zone.
    time: formatMoment(new Date(item.ts), locale, zone, "medium"),
    analysis: analysisUrl(links, item.symbol),
    mute: muteUrl(links, item.symbol),
  };
}

export interface Email {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

function layoutHtml(body: string, footer: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#111;max-width:640px">${body}<hr style="border:none;border-top:1px solid #ddd"><p style="font-size:12px;color:#666">${footer}</p></body></html>`;
}

/** A market alert (one symbol) or digest (several) as an e-mail with one-click unsubscribe. */
export function alertEmail(
  payload: MarketAlertPayload,
  locale: Locale,
  links: Links,
  zone = "UTC",
): Email {
  const t = T[locale];
  const lines = payload.items.map((i) => itemLine(i, locale, links, zone));
  const total = totalOf(payload);
  const heading = payload.shape === "digest" || total > 1 ? t.digestTitle(total) : lines[0]!.title;
  const cap = capNotice(payload, locale, links, zone);
  const subject = cap ? `${cap.title}: ${heading}` : heading;
  const unlisted = total - lines.length;
  const token = payload.unsubscribeToken;
  const unsubscribePage = token ? unsubscribePageUrl(links, token) : undefined;
  const text = [
    ...(cap ? [cap.title, cap.until, `${cap.change}: ${cap.settings}`, ""] : []),
    heading,
    "",
    ...lines.flatMap((l) => [
      l.title,
      `  ${t.venue}: ${l.venue} · ${t.move}: ${l.pct} (${l.window}) · ${t.price}: ${l.price} · ${t.time}: ${l.time}`,
      `  ${t.analysis}: ${l.analysis}`,
      `  ${t.mute}: ${l.mute}`,
      "",
    ]),
    ...(unlisted > 0 ? [`… +${unlisted}`, ""] : []),
    t.disclaimer,
    ...(unsubscribePage ? [`${t.unsubscribe}: ${unsubscribePage}`] : []),
  ].join("\n");
  const rows = lines.map((l) =>
    `<tr><td style="padding:6px 8px"><strong>${escapeHtml(l.title)}</strong><br>${
      escapeHtml(t.venue)
    }: ${escapeHtml(l.venue)} · ${escapeHtml(t.price)}: ${escapeHtml(l.price)} · ${
      escapeHtml(l.time)
    }<br><a href="${escapeHtml(l.analysis)}">${escapeHtml(t.analysis)}</a> · <a href="${
      escapeHtml(l.mute)
    }">${escapeHtml(t.mute)}</a></td></tr>`
  ).join("");
  const capHtml = cap
    ? `<div style="border:1px solid #f59e0b;border-radius:6px;padding:8px 12px;margin-bottom:12px"><strong>${
      escapeHtml(cap.title)
    }</strong><br>${escapeHtml(cap.until)}<br><a href="${escapeHtml(cap.settings)}">${
      escapeHtml(cap.change)
    }</a></div>`
    : "";
  const html = layoutHtml(
    `${capHtml}<h2 style="font-size:18px">${escapeHtml(heading)}</h2><table>${rows}</table>${
      unlisted > 0 ? `<p>… +${unlisted}</p>` : ""
    }`,
    `${escapeHtml(t.disclaimer)}${
      unsubscribePage
        ? ` · <a href="${escapeHtml(unsubscribePage)}">${escapeHtml(t.unsubscribe)}</a>`
        : ""
    }`,
  );
  const headers: Record<string, string> = {};
  if (token && links.unsubscribeEndpoint) {
    headers["List-Unsubscribe"] = `<${links.unsubscribeEndpoint}?token=${
      encodeURIComponent(token)
    }>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  }
  return { subject, text, html, headers };
}

/** A ticket e-mail: an admin's reply or a status change. */
export function ticketEmail(
  kind: "ticket_reply" | "ticket_status",
  payload: TicketPayload,
  locale: Locale,
  links: Links,
): Email {
  const t = T[locale];
  const status = t.status[payload.status] ?? payload.status;
  const url = ticketUrl(links, payload.ticketId);
  const subject = kind === "ticket_reply"
    ? t.ticketReplySubject(payload.ticketNumber)
    : t.ticketStatusSubject(payload.ticketNumber, status);
  const intro = kind === "ticket_reply"
    ? t.ticketReplyIntro(payload.ticketNumber, payload.subject)
    : t.ticketStatusIntro(payload.ticketNumber, payload.subject, status);
  const quote = kind === "ticket_reply" && payload.excerpt ? payload.excerpt : "";
  const text = [intro, ...(quote ? ["", quote] : []), "", `${t.ticketOpen}: ${url}`].join("\n");
  const html = layoutHtml(
    `<p>${escapeHtml(intro)}</p>${
      quote
        ? `<blockquote style="border-left:3px solid #ccc;margin:0;padding:4px 12px;white-space:pre-wrap">${
          escapeHtml(quote)
        }</blockquote>`
        : ""
    }<p><a href="${escapeHtml(url)}">${escapeHtml(t.ticketOpen)}</a></p>`,
    "MoverScan",
  );
  return { subject, text, html, headers: {} };
}

/** To an admin: an Enterprise ticket has passed its first-response target unanswered. */
export function ticketOverdueEmail(
  payload: TicketOverduePayload,
  locale: Locale,
  links: Links,
  zone = "UTC",
): Email {
  const t = T[locale];
  const url = ticketUrl(links, payload.ticketId);
  const due = formatMoment(new Date(payload.dueAt), locale, zone);
  const subject = t.ticketOverdueSubject(payload.ticketNumber);
  const intro = t.ticketOverdueIntro(payload.ticketNumber, payload.subject, due);
  const text = [intro, "", `${t.ticketOpen}: ${url}`].join("\n");
  const html = layoutHtml(
    `<p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(url)}">${
      escapeHtml(t.ticketOpen)
    }</a></p>`,
    "MoverScan",
  );
  return { subject, text, html, headers: {} };
}

// ---- Discord --------------------------------------------------------------------------------

export const DISCORD_LIMITS = {
  title: 256,
  description: 4096,
  embeds: 10,
  fieldName: 256,
  fieldValue: 1024,
  fields: 25,
  footer: 2048,
  total: 6000,
} as const;

export interface DiscordEmbed {
  title: string;
  url?: string;
  description?: string;
  color?: number;
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  footer?: { text: string };
}

function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function embedSize(e: DiscordEmbed): number {
  return e.title.length + (e.description?.length ?? 0) + (e.footer?.text.length ?? 0) +
    (e.fields ?? []).reduce((a, f) => a + f.name.length + f.value.length, 0);
}

/**
 * The webhook body: one embed per symbol (a single alert) or one digest embed listing every
 * symbol, always within Discord's limits (title 256, description 4,096, 10 embeds, 6,000 in all).
 */
export function discordBody(
  payload: MarketAlertPayload,
  locale: Locale,
  links: Links,
  zone = "UTC",
): { content: string; embeds: DiscordEmbed[]; allowed_mentions: { parse: string[] } } {
  const t = T[locale];
  const lines = payload.items.map((i) => ({ item: i, line: itemLine(i, locale, links, zone) }));
  const cap = capNotice(payload, locale, links, zone);
  // The cap notice is the first embed: the alerts it carries follow (at most 9 of them).
  const capEmbed: DiscordEmbed[] = cap
    ? [{
      title: clip(cap.title, DISCORD_LIMITS.title),
      url: cap.settings,
      description: `${cap.until}\n[${cap.change}](${cap.settings})`,
      color: 0xf59e0b,
      timestamp: new Date(payload.scannedAt).toISOString(),
    }]
    : [];
  let embeds: DiscordEmbed[];
  if (payload.shape === "single" && lines.length + capEmbed.length <= DISCORD_LIMITS.embeds) {
    embeds = lines.map(({ item, line }) => ({
      title: clip(line.title, DISCORD_LIMITS.title),
      url: line.analysis,
      color: item.direction === "pump" ? 0x16a34a : 0xdc2626,
      timestamp: new Date(item.ts).toISOString(),
      fields: [
        { name: t.venue, value: clip(line.venue, DISCORD_LIMITS.fieldValue), inline: true },
        { name: t.move, value: `${line.pct} (${line.window})`, inline: true },
        { name: t.price, value: line.price, inline: true },
        { name: "\u200b", value: `[${t.analysis}](${line.analysis}) · [${t.mute}](${line.mute})` },
      ],
      footer: { text: clip(t.disclaimer, DISCORD_LIMITS.footer) },
    }));
  } else {
    const total = totalOf(payload);
    const title = clip(t.digestTitle(total), DISCORD_LIMITS.title);
    const footer = clip(t.disclaimer, DISCORD_LIMITS.footer);
    const budget = Math.min(
      DISCORD_LIMITS.description,
      DISCORD_LIMITS.total - title.length - footer.length - 20 -
        (capEmbed[0] ? embedSize(capEmbed[0]) : 0),
    );
    let description = "";
    let shown = 0;
    for (const { line } of lines) {
      const row = `**[${line.title}](${line.analysis})** · ${line.venue} · ${line.price}\n`;
      const more = `… +${total - shown - 1}`;
      if (description.length + row.length + more.length > budget) break;
      description += row;
      shown++;
    }
    if (shown < total) description += `… +${total - shown}`;
    embeds = [{
      title,
      description,
      color: 0x2563eb,
      timestamp: new Date(payload.scannedAt).toISOString(),
      footer: { text: footer },
    }];
  }
  embeds = [...capEmbed, ...embeds];
  // Never more than the total: drop trailing embeds until it fits.
  while (embeds.length > 1 && embeds.reduce((a, e) => a + embedSize(e), 0) > DISCORD_LIMITS.total) {
    embeds.pop();
  }
  return { content: "", embeds, allowed_mentions: { parse: [] } };
}

// ---- Telegram -------------------------------------------------------------------------------

export const TELEGRAM_TEXT_LIMIT = 4096;

/** sendMessage text (parse_mode HTML), at most 4,096 characters. */
export function telegramText(
  payload: MarketAlertPayload,
  locale: Locale,
  links: Links,
  zone = "UTC",
): string {
  const t = T[locale];
  const lines = payload.items.map((i) => itemLine(i, locale, links, zone));
  const total = totalOf(payload);
  const cap = capNotice(payload, locale, links, zone);
  const head =
    (cap
      ? `⚠️ <b>${escapeHtml(cap.title)}</b>\n${escapeHtml(cap.until)}\n<a href="${
        escapeHtml(cap.settings)
      }">${escapeHtml(cap.change)}</a>\n\n`
      : "") +
    (payload.shape === "digest" || total > 1
      ? `<b>${escapeHtml(t.digestTitle(total))}</b>\n\n`
      : "");
  const tail = `\n<i>${escapeHtml(t.disclaimer)}</i>`;
  let body = "";
  let shown = 0;
  for (const l of lines) {
    const block = `<b>${escapeHtml(l.title)}</b>\n${escapeHtml(t.venue)}: ${
      escapeHtml(l.venue)
    } · ${escapeHtml(t.price)}: ${escapeHtml(l.price)}\n${escapeHtml(l.time)}\n<a href="${
      escapeHtml(l.analysis)
    }">${escapeHtml(t.analysis)}</a> · <a href="${escapeHtml(l.mute)}">${
      escapeHtml(t.mute)
    }</a>\n\n`;
    if (head.length + body.length + block.length + tail.length + 12 > TELEGRAM_TEXT_LIMIT) break;
    body += block;
    shown++;
  }
  if (shown < total) body += `… +${total - shown}\n`;
  return head + body + tail;
}
