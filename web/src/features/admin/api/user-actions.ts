import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { PLAN_IDS, type PlanId } from "@domain/plans";
import { toRequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";
import { adminKeys } from "./queries";

/** Ban reason: 5 to 500 characters after trimming (spec section 5; the RPC checks it too). */
export const BAN_REASON_MIN = 5;
export const BAN_REASON_MAX = 500;

export const banInputSchema = z.object({
  userId: z.guid(),
  reason: z.string().trim().min(BAN_REASON_MIN).max(BAN_REASON_MAX),
});
export type BanInput = z.infer<typeof banInputSchema>;
export const userIdInputSchema = z.object({ userId: z.guid() });
export type UserIdInput = z.infer<typeof userIdInputSchema>;
export const setPlanInputSchema = z.object({ userId: z.guid(), plan: z.enum(PLAN_IDS) });
export type SetPlanInput = { userId: string; plan: PlanId };
export const setSubscriptionInputSchema = z.object({
  userId: z.guid(),
  subscriptionActive: z.boolean(),
});
export type SetSubscriptionInput = z.infer<typeof setSubscriptionInputSchema>;

async function call(promise: PromiseLike<{ error: unknown; status: number }>): Promise<void> {
  const { error, status } = await promise;
  if (error) throw toRequestError(error as { message: string }, status);
}

export const adminUserActions = {
  ban: (input: BanInput) =>
    call(
      supabase.rpc("admin_ban_user", {
        target: input.userId,
        reason: banInputSchema.parse(input).reason,
      }),
    ),
  unban: (input: UserIdInput) => call(supabase.rpc("admin_unban_user", { target: input.userId })),
  remove: (input: UserIdInput) => call(supabase.rpc("admin_delete_user", { target: input.userId })),
  setPlan: (input: SetPlanInput) =>
    call(supabase.rpc("admin_set_plan", { target: input.userId, new_plan: input.plan })),
  setSubscription: (input: SetSubscriptionInput) =>
    call(
      supabase.rpc("admin_set_subscription", {
        target: input.userId,
        active: input.subscriptionActive,
      }),
    ),
};

/**
 * One admin action as a mutation. After it (success or failure) the user list, the stats, the
 * logs and the reports are refetched (spec section 7), and the mutation waits for that.
 */
export function useAdminAction<TInput>(action: (input: TInput) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
