import { MOVERS_EVENT, type MoverEntry, type MoversBroadcast, moversTopic } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { moversKeys } from "@/lib/market-queries";
import { applyMovers } from "../utils/apply-movers";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

/**
 * Streams a window's movers (`market:movers:<window>`) into the `moversKeys.feed(window)` cache:
 * each scan's entries go on top, one per instrument, at most `LIVE_LIST_CAP`. After a rejoin the
 * feed is refetched. The cache is only updated once the feed query has data; seeding it here would
 * keep the real fetch from running (the app's queries never go stale).
 */
export function useMoversStream(
  windowMinutes: number,
  { enabled = true }: { enabled?: boolean } = {},
): { status: RealtimeStatus } {
  const queryClient = useQueryClient();
  const queryKey = moversKeys.feed(windowMinutes);

  return useRealtimeChannel({
    topic: moversTopic(windowMinutes),
    enabled,
    bindings: [
      {
        event: MOVERS_EVENT,
        handler: (payload) => {
          const broadcast = payload as MoversBroadcast;
          if (typeof broadcast?.window === "number" && broadcast.window !== windowMinutes) {
            console.warn(`[realtime] ignored movers of window ${broadcast.window}`, payload);
            return;
          }
          queryClient.setQueryData<MoverEntry[]>(queryKey, (old) =>
            old === undefined ? undefined : applyMovers(old, broadcast),
          );
        },
      },
    ],
    onResubscribed: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
