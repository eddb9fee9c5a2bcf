import { type BroadcastChange, isBroadcastChange } from "@domain/realtime";
import type { Database } from "@/lib/database.types";
import { appendNewRow, hasStringId, ignoreStreamMessage } from "@/lib/stream-messages";

type Tables = Database["public"]["Tables"];
export type TicketMessage = Tables["ticket_messages"]["Row"];
/** A ticket as the screens read it (the desk's ordering columns and the escalation mark stay out). */
export type SupportTicket = Pick<
  Tables["support_tickets"]["Row"],
  | "id"
  | "ticket_number"
  | "user_id"
  | "subject"
  | "content"
  | "status"
  | "priority"
  | "awaiting_admin"
  | "created_at"
  | "updated_at"
  | "support_plan"
  | "response_due_at"
  | "first_response_at"
>;

/**
 * A reply in a ticket's thread: an INSERT on `ticket_messages` is appended unless already there.
 * Returns the very same list when the change changes nothing; malformed changes are logged and
 * ignored.
 */
export function applyTicketMessage(
  list: TicketMessage[] | undefined,
  change: BroadcastChange<TicketMessage>,
): TicketMessage[] {
  const current = list ?? [];
  if (!isBroadcastChange(change)) {
    ignoreStreamMessage("not a database change", change);
    return current;
  }
  if (change.table !== "ticket_messages" || change.operation !== "INSERT") return current;
  return appendNewRow(current, change, "ticket message");
}

/**
 * A ticket's status change: the `status` and `updated_at` of an UPDATE on `support_tickets` are
 * merged into the cached ticket with the same id. Nothing cached, nothing to merge. Returns the
 * very same ticket when the change changes nothing; malformed changes are logged and ignored.
 */
export function applyTicketStatus<T extends Pick<SupportTicket, "id" | "status" | "updated_at">>(
  ticket: T | undefined,
  change: BroadcastChange<SupportTicket>,
): T | undefined {
  if (!isBroadcastChange(change)) {
    ignoreStreamMessage("not a database change", change);
    return ticket;
  }
  if (change.table !== "support_tickets" || change.operation !== "UPDATE") return ticket;
  const record = change.record;
  if (!hasStringId(record) || typeof record.status !== "string") {
    ignoreStreamMessage("ticket UPDATE without record.id or status", change);
    return ticket;
  }
  if (ticket === undefined || ticket.id !== record.id) return ticket;
  const updatedAt = typeof record.updated_at === "string" ? record.updated_at : ticket.updated_at;
  if (ticket.status === record.status && ticket.updated_at === updatedAt) return ticket;
  return { ...ticket, status: record.status, updated_at: updatedAt };
}
