import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { assertSaved, toRequestError } from "@/lib/session-expired";
import { i18n } from "@/i18n/i18n";
import { groupKeys } from "./queries";

export const removeMemberInputSchema = z.object({ groupId: z.uuid(), userId: z.uuid() });
export type RemoveMemberInput = z.infer<typeof removeMemberInputSchema>;

/** A group admin removes a member; the database drops their live channel at once. */
export async function removeMember(input: RemoveMemberInput): Promise<void> {
  const { groupId, userId } = removeMemberInputSchema.parse(input);
  const { data, error, status } = await supabase
    .from("group_members")
    .delete()
    .eq("group_id", groupId)
    .eq("user_id", userId)
    .select("id");
  if (error) throw toRequestError(error, status);
  assertSaved(data, i18n.t("common:error.notSaved"));
}

export function useRemoveMember(groupId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeMember({ groupId, userId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.members(groupId) }),
  });
}
