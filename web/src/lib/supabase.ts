import { createClient } from "@supabase/supabase-js";
import { env } from "@/config/env";

/** The one Supabase client of the SPA. Import it; never create another. */
export const supabase = createClient(env.supabaseUrl, env.supabasePublishableKey);
