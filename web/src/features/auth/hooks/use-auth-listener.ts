import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { sessionQueries } from "@/lib/session-query";
import { loadSupabase } from "@/lib/supabase-loader";

/**
 * Keeps the cached session in step with supabase-js (sign-in, sign-out,
 * token refresh, other tabs). The event carries the new session, so it is
 * written to the cache directly instead of refetching. Mount once, at the app root.
 */
export function useAuthListener() {
  const queryClient = useQueryClient();

  useEffect(() => {
    let unsubscribe: (() => void) | undefined;
    let disposed = false;
    void loadSupabase().then((supabase) => {
      if (disposed) return;
      const { data } = supabase.auth.onAuthStateChange((event, session) => {
        if (event === "SIGNED_OUT") {
          // Nothing cached for the previous user may leak into the next session.
          queryClient.removeQueries({
            predicate: (query) => query.queryKey[0] !== sessionQueries.all[0],
          });
        }
        queryClient.setQueryData(sessionQueries.session().queryKey, session);
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => {
      disposed = true;
      unsubscribe?.();
    };
  }, [queryClient]);
}
