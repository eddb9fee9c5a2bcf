/**
 * The reader's clock (issue 28): `profiles.time_zone` when set, else the browser's zone. Every
 * date the SPA shows goes through `dateTimeFormat`, which applies the zone in use;
 * `useCurrentUser` sets it from the signed-in profile.
 */

let displayZone: string | undefined;

/** The browser's IANA zone, or undefined when the runtime does not say. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** True when this browser's Intl knows the zone. */
export function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every IANA zone the browser knows (UTC and the browser's own included), sorted. */
export function supportedTimeZones(): string[] {
  const own = browserTimeZone();
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf("timeZone");
  } catch {
    zones = [];
  }
  return [...new Set([...zones, "UTC", ...(own ? [own] : [])])].sort();
}

/** The zone dates are shown in: the profile's (when this browser knows it), else the browser's. */
let requestedZone: string | null | undefined;
export function setDisplayTimeZone(zone: string | null | undefined): void {
  // Called on every render of every current-user reader: check a zone once, not each time
  // (building an Intl.DateTimeFormat to check it was a measurable part of the dashboard's start-up).
  if (zone === requestedZone) return;
  requestedZone = zone;
  displayZone = zone && isKnownTimeZone(zone) ? zone : undefined;
}

/** The zone in use, undefined meaning the browser's. */
export function displayTimeZone(): string | undefined {
  return displayZone;
}

/** `Intl.DateTimeFormat` in the reader's zone (an explicit `timeZone` in `options` wins). */
const formats = new Map<string, Intl.DateTimeFormat>();
/** Formats kept at most; a page uses a handful (one per locale, zone and option set). */
const MAX_FORMATS = 200;

export function dateTimeFormat(
  locale: string | undefined,
  options: Intl.DateTimeFormatOptions = {},
): Intl.DateTimeFormat {
  const zone = options.timeZone ?? displayZone;
  // Built once per locale, zone and options, not once per date shown (every row's times).
  const key = `${locale ?? ""}|${zone ?? ""}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    if (formats.size >= MAX_FORMATS) formats.clear();
    format = new Intl.DateTimeFormat(locale, zone ? { ...options, timeZone: zone } : options);
    formats.set(key, format);
  }
  return format;
}
