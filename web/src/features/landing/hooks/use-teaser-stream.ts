import { TEASER_EVENT, TEASER_TOPIC } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";
import { landingQueries, MOVERS_TEASER_LIMIT, parseMoverTeasers } from "../api/queries";

/**
 * Keeps the landing strip live: every scan sends the whole teaser on `market:teaser` (anyone may
 * receive it, nobody may send), and it replaces the cached `movers_teaser` rows. A malformed
 * message is logged and ignored. After a rejoin the teaser is refetched.
 */
export function useTeaserStream(): { status: RealtimeStatus } {
  const queryClient = useQueryClient();
  const { queryKey } = landingQueries.moversTeaser();

  return useRealtimeChannel({
    topic: TEASER_TOPIC,
    bindings: [
      {
        event: TEASER_EVENT,
        handler: (payload) => {
          const entries =
            typeof payload === "object" && payload !== null
              ? parseMoverTeasers((payload as { entries?: unknown }).entries)
              : null;
          if (!entries) {
            console.warn("[realtime] ignored a malformed teaser", payload);
            return;
          }
          queryClient.setQueryData(queryKey, entries.slice(0, MOVERS_TEASER_LIMIT));
        },
      },
    ],
    onResubscribed: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
