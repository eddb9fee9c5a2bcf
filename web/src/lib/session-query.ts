import { queryOptions } from "@tanstack/react-query";
import { loadSupabase } from "@/lib/supabase-loader";

async function getSession() {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  return data.session;
}

/**
 * The stored Supabase session. Shared (not in the auth feature) because the
 * current-user hook, the guards and several features read it. The auth
 * listener keeps it in step with supabase-js.
 */
export const sessionQueries = {
  all: ["auth"] as const,
  session: () =>
    queryOptions({
      queryKey: [...sessionQueries.all, "session"] as const,
      queryFn: getSession,
    }),
};
