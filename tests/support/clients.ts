// Official supabase-js clients for tests (Node 20 has no global WebSocket: pass `ws`).
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { inject } from "vitest";
import ws from "ws";

export function stackInfo() {
  return inject("stack");
}

export function anonClient(): SupabaseClient {
  const s = stackInfo();
  return createClient(s.url, s.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

export function serviceClient(): SupabaseClient {
  const s = stackInfo();
  return createClient(s.url, s.secretKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

let n = 0;
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now().toString(36)}-${(n++).toString(36)}@example.test`;
}

/** A fresh signed-in user with its own client. */
export async function signedInUser(password = "correct-horse-1") {
  const client = anonClient();
  const email = uniqueEmail();
  const { data, error } = await client.auth.signUp({ email, password });
  if (error || !data.user || !data.session) throw error ?? new Error("sign-up returned no session");
  return { client, email, password, user: data.user, session: data.session };
}
