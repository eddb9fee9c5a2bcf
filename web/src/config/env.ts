import { z } from "zod";

const envSchema = z.object({
  VITE_SUPABASE_URL: z.url({ protocol: /^https?$/ }),
  VITE_SUPABASE_PUBLISHABLE_KEY: z.string().trim().min(1),
});

export type Env = {
  supabaseUrl: string;
  supabasePublishableKey: string;
};

/**
 * Validates the build-time environment. Throws one error that names every
 * missing or invalid variable, so a misconfigured build fails loudly at start.
 */
export function parseEnv(source: Record<string, unknown>): Env {
  const result = envSchema.safeParse({
    VITE_SUPABASE_URL: source.VITE_SUPABASE_URL || undefined,
    VITE_SUPABASE_PUBLISHABLE_KEY: source.VITE_SUPABASE_PUBLISHABLE_KEY || undefined,
  });
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      return source[name] ? `${name} is invalid (${issue.message})` : `${name} is missing`;
    });
    throw new Error(
      `Invalid environment: ${problems.join("; ")}. ` +
        "Set it in .env at the repository root or in the environment of the Vite build.",
    );
  }
  return {
    supabaseUrl: result.data.VITE_SUPABASE_URL,
    supabasePublishableKey: result.data.VITE_SUPABASE_PUBLISHABLE_KEY,
  };
}

export const env: Env = parseEnv(import.meta.env);
