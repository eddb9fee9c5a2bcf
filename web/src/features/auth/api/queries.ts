import { queryOptions } from "@tanstack/react-query";
import { supabase } from "@/lib/supabase";

async function getSession() {
  const { data, error } = await supabase.auth.getSession();
  if (error) throw error;
  return data.session;
}

export const authQueries = {
  all: ["auth"] as const,
  session: () =>
    queryOptions({
      queryKey: [...authQueries.all, "session"] as const,
      queryFn: getSession,
    }),
};
