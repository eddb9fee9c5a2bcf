import { queryOptions } from "@tanstack/react-query";
import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";

/** True when nobody else holds `name` (case-insensitive); the caller's own name counts as free. */
async function isUsernameAvailable(name: string): Promise<boolean> {
  const { data, error, status } = await supabase.rpc("username_available", { candidate: name });
  if (error) throw toRequestError(error, status);
  return data === true;
}

/** Queries of the profile page. The profile row itself is `profileQueryOptions` (lib). */
export const profileQueries = {
  all: ["profile-page"] as const,
  usernameAvailability: (name: string) =>
    queryOptions({
      queryKey: [...profileQueries.all, "username-availability", name] as const,
      queryFn: () => isUsernameAvailable(name),
      // Someone else may take the name meanwhile: a cached answer is good for a short while only.
      staleTime: 30_000,
    }),
};
