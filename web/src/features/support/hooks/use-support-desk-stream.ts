import { SUPPORT_DESK_EVENT, SUPPORT_DESK_TOPIC } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { ticketKeys } from "../api/queries";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

/**
 * Admins only: follows `support:desk`, where the database names each ticket that was opened,
 * answered, re-prioritised, moved to another status or deleted. Every message (and a rejoin)
 * refetches the desk's lists and the unanswered count, and the named ticket where it is shown. Mounted once, by the header's desk link:
 * realtime-js shares one channel per topic.
 */
export function useSupportDeskStream({ enabled = true }: { enabled?: boolean } = {}): {
  status: RealtimeStatus;
} {
  const queryClient = useQueryClient();
  const refetch = () => void queryClient.invalidateQueries({ queryKey: ticketKeys.desk() });
  // The named ticket's own row too (its flag and last activity), if a screen shows it.
  const onDesk = (payload: unknown) => {
    refetch();
    const ticketId = (payload as { ticket_id?: unknown } | null)?.ticket_id;
    if (typeof ticketId === "string") {
      void queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId), exact: true });
    }
  };

  return useRealtimeChannel({
    topic: SUPPORT_DESK_TOPIC,
    enabled,
    bindings: [{ event: SUPPORT_DESK_EVENT, handler: onDesk }],
    onResubscribed: refetch,
  });
}
