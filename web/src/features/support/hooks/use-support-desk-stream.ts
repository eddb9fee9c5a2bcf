import { SUPPORT_DESK_EVENT, SUPPORT_DESK_TOPIC } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { ticketKeys } from "../api/queries";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

/**
 * Admins only: follows `support:desk`, where the database names each ticket that was opened,
 * answered, re-prioritised, moved to another status or deleted. Every message (and a rejoin)
 * refetches the desk's lists and the unanswered count. Mounted once, by the header's desk link:
 * realtime-js shares one channel per topic.
 */
export function useSupportDeskStream({ enabled = true }: { enabled?: boolean } = {}): {
  status: RealtimeStatus;
} {
  const queryClient = useQueryClient();
  const refetch = () => void queryClient.invalidateQueries({ queryKey: ticketKeys.desk() });

  return useRealtimeChannel({
    topic: SUPPORT_DESK_TOPIC,
    enabled,
    bindings: [{ event: SUPPORT_DESK_EVENT, handler: refetch }],
    onResubscribed: refetch,
  });
}
