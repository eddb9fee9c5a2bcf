import { useMutation, useQueryClient } from "@tanstack/react-query";
import { i18n } from "@/i18n/i18n";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { ticketKeys } from "./queries";

export async function deleteCannedReply(id: string): Promise<void> {
  const { data, error, status } = await supabase
    .from("canned_replies")
    .delete()
    .eq("id", id)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("support:errors.forbidden"));
}

export function useDeleteCannedReply() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteCannedReply,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketKeys.cannedReplies() }),
  });
}
