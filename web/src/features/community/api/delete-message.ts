import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { i18n } from "@/i18n/i18n";
import { type ChatHistory, removeMessage } from "../utils/chat-pages";
import { groupKeys } from "./queries";

export const deleteMessageInputSchema = z.object({ id: z.uuid() });
export type DeleteMessageInput = z.infer<typeof deleteMessageInputSchema>;

/** The sender deletes their message, or a group admin any message of the group. */
export async function deleteMessage(input: DeleteMessageInput): Promise<void> {
  const { id } = deleteMessageInputSchema.parse(input);
  const { data, error, status } = await supabase
    .from("messages")
    .delete()
    .eq("id", id)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("community:chat.notYours"));
}

export function useDeleteMessage(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMessage,
    onSuccess: (_, { id }) =>
      queryClient.setQueryData<ChatHistory>(groupKeys.history(groupId), (old) =>
        removeMessage(old, id),
      ),
  });
}
