import { queryOptions } from "@tanstack/react-query";
import type { Database } from "@/lib/database.types";
import { loadSupabase } from "@/lib/supabase-loader";

export type Profile = Database["public"]["Tables"]["profiles"]["Row"];

async function getProfile(userId: string): Promise<Profile | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase
    .from("profiles")
    .select("*")
    .eq("id", userId)
    .maybeSingle();
  if (error) throw error;
  return data;
}

/** Key prefix of every profile query; invalidate it after changing a profile. */
export const profileQueryKey = ["profile"] as const;

/**
 * The caller's own `profiles` row (plan, subscription, role, ban, username,
 * avatar, alert settings). `null` when the row does not exist (yet).
 */
export function profileQueryOptions(userId: string) {
  return queryOptions({
    queryKey: [...profileQueryKey, userId] as const,
    queryFn: () => getProfile(userId),
  });
}
