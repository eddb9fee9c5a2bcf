import { type BroadcastChange, isBroadcastChange } from "@domain/realtime";
import { ignoreStreamMessage } from "@/lib/stream-messages";
import {
  type ChatHistory,
  type ChatMessageRow,
  patchMessage,
  removeMessage,
  upsertMessage,
} from "./chat-pages";

function isRow(value: unknown): value is ChatMessageRow {
  if (typeof value !== "object" || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    typeof row.id === "string" &&
    typeof row.sender_id === "string" &&
    typeof row.content === "string" &&
    typeof row.created_at === "string"
  );
}

/**
 * One change of the group's `messages` from `group:<id>` applied to the paged history: an
 * INSERT is added unless its id is there already (our own optimistic send, or a catch-up), an
 * UPDATE merges into the message with the same id, a DELETE removes `old_record.id`. Messages of
 * `blocked` senders are never added. Malformed changes are logged and change nothing.
 */
export function applyLiveChange(
  history: ChatHistory | undefined,
  payload: unknown,
  blocked: ReadonlySet<string> = new Set(),
): ChatHistory | undefined {
  if (!isBroadcastChange(payload)) {
    ignoreStreamMessage("not a database change", payload);
    return history;
  }
  const change = payload as BroadcastChange<unknown>;
  if (change.table !== "messages") return history;
  switch (change.operation) {
    case "INSERT": {
      if (!isRow(change.record)) {
        ignoreStreamMessage("message INSERT without a message", change);
        return history;
      }
      if (blocked.has(change.record.sender_id)) return history;
      return upsertMessage(history, change.record);
    }
    case "UPDATE": {
      if (!isRow(change.record)) {
        ignoreStreamMessage("message UPDATE without a message", change);
        return history;
      }
      const { id, content, updated_at, attachment_type, attachment_url } = change.record;
      return patchMessage(history, { id, content, updated_at, attachment_type, attachment_url });
    }
    case "DELETE": {
      const old = change.old_record as { id?: unknown } | null;
      if (typeof old?.id !== "string") {
        ignoreStreamMessage("message DELETE without old_record.id", change);
        return history;
      }
      return removeMessage(history, old.id);
    }
  }
}
