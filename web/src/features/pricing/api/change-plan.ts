import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isPaidPlan, PAID_PLAN_IDS, type PaidPlanId } from "@domain/plans";
import { z } from "zod";
import { invokeFunction } from "@/lib/functions";
import { profileQueryKey } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";

export const changePlanInputSchema = z.object({ plan: z.enum(PAID_PLAN_IDS) });
export type ChangePlanInput = z.infer<typeof changePlanInputSchema>;

/** What the `change-plan` function answers (decision 0051). */
export const changePlanResultSchema = z.discriminatedUnion("effective", [
  z.object({ plan: z.enum(PAID_PLAN_IDS), effective: z.literal("now") }),
  z.object({ plan: z.enum(PAID_PLAN_IDS), effective: z.literal("period_end"), at: z.string() }),
  z.object({ plan: z.enum(PAID_PLAN_IDS), effective: z.literal("kept") }),
]);
export type ChangePlanResult = z.infer<typeof changePlanResultSchema>;

/** Asks the `change-plan` function to change the live subscription's plan in place. */
export async function changePlan(input: ChangePlanInput): Promise<ChangePlanResult> {
  const data = await invokeFunction<unknown>("change-plan", changePlanInputSchema.parse(input));
  return changePlanResultSchema.parse(data);
}

export const pendingPlanQueryKey = ["billing", "pending-plan"] as const;

export interface PendingPlan {
  plan: PaidPlanId;
  /** ISO timestamp: when the change takes effect (the end of the paid period). */
  at: string;
}

/** The downgrade waiting for the end of the period, from the user's own subscription row. */
export async function fetchPendingPlan(): Promise<PendingPlan | null> {
  const { data, error } = await supabase
    .from("billing_subscriptions")
    .select("pending_plan, pending_plan_at")
    .in("status", ["active", "trialing"])
    .order("updated_at", { ascending: false })
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  if (!data?.pending_plan || !data.pending_plan_at || !isPaidPlan(data.pending_plan)) return null;
  return { plan: data.pending_plan, at: data.pending_plan_at };
}

export function usePendingPlan(enabled: boolean) {
  return useQuery({ queryKey: pendingPlanQueryKey, queryFn: fetchPendingPlan, enabled });
}

/** Changes the plan; afterwards the profile and the pending change are read again. */
export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePlan,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: profileQueryKey }),
        queryClient.invalidateQueries({ queryKey: pendingPlanQueryKey }),
      ]);
    },
  });
}
