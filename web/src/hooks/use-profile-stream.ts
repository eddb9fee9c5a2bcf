import { useQueryClient } from "@tanstack/react-query";
import { PROFILE_CHANGED_EVENT, type ProfileChangedPayload, userTopic } from "@/lib/account-topics";
import { profileQueryKey } from "@/lib/profile-query";
import { useRealtimeChannel } from "./use-realtime-channel";

/**
 * Follows the signed-in user's own topic: when an admin (or billing) changes their plan,
 * subscription, role or ban, the profile is refetched, so the header, the guards and the
 * dashboard follow without a reload. `onChanged` sees the new values (e.g. to announce a ban).
 */
export function useProfileStream(
  userId: string | null,
  onChanged?: (payload: ProfileChangedPayload) => void,
): void {
  const queryClient = useQueryClient();
  useRealtimeChannel({
    topic: userTopic(userId ?? "none"),
    enabled: userId !== null,
    bindings: [
      {
        event: PROFILE_CHANGED_EVENT,
        handler: (payload) => {
          void queryClient.invalidateQueries({ queryKey: profileQueryKey });
          if (typeof payload === "object" && payload !== null) {
            onChanged?.(payload as ProfileChangedPayload);
          }
        },
      },
    ],
    onResubscribed: () => void queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}
