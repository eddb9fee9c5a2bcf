import { z } from "zod";
import { toRequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";

export const reviewReportInputSchema = z.object({
  reportId: z.guid(),
  outcome: z.enum(["dismissed", "resolved"]),
});
export type ReviewReportInput = z.infer<typeof reviewReportInputSchema>;
export const deleteMessageInputSchema = z.object({ messageId: z.guid() });
export type DeleteMessageInput = z.infer<typeof deleteMessageInputSchema>;

/** Dismisses or resolves a report (logged). Use with `useAdminAction`. */
export async function reviewReport(input: ReviewReportInput): Promise<void> {
  const { error, status } = await supabase.rpc("admin_review_report", {
    report: input.reportId,
    outcome: input.outcome,
  });
  if (error) throw toRequestError(error, status);
}

/** Deletes a reported chat message and resolves the open reports on it (logged). */
export async function deleteReportedMessage(input: DeleteMessageInput): Promise<void> {
  const { error, status } = await supabase.rpc("admin_delete_message", {
    message: input.messageId,
  });
  if (error) throw toRequestError(error, status);
}
