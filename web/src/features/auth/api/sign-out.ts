import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { sessionQueries } from "@/lib/session-query";
import { loadSupabase } from "@/lib/supabase-loader";

/**
 * Ends the session. Per the spec a failed logout is silently ignored; if the
 * server cannot be reached we still drop the local session so the user is
 * logged out on this device.
 */
export async function signOut(): Promise<void> {
  try {
    const supabase = await loadSupabase();
    const { error } = await supabase.auth.signOut();
    if (error) await supabase.auth.signOut({ scope: "local" });
  } catch {
    // Ignored (spec section 4): the cache is cleared below regardless.
  }
}

/**
 * Logout (spec section 4): sign out, ignore failures, clear every cached query. The header (in
 * every page's first download) is its only user, so it is a plain hook rather than `useMutation`:
 * TanStack's mutation code stays out of the landing page's budget (decision 0070). Same shape as
 * a mutation's result: `mutate()` and `isPending`.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const [isPending, setPending] = useState(false);
  const mutate = useCallback(() => {
    setPending(true);
    void signOut().finally(() => {
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== sessionQueries.all[0],
      });
      // Observers of the session (header, guards) switch to "logged out" at once.
      queryClient.setQueryData(sessionQueries.session().queryKey, null);
      setPending(false);
    });
  }, [queryClient]);
  return { mutate, isPending };
}
