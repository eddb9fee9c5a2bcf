// A supabase-js client signed in as one of the demo accounts, for benches that read as a user.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";

export async function signInDemo(
  url: string,
  publishableKey: string,
  email: string,
): Promise<SupabaseClient> {
  const client = createClient(url, publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  if (error) throw error;
  return client;
}
