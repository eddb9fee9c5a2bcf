import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { currentUserId } from "./current-user-id";

export const REPORT_REASONS = ["spam", "harassment", "inappropriate", "other"] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** The database's user_reports: one of four reasons, a description of at most 1000 characters. */
export const reportUserInputSchema = z.object({
  userId: z.uuid(),
  /** The message reported, when the report comes from one; the admins see its text. */
  messageId: z.uuid().optional(),
  reason: z.enum(REPORT_REASONS),
  description: z.string().trim().max(1000, "community:report.descriptionTooLong"),
});
export type ReportUserInput = z.infer<typeof reportUserInputSchema>;

/** SQLSTATE of the unique (reporter, reported, reason): reported for this reason already. */
export const ALREADY_REPORTED = "23505";

/** Records a report for the admins (they list user_reports). */
export async function reportUser(input: ReportUserInput): Promise<void> {
  const parsed = reportUserInputSchema.parse(input);
  const reporterId = await currentUserId();
  const { error, status } = await supabase.from("user_reports").insert({
    reporter_id: reporterId,
    reported_id: parsed.userId,
    reason: parsed.reason,
    ...(parsed.messageId ? { message_id: parsed.messageId } : {}),
    description: parsed.description === "" ? null : parsed.description,
  });
  if (error) throw toRequestError(error, status);
}

export function useReportUser() {
  return useMutation({ mutationFn: reportUser });
}
