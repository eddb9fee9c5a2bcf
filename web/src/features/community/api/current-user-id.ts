import { supabase } from "@/lib/supabase";
import { toRequestError } from "@/lib/session-expired";

/** The signed-in user's id, from the stored session; a 401-like error when there is none. */
export async function currentUserId(): Promise<string> {
  const { data } = await supabase.auth.getSession();
  const id = data.session?.user.id;
  if (!id) throw toRequestError({ message: "Not signed in", code: "PGRST301" }, 401);
  return id;
}
