import { useMutation, useQueryClient } from "@tanstack/react-query";
import { supabase } from "@/lib/supabase";
import { authQueries } from "./queries";

/**
 * Ends the session. Per the spec a failed logout is silently ignored; if the
 * server cannot be reached we still drop the local session so the user is
 * logged out on this device.
 */
export async function signOut(): Promise<void> {
  const { error } = await supabase.auth.signOut();
  if (error) await supabase.auth.signOut({ scope: "local" });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    onSettled: () => queryClient.invalidateQueries({ queryKey: authQueries.all }),
  });
}
