import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { ticketKeys } from "./queries";

export const NOTE_MAX = 2000;

/** An internal note: 1–2000 characters, not blank (the table checks the same). */
export const addNoteSchema = z.object({
  content: z
    .string()
    .max(NOTE_MAX, "support:notes.tooLong")
    .refine((value) => value.trim() !== "", "support:notes.blank"),
});
export type AddNoteInput = z.infer<typeof addNoteSchema>;

/** Admins only (row-level security); the author is the caller. */
export async function addNote(ticketId: string, input: AddNoteInput): Promise<void> {
  const { error, status } = await supabase
    .from("ticket_notes")
    .insert({ ticket_id: ticketId, content: input.content.trim() });
  if (error) throw toRequestError(error, status);
}

export function useAddNote(ticketId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddNoteInput) => addNote(ticketId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.notes(ticketId) }),
  });
}
