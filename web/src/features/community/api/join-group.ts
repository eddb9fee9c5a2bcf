import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { currentUserId } from "./current-user-id";
import { groupKeys } from "./queries";

export const joinGroupInputSchema = z.object({ groupId: z.uuid() });
export type JoinGroupInput = z.infer<typeof joinGroupInputSchema>;

/** Joins a public group as a member (RLS refuses private groups: they need the invite link). */
export async function joinGroup(input: JoinGroupInput): Promise<void> {
  const { groupId } = joinGroupInputSchema.parse(input);
  const userId = await currentUserId();
  const { error, status } = await supabase
    .from("group_members")
    .insert({ group_id: groupId, user_id: userId, role: "member" });
  // Already a member (another tab joined): the wish is fulfilled.
  if (error && error.code !== "23505") throw toRequestError(error, status);
}

export function useJoinGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });
}
