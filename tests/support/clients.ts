// Official supabase-js clients for tests (Node 20 has no global WebSocket: pass `ws`), typed
// with the generated Database types so the tests exercise them too.
import { createClient, type SupabaseClient, type User } from "@supabase/supabase-js";
import { inject } from "vitest";
import ws from "ws";
import { type DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import type { Database } from "../../web/src/lib/database.types.ts";

export type Client = SupabaseClient<Database>;

export function stackInfo() {
  return inject("stack");
}

export function anonClient(): Client {
  const s = stackInfo();
  return createClient<Database>(s.url, s.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

export function serviceClient(): Client {
  const s = stackInfo();
  return createClient<Database>(s.url, s.secretKey, {
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

export type DemoEmail = (typeof DEMO_ACCOUNTS)[number]["email"];

/** A seeded demo account (supabase/seed.sql), signed in with its own client. */
export async function demoUser(email: DemoEmail): Promise<{ client: Client; user: User }> {
  const client = anonClient();
  const { data, error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  if (error || !data.user) throw error ?? new Error(`${email} could not sign in`);
  return { client, user: data.user };
}
