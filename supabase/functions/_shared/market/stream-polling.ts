// Polling while a stream is live (issue 25, decision 0061): the stream is the primary for its
// venue, so the venue's polling schedule (pg_cron every 2 s, the local scheduler the same) finds
// the stream live and polls only at a slow safety cadence; the moment the reader reports the
// stream dropped, or stops reporting, the next tick polls again at full cadence. Pure: the scan
// reads `stream_health` and `source_health` and asks this module.
import { STREAM_SILENCE_MS } from "./streams.ts";

/** A live stream's venue is still polled this often (seconds): `STREAM_SAFETY_POLL_SECONDS`. */
export const DEFAULT_STREAM_SAFETY_POLL_SECONDS = 30;
/**
 * A stream counts as live for polling when its reader reported it connected within this long and
 * the venue spoke within it: the reader's own silence rule (`STREAM_SILENCE_MS`, 5 s; it reports
 * once a second, Binance pushes once a second, Coinbase sends a heartbeat once a second). A drop
 * the reader sees is reported at once, so the next tick polls; this limit only bounds a reader
 * that died without a word.
 */
export const STREAM_LIVE_FOR_POLLING_MS = STREAM_SILENCE_MS;

/** One `stream_health` row, as the scan reads it. */
export interface StreamState {
  state: string;
  lastMessageAt: string | null;
  reportedAt: string;
}

/** True when the stream carries the venue now (connected, reporting, and the venue speaking). */
export function streamCarries(stream: StreamState | null | undefined, now: number): boolean {
  if (!stream || stream.state !== "connected" || !stream.lastMessageAt) return false;
  const reported = Date.parse(stream.reportedAt);
  const spoke = Date.parse(stream.lastMessageAt);
  return now - reported < STREAM_LIVE_FOR_POLLING_MS && now - spoke < STREAM_LIVE_FOR_POLLING_MS;
}

/**
 * Whether this tick of the venue's schedule may skip its poll: the stream carries the venue and
 * the last poll is younger than the safety cadence. A venue never polled yet is polled.
 */
export function skipPoll(
  stream: StreamState | null | undefined,
  lastPollAt: string | null | undefined,
  now: number,
  safetySeconds: number,
): boolean {
  if (!streamCarries(stream, now) || !lastPollAt) return false;
  return now - Date.parse(lastPollAt) < safetySeconds * 1000;
}

/** `STREAM_SAFETY_POLL_SECONDS`: whole seconds, 5–3600; unset is the default. Else throws. */
export function parseSafetySeconds(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_STREAM_SAFETY_POLL_SECONDS;
  const n = Number(raw.trim());
  if (!Number.isInteger(n) || n < 5 || n > 3600) {
    throw new Error(
      `STREAM_SAFETY_POLL_SECONDS must be a whole number of seconds from 5 to 3600, not "${raw}".`,
    );
  }
  return n;
}
