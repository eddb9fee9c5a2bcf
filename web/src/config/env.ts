export type Env = {
  supabaseUrl: string;
  supabasePublishableKey: string;
};

/** Why a value of the Supabase URL is refused, or null when it is an absolute http(s) URL. */
function urlProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? null : "the protocol must be http or https";
  } catch {
    return "not an absolute URL";
  }
}

/**
 * Validates the build-time environment. Throws one error that names every
 * missing or invalid variable, so a misconfigured build fails loudly at start.
 * (Checked by hand, not with zod: this runs on every page before anything else, and zod
 * would add its whole runtime to the first download.)
 */
export function parseEnv(source: Record<string, unknown>): Env {
  const rawUrl = source.VITE_SUPABASE_URL;
  const rawKey = source.VITE_SUPABASE_PUBLISHABLE_KEY;
  const url = typeof rawUrl === "string" ? rawUrl : "";
  const key = typeof rawKey === "string" ? rawKey.trim() : "";
  const problems: string[] = [];
  if (!rawUrl) problems.push("VITE_SUPABASE_URL is missing");
  else {
    const problem = typeof rawUrl === "string" ? urlProblem(url) : "not a string";
    if (problem) problems.push(`VITE_SUPABASE_URL is invalid (${problem})`);
  }
  if (!rawKey) problems.push("VITE_SUPABASE_PUBLISHABLE_KEY is missing");
  else if (!key) problems.push("VITE_SUPABASE_PUBLISHABLE_KEY is invalid (it is blank)");
  if (problems.length > 0) {
    throw new Error(
      `Invalid environment: ${problems.join("; ")}. ` +
        "Set it in .env at the repository root or in the environment of the Vite build.",
    );
  }
  return { supabaseUrl: url, supabasePublishableKey: key };
}

export const env: Env = parseEnv(import.meta.env);
