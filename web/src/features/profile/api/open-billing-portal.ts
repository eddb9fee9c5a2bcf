import { useMutation } from "@tanstack/react-query";
import { assignLocation } from "@/lib/browser-location";
import { invokeFunction } from "@/lib/functions";

/** Asks the `billing-portal` edge function for a portal session and leaves for it. */
export async function openBillingPortal(): Promise<void> {
  const data = await invokeFunction<{ url?: unknown } | null>("billing-portal");
  if (typeof data?.url !== "string" || data.url === "") {
    throw new Error("The billing portal answered without a URL");
  }
  assignLocation(data.url);
}

export function useOpenBillingPortal() {
  return useMutation({ mutationFn: openBillingPortal });
}
