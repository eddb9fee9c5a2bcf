import { type BroadcastChange, isBroadcastChange } from "@domain/realtime";
import type { Database } from "@/lib/database.types";
import { appendNewRow, hasStringId, ignoreStreamMessage } from "@/lib/stream-messages";

export type ChatMessage = Database["public"]["Tables"]["messages"]["Row"];

/**
 * One change of a group's `messages`: an UPDATE (edit) is merged into the cached message with the
 * same id, a DELETE removes `old_record.id`, an INSERT is appended unless already there (our own
 * message may have been added by the send mutation first). Returns the very same list when the
 * change changes nothing; malformed changes are logged and ignored.
 */
export function applyChatChange(
  list: ChatMessage[] | undefined,
  change: BroadcastChange<ChatMessage>,
): ChatMessage[] {
  const current = list ?? [];
  if (!isBroadcastChange(change)) {
    ignoreStreamMessage("not a database change", change);
    return current;
  }
  if (change.table !== "messages") return current;

  switch (change.operation) {
    case "UPDATE": {
      const record = change.record;
      if (!hasStringId(record)) {
        ignoreStreamMessage("message UPDATE without record.id", change);
        return current;
      }
      const index = current.findIndex((message) => message.id === record.id);
      if (index === -1) return current;
      const next = [...current];
      next[index] = { ...current[index], ...record };
      return next;
    }
    case "DELETE": {
      const old = change.old_record;
      if (!hasStringId(old)) {
        ignoreStreamMessage("message DELETE without old_record.id", change);
        return current;
      }
      const next = current.filter((message) => message.id !== old.id);
      return next.length === current.length ? current : next;
    }
    default:
      return appendNewRow(current, change, "message");
  }
}
