import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { TICKET_STATUSES } from "../utils/ticket-values";
import { ticketKeys, UUID_PATTERN } from "./queries";

/** Ticket status: one of open, in_progress, resolved, closed (spec section 5). */
export const setTicketStatusSchema = z.object({
  ticketId: z.string().regex(UUID_PATTERN),
  status: z.enum(TICKET_STATUSES),
});
export type SetTicketStatusInput = z.infer<typeof setTicketStatusSchema>;

/** Admins only: `admin_set_ticket_status` checks the caller and logs the change. */
export async function setTicketStatus(input: SetTicketStatusInput): Promise<void> {
  const { ticketId, status: newStatus } = setTicketStatusSchema.parse(input);
  const { error, status } = await supabase.rpc("admin_set_ticket_status", {
    ticket: ticketId,
    new_status: newStatus,
  });
  if (error) throw toRequestError(error, status);
}

export function useSetTicketStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTicketStatus,
    onSettled: (_data, _error, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ticketKeys.detail(input.ticketId), exact: true }),
        queryClient.invalidateQueries({ queryKey: ticketKeys.desk() }),
      ]),
  });
}
