import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { currentUserId } from "./current-user-id";
import { blockKeys } from "./queries";

export const blockUserInputSchema = z.object({ userId: z.uuid() });
export type BlockUserInput = z.infer<typeof blockUserInputSchema>;

/** Hides the user's messages from the caller (everywhere, also live). */
export async function blockUser(input: BlockUserInput): Promise<void> {
  const { userId } = blockUserInputSchema.parse(input);
  const blockerId = await currentUserId();
  const { error, status } = await supabase
    .from("user_blocks")
    .insert({ blocker_id: blockerId, blocked_id: userId });
  // Already blocked: the wish is fulfilled.
  if (error && error.code !== "23505") throw toRequestError(error, status);
}

export function useBlockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: blockUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: blockKeys.all }),
  });
}
