import { CHANGE_EVENTS, groupTopic } from "@domain/realtime";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useEffectEvent, useRef, useState } from "react";
import { type RealtimeStatus, useRealtimeChannel } from "@/hooks/use-realtime-channel";
import { fetchNewerThan, groupKeys } from "../api/queries";
import { applyLiveChange } from "../utils/apply-live-change";
import { CHAT_PAGE_SIZE, type ChatHistory, newestCursor, upsertMessage } from "../utils/chat-pages";
import { type PresenceMember, readPresence } from "../utils/presence";

/** Typing is announced at most every 2 s and ends 4 s after the last keystroke. */
export const TYPING_THROTTLE_MS = 2000;
export const TYPING_IDLE_MS = 4000;

export type ChatLive = {
  status: RealtimeStatus;
  /** Who is in the chat right now (one entry per user), and who of them is typing. */
  online: PresenceMember[];
  /** Call on each keystroke in the message box; throttled. */
  notifyTyping: () => void;
  /** Call after sending: the user stopped typing. */
  stopTyping: () => void;
};

type Options = {
  groupId: string;
  enabled: boolean;
  me: { id: string; name: string };
  blocked: ReadonlySet<string>;
};

/**
 * The live side of a group chat on the private channel `group:<id>`: message inserts, edits and
 * deletes go into the paged history; after a rejoin, what came meanwhile is fetched from the
 * newest message held on (Broadcast does not redeliver); Presence tells who is online and typing.
 */
export function useChatLive({ groupId, enabled, me, blocked }: Options): ChatLive {
  const queryClient = useQueryClient();
  const queryKey = groupKeys.history(groupId);
  const [online, setOnline] = useState<PresenceMember[]>([]);
  const lastTypingSent = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const handler = (payload: unknown) => {
    queryClient.setQueryData<ChatHistory>(queryKey, (old) =>
      applyLiveChange(old, payload, blocked),
    );
  };

  const catchUp = async () => {
    let cursor = newestCursor(queryClient.getQueryData<ChatHistory>(queryKey));
    if (!cursor) {
      await queryClient.invalidateQueries({ queryKey });
      return;
    }
    try {
      for (;;) {
        const rows = await fetchNewerThan(groupId, cursor);
        queryClient.setQueryData<ChatHistory>(queryKey, (old) =>
          rows.reduce<ChatHistory | undefined>((acc, row) => upsertMessage(acc, row), old),
        );
        if (rows.length < CHAT_PAGE_SIZE) break;
        const last = rows[rows.length - 1]!;
        cursor = { createdAt: last.created_at, id: last.id };
      }
    } catch (error) {
      console.warn("[chat] catching up after the reconnect failed; reloading", error);
      await queryClient.invalidateQueries({ queryKey });
    }
  };

  const { status, track } = useRealtimeChannel({
    topic: groupTopic(groupId),
    enabled,
    bindings: CHANGE_EVENTS.map((event) => ({ event, handler })),
    onResubscribed: () => void catchUp(),
    presence: { key: me.id, onSync: (state) => setOnline(readPresence(state, me.id)) },
  });

  // A message sent between the history's read and the first join would be missed: catch up once.
  const caughtUpOnce = useRef(false);
  const firstCatchUp = useEffectEvent(() => {
    if (queryClient.getQueryData(queryKey)) void catchUp();
  });
  useEffect(() => {
    if (status !== "live" || caughtUpOnce.current) return;
    caughtUpOnce.current = true;
    firstCatchUp();
  }, [status]);

  useEffect(() => {
    if (!enabled || !me.id) return;
    track({ name: me.name, typing: false });
  }, [enabled, me.id, me.name, track]);

  useEffect(() => () => clearTimeout(idleTimer.current), []);

  const stopTyping = () => {
    clearTimeout(idleTimer.current);
    if (lastTypingSent.current !== 0) {
      lastTypingSent.current = 0;
      track({ name: me.name, typing: false });
    }
  };

  const notifyTyping = () => {
    const now = Date.now();
    if (now - lastTypingSent.current >= TYPING_THROTTLE_MS) {
      lastTypingSent.current = now;
      track({ name: me.name, typing: true });
    }
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(stopTyping, TYPING_IDLE_MS);
  };

  return { status, online, notifyTyping, stopTyping };
}
