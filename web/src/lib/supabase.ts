import { createClient } from "@supabase/supabase-js";
import { env } from "@/config/env";
import type { Database } from "@/lib/database.types";

/** The one Supabase client of the SPA. Import it; never create another. */
export const supabase = createClient<Database>(env.supabaseUrl, env.supabasePublishableKey);
