import type { BroadcastChange } from "@domain/realtime";

/**
 * Helpers for the pure cache updates of the live streams (`features/<x>/utils/apply-*.ts`). Each
 * update takes the cached value and one stream message and returns the next value, or the very
 * same value when the message changes nothing, so React and TanStack Query see no change. Payloads
 * come from the network: whatever does not have the promised shape is logged and ignored
 * (specification: "Unparseable stream messages are logged and ignored").
 */

/** Logs a stream message that is ignored, and why. */
export function ignoreStreamMessage(reason: string, payload: unknown): void {
  console.warn(`[realtime] ignored stream message: ${reason}`, payload);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasStringId(value: unknown): value is { id: string } {
  return isRecord(value) && typeof value.id === "string" && value.id !== "";
}

/**
 * The change's `record` appended to the list unless a row with its id is already there (our own
 * row may have been added by a mutation first). A record without an id is logged and ignored;
 * `what` names the row in that log line.
 */
export function appendNewRow<Row extends { id: string }>(
  current: Row[],
  change: BroadcastChange<Row>,
  what: string,
): Row[] {
  const record = change.record;
  if (!hasStringId(record)) {
    ignoreStreamMessage(`${what} ${change.operation} without record.id`, change);
    return current;
  }
  if (current.some((row) => row.id === record.id)) return current;
  return [...current, record];
}
