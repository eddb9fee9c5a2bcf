import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { currentUserId } from "./current-user-id";
import { blockKeys, groupKeys } from "./queries";

export const unblockUserInputSchema = z.object({ userId: z.uuid() });
export type UnblockUserInput = z.infer<typeof unblockUserInputSchema>;

export async function unblockUser(input: UnblockUserInput): Promise<void> {
  const { userId } = unblockUserInputSchema.parse(input);
  const blockerId = await currentUserId();
  const { error, status } = await supabase
    .from("user_blocks")
    .delete()
    .eq("blocker_id", blockerId)
    .eq("blocked_id", userId);
  if (error) throw toRequestError(error, status);
}

export function useUnblockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unblockUser,
    // The user's messages come back: the histories are read again.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: blockKeys.all }),
        queryClient.invalidateQueries({ queryKey: groupKeys.all }),
      ]),
  });
}
