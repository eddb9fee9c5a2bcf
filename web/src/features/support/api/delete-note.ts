import { useMutation, useQueryClient } from "@tanstack/react-query";
import { i18n } from "@/i18n/i18n";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { ticketKeys } from "./queries";

/** An admin deletes one of their own notes; someone else's note is refused (no row deleted). */
export async function deleteNote(noteId: string): Promise<void> {
  const { data, error, status } = await supabase
    .from("ticket_notes")
    .delete()
    .eq("id", noteId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("support:notes.notYours"));
}

export function useDeleteNote(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNote,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ticketKeys.notes(ticketId) }),
  });
}
