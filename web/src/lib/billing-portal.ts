import { useMutation } from "@tanstack/react-query";
import { invokeFunction } from "@/lib/functions";

type BillingPortalResponse = { url?: unknown } | null;

/**
 * Asks the `billing-portal` function for the payment provider's subscription management page;
 * resolves with its URL, or null when none came back. Shared by pricing and profile.
 */
export async function billingPortalUrl(): Promise<string | null> {
  const data = await invokeFunction<BillingPortalResponse>("billing-portal");
  const url = data?.url;
  return typeof url === "string" && url !== "" ? url : null;
}

export function useOpenBillingPortal() {
  return useMutation({ mutationFn: billingPortalUrl });
}
