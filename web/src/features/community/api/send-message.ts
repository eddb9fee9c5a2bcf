import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { type ChatHistory, type ChatMessageRow, upsertMessage } from "../utils/chat-pages";
import { currentUserId } from "./current-user-id";
import { groupKeys } from "./queries";

/**
 * Spec section 5: content 1-2000 and not blank; a GIF attachment is an http(s) URL. `id` is
 * chosen by the client, so the database's echo on the live channel replaces the optimistic
 * message instead of adding a second one, and a retry cannot send twice.
 */
export const sendMessageInputSchema = z.object({
  id: z.uuid(),
  groupId: z.uuid(),
  content: z
    .string()
    .max(2000, "community:chat.tooLong")
    .refine((value) => value.trim() !== "", "community:chat.blank"),
  attachmentUrl: z.url({ protocol: /^https?$/ }).nullable(),
});
export type SendMessageInput = z.infer<typeof sendMessageInputSchema>;

export async function sendMessage(input: SendMessageInput): Promise<ChatMessageRow> {
  const parsed = sendMessageInputSchema.parse(input);
  const senderId = await currentUserId();
  const { data, error, status } = await supabase
    .from("messages")
    .insert({
      id: parsed.id,
      group_id: parsed.groupId,
      sender_id: senderId,
      content: parsed.content,
      attachment_type: parsed.attachmentUrl ? "gif" : "none",
      attachment_url: parsed.attachmentUrl,
    })
    .select("*")
    .single();
  if (error) {
    // A retry after a lost answer: the first attempt went through.
    if (error.code === "23505") {
      const { data: existing } = await supabase
        .from("messages")
        .select("*")
        .eq("id", parsed.id)
        .maybeSingle();
      if (existing) return existing;
    }
    throw toRequestError(error, status);
  }
  return data;
}

export function useSendMessage(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendMessage,
    onSuccess: (row) =>
      queryClient.setQueryData<ChatHistory>(groupKeys.history(groupId), (old) =>
        upsertMessage(old, row),
      ),
  });
}
