import { useMutation } from "@tanstack/react-query";
import { PAID_PLAN_IDS } from "@domain/plans";
import { z } from "zod";
import { invokeFunction } from "@/lib/functions";

export const startCheckoutInputSchema = z.object({ plan: z.enum(PAID_PLAN_IDS) });

export type StartCheckoutInput = z.infer<typeof startCheckoutInputSchema>;

type CheckoutResponse = { sessionUrl?: string | null } | null;

/**
 * Asks the `checkout` function for a hosted payment page. Resolves with the
 * page's URL, or null when the function answered without one (spec: "Checkout
 * Error"); throws `FunctionCallError` when the call fails ("Payment Error").
 */
export async function startCheckout(input: StartCheckoutInput): Promise<string | null> {
  const data = await invokeFunction<CheckoutResponse>(
    "checkout",
    startCheckoutInputSchema.parse(input),
  );
  const url = data?.sessionUrl;
  return typeof url === "string" && url !== "" ? url : null;
}

/** Nothing to invalidate: the plan changes only after the payment (webhook), not here. */
export function useStartCheckout() {
  return useMutation({ mutationFn: startCheckout });
}
