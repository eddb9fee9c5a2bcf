import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { DEFAULT_PRIORITY, USER_PRIORITIES } from "../utils/ticket-values";
import { ticketKeys } from "./queries";

/** Subject 5–100 and details 10–2000 characters after trimming (spec section 5; the table checks the same). */
export const SUBJECT_MIN = 5;
export const SUBJECT_MAX = 100;
export const CONTENT_MIN = 10;
export const CONTENT_MAX = 2000;

/** Messages are keys of the `support` namespace (the form shows them translated). */
export const createTicketSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(SUBJECT_MIN, "support:newTicket.subjectTooShort")
    .max(SUBJECT_MAX, "support:newTicket.subjectTooLong"),
  content: z
    .string()
    .trim()
    .min(CONTENT_MIN, "support:newTicket.contentTooShort")
    .max(CONTENT_MAX, "support:newTicket.contentTooLong"),
  priority: z.enum(USER_PRIORITIES).default(DEFAULT_PRIORITY),
});
export type CreateTicketValues = z.input<typeof createTicketSchema>;
export type CreateTicketInput = z.output<typeof createTicketSchema>;

export async function createTicket(
  input: CreateTicketInput,
): Promise<{ id: string; ticket_number: number }> {
  const { data, error, status } = await supabase
    .from("support_tickets")
    .insert({ subject: input.subject, content: input.content, priority: input.priority })
    .select("id, ticket_number")
    .single();
  if (error) throw toRequestError(error, status);
  return data;
}

export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTicket,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ticketKeys.all }),
  });
}
