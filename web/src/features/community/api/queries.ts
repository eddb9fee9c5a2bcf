import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import type { Database } from "@/lib/database.types";
import {
  CHAT_PAGE_SIZE,
  type ChatCursor,
  type ChatMessageRow,
  cursorOf,
  toChatMessageRow,
} from "../utils/chat-pages";

/**
 * Query keys and options of the community screens. Keys run generic → specific. The chat's live
 * stream (`hooks/use-chat-live.ts`) writes into the same history key the chat reads.
 */

export type GroupRow = Database["public"]["Functions"]["list_groups"]["Returns"][number];
export type MemberRow = Database["public"]["Functions"]["group_member_profiles"]["Returns"][number];
export type BlockedUserRow = Database["public"]["Functions"]["blocked_users"]["Returns"][number];

/** `['groups']`, `['groups', 'list']`, `['groups', id]`, `['groups', id, 'history' | 'members']`. */
export const groupKeys = {
  all: ["groups"] as const,
  list: () => [...groupKeys.all, "list"] as const,
  detail: (groupId: string) => [...groupKeys.all, groupId] as const,
  /** The paged history (newest page first) the chat screen shows. */
  history: (groupId: string) => [...groupKeys.detail(groupId), "history"] as const,
  members: (groupId: string) => [...groupKeys.detail(groupId), "members"] as const,
};

export const blockKeys = {
  all: ["blocks"] as const,
};

/** One page of a group's history: newest first, before `cursor` (null: the latest). */
export async function fetchHistoryPage(
  groupId: string,
  cursor: ChatCursor | null,
  limit = CHAT_PAGE_SIZE,
): Promise<ChatMessageRow[]> {
  const { data, error, status } = await supabase.rpc("group_messages", {
    p_group_id: groupId,
    p_limit: limit,
    ...(cursor ? { p_before_created_at: cursor.createdAt, p_before_id: cursor.id } : {}),
  });
  if (error) throw toRequestError(error, status);
  return (data ?? []).map(toChatMessageRow);
}

/** Messages newer than `cursor`, oldest first (catching up after a reconnect). */
export async function fetchNewerThan(
  groupId: string,
  cursor: ChatCursor,
  limit = CHAT_PAGE_SIZE,
): Promise<ChatMessageRow[]> {
  const { data, error, status } = await supabase.rpc("group_messages", {
    p_group_id: groupId,
    p_limit: limit,
    p_after_created_at: cursor.createdAt,
    p_after_id: cursor.id,
  });
  if (error) throw toRequestError(error, status);
  return (data ?? []).map(toChatMessageRow);
}

export const communityQueries = {
  groups: () =>
    queryOptions({
      queryKey: groupKeys.list(),
      queryFn: async (): Promise<GroupRow[]> => {
        const { data, error, status } = await supabase.rpc("list_groups");
        if (error) throw toRequestError(error, status);
        return data ?? [];
      },
    }),
  history: (groupId: string) =>
    infiniteQueryOptions({
      queryKey: groupKeys.history(groupId),
      queryFn: ({ pageParam }) => fetchHistoryPage(groupId, pageParam),
      initialPageParam: null as ChatCursor | null,
      getNextPageParam: (lastPage) =>
        lastPage.length < CHAT_PAGE_SIZE ? undefined : cursorOf(lastPage[lastPage.length - 1]!),
      // Live events keep it fresh; a refetch would drop the pages scrolled back to.
      staleTime: Infinity,
    }),
  members: (groupId: string) =>
    queryOptions({
      queryKey: groupKeys.members(groupId),
      queryFn: async (): Promise<MemberRow[]> => {
        const { data, error, status } = await supabase.rpc("group_member_profiles", {
          p_group_id: groupId,
        });
        if (error) throw toRequestError(error, status);
        return data ?? [];
      },
    }),
  blocked: () =>
    queryOptions({
      queryKey: blockKeys.all,
      queryFn: async (): Promise<BlockedUserRow[]> => {
        const { data, error, status } = await supabase.rpc("blocked_users");
        if (error) throw toRequestError(error, status);
        return data ?? [];
      },
    }),
};
