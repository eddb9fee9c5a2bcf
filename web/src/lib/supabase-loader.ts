import type { SupabaseClient } from "@supabase/supabase-js";
import type { Database } from "@/lib/database.types";

let loading: Promise<{ supabase: SupabaseClient<Database> }> | undefined;

/**
 * The SPA's one Supabase client (`@/lib/supabase`), loaded on first use. What the entry chunk
 * runs (the session, the header, the landing page's teaser, the account's live sync) takes the
 * client from here, so the landing page renders before supabase-js (about 50 KB gzipped) has
 * arrived; pages loaded on demand import `@/lib/supabase` directly. The module's export is read
 * on every call (tests swap the client behind it).
 */
export function loadSupabase(): Promise<SupabaseClient<Database>> {
  loading ??= import("@/lib/supabase");
  return loading.then((m) => m.supabase);
}
