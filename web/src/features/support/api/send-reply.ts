import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { ticketKeys } from "./queries";

export const REPLY_MAX = 2000;

/** A reply: 1–2000 characters, not blank (spec section 5; the table checks the same). */
export const sendReplySchema = z.object({
  content: z
    .string()
    .max(REPLY_MAX, "support:reply.tooLong")
    .refine((value) => value.trim() !== "", "support:reply.blank"),
});
export type SendReplyInput = z.infer<typeof sendReplySchema>;

export async function sendReply(ticketId: string, input: SendReplyInput): Promise<void> {
  const { error, status } = await supabase
    .from("ticket_messages")
    .insert({ ticket_id: ticketId, content: input.content.trim() });
  if (error) throw toRequestError(error, status);
}

/** Sends a reply; the thread and the ticket (its updated_at, the desk) are refetched. */
export function useSendReply(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendReplyInput) => sendReply(ticketId, input),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ticketKeys.detail(ticketId) }),
        queryClient.invalidateQueries({ queryKey: ticketKeys.desk() }),
      ]),
  });
}
