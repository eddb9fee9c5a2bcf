import { useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { profileQueryKey } from "@/lib/profile-query";
import { toRequestError, type RequestError } from "@/lib/session-expired";
import { supabase } from "@/lib/supabase";

export const promoteSelfInputSchema = z.object({ secret: z.string().trim().min(1) });
export type PromoteSelfInput = z.infer<typeof promoteSelfInputSchema>;

/** Why a promotion failed: the UI translates each kind. */
export type PromotionFailure =
  | { kind: "wrongSecret" }
  | { kind: "rateLimited" }
  | { kind: "network"; message: string }
  | { kind: "server"; message: string };

export class PromotionError extends Error {
  readonly failure: PromotionFailure;
  constructor(failure: PromotionFailure) {
    super(failure.kind);
    this.failure = failure;
    this.name = "PromotionError";
  }
}

/** A fetch that never reached the server: supabase-js reports status 0 or a fetch TypeError. */
function isNetworkFailure(error: RequestError): boolean {
  return (
    error.status === 0 ||
    /failed to fetch|networkerror|load failed|fetch failed/i.test(error.message)
  );
}

export function toPromotionFailure(error: RequestError): PromotionFailure {
  if (isNetworkFailure(error)) return { kind: "network", message: error.message };
  if (error.code === "PT429" || error.status === 429) return { kind: "rateLimited" };
  return { kind: "server", message: error.message };
}

/** promote_self returns the new plan, or null for a wrong secret (the attempt stays counted). */
export async function promoteSelf(input: PromoteSelfInput): Promise<"enterprise"> {
  let result: { data: unknown; error: { message: string; code?: string } | null; status: number };
  try {
    result = await supabase.rpc("promote_self", {
      secret: promoteSelfInputSchema.parse(input).secret,
    });
  } catch (error) {
    throw new PromotionError({
      kind: "network",
      message: error instanceof Error ? error.message : String(error),
    });
  }
  if (result.error) {
    throw new PromotionError(toPromotionFailure(toRequestError(result.error, result.status)));
  }
  if (result.data !== "enterprise") throw new PromotionError({ kind: "wrongSecret" });
  return "enterprise";
}

export function usePromoteSelf() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: promoteSelf,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}
