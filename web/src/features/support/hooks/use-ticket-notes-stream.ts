import { isBroadcastChange, ticketNotesTopic } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { ticketKeys } from "../api/queries";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

/**
 * Admins only: follows a ticket's internal notes (`ticket-notes:<id>`, INSERT and DELETE of
 * `ticket_notes`). A change refetches the notes, which carry their authors; so does a rejoin.
 */
export function useTicketNotesStream(
  ticketId: string,
  { enabled = true }: { enabled?: boolean } = {},
): { status: RealtimeStatus } {
  const queryClient = useQueryClient();
  const refetch = () =>
    void queryClient.invalidateQueries({ queryKey: ticketKeys.notes(ticketId) });
  const handler = (payload: unknown) => {
    if (isBroadcastChange(payload) && payload.table === "ticket_notes") refetch();
    else console.warn("[realtime] ignored stream message: not a note change", payload);
  };

  return useRealtimeChannel({
    topic: ticketNotesTopic(ticketId),
    enabled,
    bindings: [
      { event: "INSERT", handler },
      { event: "DELETE", handler },
    ],
    onResubscribed: refetch,
  });
}
