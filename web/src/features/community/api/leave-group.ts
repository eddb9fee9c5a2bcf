import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { i18n } from "@/i18n/i18n";
import { currentUserId } from "./current-user-id";
import { groupKeys } from "./queries";

export const leaveGroupInputSchema = z.object({ groupId: z.uuid() });
export type LeaveGroupInput = z.infer<typeof leaveGroupInputSchema>;

export async function leaveGroup(input: LeaveGroupInput): Promise<void> {
  const { groupId } = leaveGroupInputSchema.parse(input);
  const userId = await currentUserId();
  const { data, error, status } = await supabase
    .from("group_members")
    .delete()
    .eq("group_id", groupId)
    .eq("user_id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

export function useLeaveGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: leaveGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });
}
