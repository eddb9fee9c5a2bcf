import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { i18n } from "@/i18n/i18n";
import { type ChatHistory, type ChatMessageRow, patchMessage } from "../utils/chat-pages";
import { groupKeys } from "./queries";

/** Spec section 5: an edit must not be blank; at most 2000 characters like any message. */
export const editMessageInputSchema = z.object({
  id: z.uuid(),
  content: z
    .string()
    .max(2000, "community:chat.tooLong")
    .refine((value) => value.trim() !== "", "community:chat.blank"),
});
export type EditMessageInput = z.infer<typeof editMessageInputSchema>;

export async function editMessage(input: EditMessageInput): Promise<ChatMessageRow> {
  const parsed = editMessageInputSchema.parse(input);
  const { data, error, status } = await supabase
    .from("messages")
    .update({ content: parsed.content })
    .eq("id", parsed.id)
    .select("*");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("community:chat.notYours"));
  return data[0]!;
}

export function useEditMessage(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editMessage,
    onSuccess: (row) =>
      queryClient.setQueryData<ChatHistory>(groupKeys.history(groupId), (old) =>
        patchMessage(old, row),
      ),
  });
}
