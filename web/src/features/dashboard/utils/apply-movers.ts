import { LIVE_LIST_CAP, type MoverEntry, type MoversBroadcast } from "@domain/realtime";
import { ignoreStreamMessage, isRecord } from "@/lib/stream-messages";

/**
 * A scan's movers on top of the live list: the broadcast's entries first, in their order, then the
 * older entries of instruments the broadcast does not mention; one entry per instrument, at most
 * `cap` entries. Returns the very same list when the scan changes nothing; a broadcast without
 * entries and entries without an `instrument_id` are logged and ignored.
 */
export function applyMovers(
  list: MoverEntry[] | undefined,
  broadcast: MoversBroadcast,
  cap: number = LIVE_LIST_CAP,
): MoverEntry[] {
  const current = list ?? [];
  if (!isRecord(broadcast) || !Array.isArray(broadcast.entries)) {
    ignoreStreamMessage("movers broadcast without entries", broadcast);
    return current;
  }
  const fresh = broadcast.entries.filter((entry: unknown) => {
    const valid = isRecord(entry) && typeof entry.instrument_id === "number";
    if (!valid) ignoreStreamMessage("mover entry without instrument_id", entry);
    return valid;
  });
  if (fresh.length === 0 && current.length <= cap) return current;

  const seen = new Set<number>();
  const next: MoverEntry[] = [];
  for (const entry of [...fresh, ...current]) {
    if (next.length >= cap) break;
    if (seen.has(entry.instrument_id)) continue;
    seen.add(entry.instrument_id);
    next.push(entry);
  }
  return next;
}
