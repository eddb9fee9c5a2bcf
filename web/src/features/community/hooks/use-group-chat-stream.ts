import {
  type BroadcastChange,
  CHANGE_EVENTS,
  groupTopic,
  isBroadcastChange,
} from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { groupKeys } from "../api/queries";
import { applyChatChange, type ChatMessage } from "../utils/apply-chat-change";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";

export type GroupChatStreamOptions = {
  enabled?: boolean;
  /** New messages from senders this returns true for are not shown. */
  isBlocked?: (senderId: string) => boolean;
};

/**
 * Streams a group's message inserts, edits and deletions (`group:<id>`) into the
 * `groupKeys.messages(groupId)` cache, skipping new messages of blocked senders. After a rejoin
 * the messages are refetched. Nothing is written before the messages query has data.
 */
export function useGroupChatStream(
  groupId: string,
  { enabled = true, isBlocked }: GroupChatStreamOptions = {},
): { status: RealtimeStatus } {
  const queryClient = useQueryClient();
  const queryKey = groupKeys.messages(groupId);

  const handler = (payload: unknown) => {
    if (!isBroadcastChange(payload)) {
      console.warn("[realtime] ignored stream message: not a database change", payload);
      return;
    }
    const change = payload as BroadcastChange<ChatMessage>;
    const senderId = change.record?.sender_id;
    if (change.operation === "INSERT" && typeof senderId === "string" && isBlocked?.(senderId)) {
      return;
    }
    queryClient.setQueryData<ChatMessage[]>(queryKey, (old) =>
      old === undefined ? undefined : applyChatChange(old, change),
    );
  };

  return useRealtimeChannel({
    topic: groupTopic(groupId),
    enabled,
    bindings: CHANGE_EVENTS.map((event) => ({ event, handler })),
    onResubscribed: () => void queryClient.invalidateQueries({ queryKey }),
  });
}
