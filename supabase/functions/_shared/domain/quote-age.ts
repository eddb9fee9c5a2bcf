import { type MoverEntry, quoteTime } from "./realtime.ts";

/**
 * How old a quote is on screen, on the venue's clock (decision 0033): every dashboard row shows
 * its quote's age ("2 s", "40 s", "3 min"), and a row whose quote is older than its window is
 * stale — its percent compares prices the venue no longer quotes.
 *
 * Runtime-agnostic: imported by the SPA (alias `@domain`).
 */

export type QuoteAge =
  | { unit: "seconds"; value: number }
  | { unit: "minutes"; value: number }
  | { unit: "hours"; value: number }
  | { unit: "days"; value: number };

/** The age of a quote stamped `ts` at `now`; a stamp slightly ahead of our clock is 0 s old. */
export function quoteAge(ts: string | number | Date, now: number | Date = Date.now()): QuoteAge {
  const then = (ts instanceof Date ? ts : new Date(ts)).getTime();
  const current = now instanceof Date ? now.getTime() : now;
  const seconds = Math.max(0, Math.floor((current - then) / 1000));
  if (!Number.isFinite(seconds) || seconds < 60) {
    return { unit: "seconds", value: Number.isFinite(seconds) ? seconds : 0 };
  }
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return { unit: "minutes", value: minutes };
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return { unit: "hours", value: hours };
  return { unit: "days", value: Math.floor(hours / 24) };
}

/** A window's length in ms: the 10-second window is `0` minutes. */
export function windowMs(windowMinutes: number): number {
  return windowMinutes === 0 ? 10_000 : windowMinutes * 60_000;
}

/** Whether a quote stamped `ts` is older than the window it is shown in. */
export function isQuoteStale(
  ts: string | number | Date,
  windowMinutes: number,
  now: number | Date = Date.now(),
): boolean {
  const then = (ts instanceof Date ? ts : new Date(ts)).getTime();
  const current = now instanceof Date ? now.getTime() : now;
  return !Number.isFinite(then) || current - then > windowMs(windowMinutes);
}

/**
 * A venue's "confirmed through" time (decision 0079): through when the venue's stream has
 * confirmed every symbol it did not name unchanged (its newest event whose quotes are stored),
 * valid only when the venue's last full poll ran after the stream's unbroken run began.
 */
export interface VenueConfirmation {
  /** The confirmation (ms, venue clock). */
  through: number;
  /** The scan time of the venue's last full poll (ms): rows written before it are not covered. */
  polledAt: number;
}

const ms = (value: string | null | undefined): number =>
  value ? new Date(value).getTime() : Number.NaN;

/**
 * The venue's confirmation from its stream's report (`stream_health`) and its last full poll
 * (`source_health.last_success_at`), or null when it confirms nothing: no stream, no stored event
 * in the current run, or no full poll since the run began (the stream may have missed a change
 * before it connected). The same rule as `movers_feed`'s confirmed_at (SQL).
 */
export function venueConfirmation(
  stream: { confirmed_since: string | null; confirmed_through: string | null } | null | undefined,
  poll: { last_success_at: string | null } | null | undefined,
): VenueConfirmation | null {
  const through = ms(stream?.confirmed_through);
  const since = ms(stream?.confirmed_since);
  const polledAt = ms(poll?.last_success_at);
  if (!Number.isFinite(through) || !Number.isFinite(since) || !Number.isFinite(polledAt)) {
    return null;
  }
  return since <= polledAt ? { through, polledAt } : null;
}

/**
 * Through when a row's price is confirmed: its quote's own time, or its venue's confirmation when
 * the row was written by the venue's last full poll or after it (`ts`, the scan time, not before
 * the poll) and the confirmation is later. Never earlier than the quote; a stalled venue's
 * confirmation stops, so the row ages. The data age and the stale mark count from here.
 */
export function confirmedTime(
  entry: Pick<MoverEntry, "ts" | "quoted_at"> & { confirmed_at?: string | null },
  venue: VenueConfirmation | null | undefined,
): string {
  const quoted = quoteTime(entry);
  let best = ms(quoted);
  let text = quoted;
  const fromFeed = ms(entry.confirmed_at);
  if (Number.isFinite(fromFeed) && !(fromFeed <= best)) {
    best = fromFeed;
    text = entry.confirmed_at!;
  }
  if (venue && ms(entry.ts) >= venue.polledAt && !(venue.through <= best)) {
    return new Date(venue.through).toISOString();
  }
  return text;
}

/**
 * A venue not scanned, or whose data nobody confirmed, for this long is stale: the dashboard's
 * Sources line marks a venue stale after it (no scan reached it), and `/api/health` marks a venue
 * whose confirmation is older than it.
 */
export const SOURCE_STALE_MS = 5 * 60_000;

/** Through when a venue's data is confirmed, and by what (decision 0086). */
export interface VenueConfirmedThrough {
  /** ms, venue clock. */
  at: number;
  /** stream: the venue's stream confirmed its unchanged symbols later than its newest quote. */
  by: "stream" | "poll";
}

/**
 * The newest time a venue's data is confirmed through: its stream's confirmation
 * (`venueConfirmation`) when that is later than the newest quote its poll stored
 * (`source_health.last_quote_at`), else that quote. The age the Sources line shows beside the
 * venue ("last quote: N s old"); null when the venue has neither.
 */
export function venueConfirmedThrough(
  stream: { confirmed_since: string | null; confirmed_through: string | null } | null | undefined,
  poll: { last_success_at: string | null; last_quote_at: string | null } | null | undefined,
): VenueConfirmedThrough | null {
  const confirmed = venueConfirmation(stream, poll);
  const quoted = ms(poll?.last_quote_at);
  if (confirmed && !(confirmed.through <= quoted)) return { at: confirmed.through, by: "stream" };
  return Number.isFinite(quoted) ? { at: quoted, by: "poll" } : null;
}

/** Whether a venue confirmed through `at` (ms; null: never) is stale at `now`. */
export function isVenueStale(at: number | null | undefined, now: number): boolean {
  return at === null || at === undefined || !(now - at <= SOURCE_STALE_MS);
}
