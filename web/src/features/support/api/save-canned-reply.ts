import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { i18n } from "@/i18n/i18n";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { ticketKeys } from "./queries";

export const CANNED_TITLE_MAX = 80;
export const CANNED_CONTENT_MAX = 2000;

/** A canned reply: a title of 1–80 and a text of 1–2000 characters (the table checks the same). */
export const cannedReplySchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, "support:canned.titleRequired")
    .max(CANNED_TITLE_MAX, "support:canned.titleTooLong"),
  content: z
    .string()
    .max(CANNED_CONTENT_MAX, "support:canned.contentTooLong")
    .refine((value) => value.trim() !== "", "support:canned.contentRequired"),
});
export type CannedReplyInput = z.infer<typeof cannedReplySchema>;

/** Adds a canned reply, or changes the one with `id`. Admins only (row-level security). */
export async function saveCannedReply(input: CannedReplyInput & { id?: string }): Promise<void> {
  const values = { title: input.title.trim(), content: input.content.trim() };
  const { data, error, status } = input.id
    ? await supabase.from("canned_replies").update(values).eq("id", input.id).select("id")
    : await supabase.from("canned_replies").insert(values).select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("support:errors.forbidden"));
}

export function useSaveCannedReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveCannedReply,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.cannedReplies() }),
  });
}
