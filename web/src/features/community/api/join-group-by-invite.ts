import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";
import { groupKeys } from "./queries";

export const joinByInviteInputSchema = z.object({ code: z.uuid() });
export type JoinByInviteInput = z.infer<typeof joinByInviteInputSchema>;

/** Joins the group of an invite code (public or private); answers the group's id. */
export async function joinGroupByInvite(input: JoinByInviteInput): Promise<string> {
  const { code } = joinByInviteInputSchema.parse(input);
  const { data, error, status } = await supabase.rpc("join_group_by_invite", { code });
  if (error) throw toRequestError(error, status);
  return data;
}

export function useJoinGroupByInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinGroupByInvite,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });
}
