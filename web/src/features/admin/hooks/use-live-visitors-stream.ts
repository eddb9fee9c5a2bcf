import { useQueryClient } from "@tanstack/react-query";
import { ACTIVITY_EVENT, ADMIN_VISITORS_TOPIC } from "@/lib/account-topics";
import { useRealtimeChannel, type RealtimeStatus } from "@/hooks/use-realtime-channel";
import { adminKeys } from "../api/queries";

/**
 * Live Visitors, live: each activity the database records (touch_activity, at most once a minute
 * per user) is announced on `admin:visitors`; the visitors list and the stats are refetched.
 * Leaving is noticed by the 30 s refresh (a visitor drops out 5 minutes after their last activity).
 */
export function useLiveVisitorsStream(): { status: RealtimeStatus } {
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.visitors() });
    void queryClient.invalidateQueries({ queryKey: adminKeys.stats() });
  };
  return useRealtimeChannel({
    topic: ADMIN_VISITORS_TOPIC,
    bindings: [{ event: ACTIVITY_EVENT, handler: refresh }],
    onResubscribed: refresh,
  });
}
