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
