// The venues' confirmations for /api/sse (decision 0086). A `movers` broadcast carries the whole
// top list of its window without `confirmed_at` (decision 0079: it would change every second
// without a row changing), so the stream applies each venue's confirmation itself, by the rule of
// `movers_feed` and of the dashboard (`venueConfirmation`, `confirmedTime` in @domain/quote-age).
//
// Never fresher than true: `movers_feed` reads the list and the venues' times in one snapshot; a
// broadcast's list was taken when its ingest ran (`scanned_at`, the database's clock), so only a
// confirmation the stream reader REPORTED before then (`stream_health.reported_at`, the same
// clock) is applied to it: every event it confirms was stored before the list was read. A later
// report might confirm an event the list does not show yet. The readings are shared by every
// stream of the instance: read again for a scan unless a read began after it (at most one read
// per scan, whatever the number of windows and streams).
import { type Db, userClient } from "../_shared/clients.ts";
import { type VenueConfirmation, venueConfirmation } from "../_shared/domain/quote-age.ts";
import type { Env } from "../_shared/env.ts";

/** One venue's stream report and last full poll, as read together. */
export interface VenueReading {
  source: string;
  /** stream_health.confirmed_since / confirmed_through (null: none in the current run). */
  confirmedSince: string | null;
  confirmedThrough: string | null;
  /** stream_health.reported_at: when the reader reported them (database clock). */
  reportedAt: string;
  /** source_health.last_success_at: the venue's last full poll (null: none, or no such row). */
  lastSuccessAt: string | null;
}

export type VenueReadingsReader = () => Promise<VenueReading[]>;

/** Reads `stream_health` and `source_health` with the publishable key (both public). */
export function supabaseVenueReadings(env: Env): VenueReadingsReader {
  let client: Db | undefined;
  return async () => {
    client ??= userClient(env, null, { code: "api_not_configured" });
    const [streams, polls] = await Promise.all([
      client.from("stream_health").select(
        "source, confirmed_since, confirmed_through, reported_at",
      ),
      client.from("source_health").select("source, last_success_at"),
    ]);
    if (streams.error) throw new Error(streams.error.message);
    if (polls.error) throw new Error(polls.error.message);
    const polled = new Map((polls.data ?? []).map((p) => [p.source, p.last_success_at]));
    return (streams.data ?? []).map((s) => ({
      source: s.source,
      confirmedSince: s.confirmed_since,
      confirmedThrough: s.confirmed_through,
      reportedAt: s.reported_at,
      lastSuccessAt: polled.get(s.source) ?? null,
    }));
  };
}

/** Readings kept per venue: enough to find one reported before a broadcast read a second ago. */
const KEPT = 8;

export interface VenueConfirmationsOptions {
  /** A broadcast waits this long (ms) for a read under way, then uses what it has. */
  waitMs?: number;
  /** The local clock (ms). */
  now?: () => number;
}

export class VenueConfirmations {
  readonly #read: VenueReadingsReader;
  readonly #waitMs: number;
  readonly #now: () => number;
  /** Per venue: its readings with a distinct report time, oldest first. */
  readonly #readings = new Map<string, { reportedAt: number; reading: VenueReading }[]>();
  #startedAt = Number.NEGATIVE_INFINITY;
  #inFlight: Promise<void> | null = null;
  #warned = false;

  constructor(read: VenueReadingsReader, opts: VenueConfirmationsOptions = {}) {
    this.#read = read;
    this.#waitMs = opts.waitMs ?? 250;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * Each venue's confirmation as it stood before `scannedAt` (ms, database clock): the newest
   * reading reported before then, with the venue's last full poll (its newest reading: a later
   * poll only covers fewer rows). Venues that confirm nothing then are absent.
   */
  async before(scannedAt: number): Promise<Map<string, VenueConfirmation>> {
    await this.#refresh(scannedAt);
    const out = new Map<string, VenueConfirmation>();
    for (const [source, readings] of this.#readings) {
      let pick: VenueReading | undefined;
      for (const r of readings) if (r.reportedAt < scannedAt) pick = r.reading;
      if (!pick) continue;
      const newest = readings[readings.length - 1]!.reading;
      const confirmation = venueConfirmation(
        { confirmed_since: pick.confirmedSince, confirmed_through: pick.confirmedThrough },
        { last_success_at: newest.lastSuccessAt },
      );
      if (confirmation) out.set(source, confirmation);
    }
    return out;
  }

  /**
   * Reads the venues again unless a read began after the scan (a report made before the scan is
   * in it); broadcasts of one scan (one per window) share that read.
   */
  async #refresh(scannedAt: number): Promise<void> {
    if (this.#startedAt < scannedAt || this.#startedAt === Number.NEGATIVE_INFINITY) {
      const previous = this.#inFlight ?? Promise.resolve();
      const at = this.#now();
      this.#startedAt = at;
      const read = previous.then(() =>
        this.#read()
          .then((readings) => this.#keep(readings))
          .catch((err: unknown) => {
            if (!this.#warned) {
              this.#warned = true;
              console.warn(
                `[api] venue confirmations unreadable (entries keep quotedAt): ${
                  err instanceof Error ? err.message : err
                }`,
              );
            }
          })
      );
      this.#inFlight = read;
      void read.finally(() => {
        if (this.#inFlight === read) this.#inFlight = null;
      });
    }
    const inFlight = this.#inFlight;
    if (!inFlight) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      inFlight,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, this.#waitMs))),
    ]);
    clearTimeout(timer);
  }

  #keep(readings: readonly VenueReading[]): void {
    for (const reading of readings) {
      const reportedAt = Date.parse(reading.reportedAt);
      if (!Number.isFinite(reportedAt)) continue;
      const kept = this.#readings.get(reading.source) ?? [];
      const last = kept[kept.length - 1];
      if (last && last.reportedAt >= reportedAt) {
        // The same report read again may carry a newer poll: keep the newest poll.
        if (last.reportedAt === reportedAt) last.reading = reading;
        continue;
      }
      kept.push({ reportedAt, reading });
      if (kept.length > KEPT) kept.shift();
      this.#readings.set(reading.source, kept);
    }
  }
}
