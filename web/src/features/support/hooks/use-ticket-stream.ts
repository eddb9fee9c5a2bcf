import { type BroadcastChange, isBroadcastChange, ticketTopic } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { ticketKeys } from "../api/queries";
import {
  applyTicketMessage,
  applyTicketStatus,
  type SupportTicket,
  type TicketMessage,
} from "../utils/apply-ticket-changes";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

/**
 * Streams a support ticket (`ticket:<id>`): new replies (INSERT on `ticket_messages`) are appended
 * to the `ticketKeys.messages(ticketId)` cache, status changes (UPDATE on `support_tickets`) are
 * merged into the `ticketKeys.detail(ticketId)` cache. After a rejoin both are refetched. Nothing is
 * written into a cache that has no data yet; a refetch of the thread under way when a reply arrives
 * is started over, so its older answer cannot drop the reply.
 */
export function useTicketStream(
  ticketId: string,
  { enabled = true }: { enabled?: boolean } = {},
): { status: RealtimeStatus } {
  const queryClient = useQueryClient();

  const parse = (payload: unknown) => {
    if (isBroadcastChange(payload)) return payload;
    console.warn("[realtime] ignored stream message: not a database change", payload);
    return null;
  };

  return useRealtimeChannel({
    topic: ticketTopic(ticketId),
    enabled,
    bindings: [
      {
        event: "INSERT",
        handler: (payload) => {
          const change = parse(payload) as BroadcastChange<TicketMessage> | null;
          if (change?.table !== "ticket_messages") return;
          const key = ticketKeys.messages(ticketId);
          queryClient.setQueryData<TicketMessage[]>(key, (old) =>
            old === undefined ? undefined : applyTicketMessage(old, change),
          );
          // A refetch under way (after a send, a rejoin) may have read the thread before this
          // reply was stored: its answer would drop the reply again. It starts over instead.
          if (queryClient.isFetching({ queryKey: key, exact: true }) > 0)
            void queryClient.invalidateQueries({ queryKey: key, exact: true });
        },
      },
      {
        event: "UPDATE",
        handler: (payload) => {
          const change = parse(payload) as BroadcastChange<SupportTicket> | null;
          if (change?.table !== "support_tickets") return;
          // null: the ticket was not found (the screen shows so); nothing to merge into.
          queryClient.setQueryData<SupportTicket | null>(ticketKeys.detail(ticketId), (old) =>
            old === null ? null : applyTicketStatus(old, change),
          );
        },
      },
    ],
    // The detail key prefixes the messages key: both are refetched.
    onResubscribed: () =>
      void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) }),
  });
}
