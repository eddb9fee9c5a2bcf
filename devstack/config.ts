// Local stack configuration: ports, paths and the generated secrets file.
// Secrets are created on first run into `.env.local` (git-ignored) and never committed.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { generateApiKey } from "@supabase/lite";
import { ROOT } from "./deno.ts";

export { ROOT };
export const ENV_FILE = path.join(ROOT, ".env.local");

export interface StackSecrets {
  jwtSecret: string;
  publishableKey: string;
  secretKey: string;
  stripe: StripeSettings;
}

/** Price id per plan, from STRIPE_PRICE_BASIC/_PRO/_ENTERPRISE. */
export const STRIPE_PRICE_VARS = {
  basic: "STRIPE_PRICE_BASIC",
  pro: "STRIPE_PRICE_PRO",
  enterprise: "STRIPE_PRICE_ENTERPRISE",
} as const;

export interface StripeSettings {
  /** True when the local stand-in serves Stripe: no real key is configured. */
  standIn: boolean;
  secretKey: string | null;
  webhookSecret: string | null;
  prices: Record<keyof typeof STRIPE_PRICE_VARS, string | null>;
  /** Server-side only (never VITE_): what the functions host gets. */
  env: Record<string, string>;
}

/** A key of a real Stripe account (not one the stand-in generated). */
export function isRealStripeKey(key: string | undefined): boolean {
  return !!key && /^(sk|rk)_(live|test)_/.test(key) && !key.startsWith("sk_test_local_");
}

/**
 * Stripe settings: with a real STRIPE_SECRET_KEY (and no STRIPE_API_URL) they are passed through
 * untouched; otherwise the local stand-in is on, with a generated key and webhook secret, fixed
 * price ids, and STRIPE_API_URL pointing the SDK at the stack.
 */
function stripeSettings(
  apiUrl: string,
  get: (k: string) => string | undefined,
  additions: Record<string, string>,
): StripeSettings {
  const key = get("STRIPE_SECRET_KEY");
  const vars = ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", ...Object.values(STRIPE_PRICE_VARS)];
  if (isRealStripeKey(key) && !get("STRIPE_API_URL")) {
    const env: Record<string, string> = {};
    for (const k of vars) if (get(k)) env[k] = get(k)!;
    return {
      standIn: false,
      secretKey: key!,
      webhookSecret: get("STRIPE_WEBHOOK_SECRET") ?? null,
      prices: {
        basic: get(STRIPE_PRICE_VARS.basic) ?? null,
        pro: get(STRIPE_PRICE_VARS.pro) ?? null,
        enterprise: get(STRIPE_PRICE_VARS.enterprise) ?? null,
      },
      env,
    };
  }
  const value = (k: string, make: () => string) => get(k) || (additions[k] = make());
  const secretKey = value(
    "STRIPE_SECRET_KEY",
    () => `sk_test_local_${randomBytes(24).toString("hex")}`,
  );
  const webhookSecret = value(
    "STRIPE_WEBHOOK_SECRET",
    () => `whsec_${randomBytes(24).toString("hex")}`,
  );
  const prices = {
    basic: value(STRIPE_PRICE_VARS.basic, () => "price_local_basic"),
    pro: value(STRIPE_PRICE_VARS.pro, () => "price_local_pro"),
    enterprise: value(STRIPE_PRICE_VARS.enterprise, () => "price_local_enterprise"),
  };
  return {
    standIn: true,
    secretKey,
    webhookSecret,
    prices,
    env: {
      STRIPE_SECRET_KEY: secretKey,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      [STRIPE_PRICE_VARS.basic]: prices.basic,
      [STRIPE_PRICE_VARS.pro]: prices.pro,
      [STRIPE_PRICE_VARS.enterprise]: prices.enterprise,
      // Not persisted: it follows API_PORT.
      STRIPE_API_URL: apiUrl,
    },
  };
}

/** Parse a dotenv-style file into a map (no interpolation; quotes stripped). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq < 1) continue;
    const key = line.slice(0, eq).trim();
    let value = line.slice(eq + 1).trim();
    if (/^(['"]).*\1$/.test(value)) value = value.slice(1, -1);
    out[key] = value;
  }
  return out;
}

export function readEnvFile(file = ENV_FILE): Record<string, string> {
  return existsSync(file) ? parseEnvFile(readFileSync(file, "utf8")) : {};
}

/**
 * Load the stack secrets from the environment or `.env.local`, generating any that are
 * missing and appending them to the file (existing lines are never rewritten).
 */
export async function ensureSecrets(apiUrl: string, file = ENV_FILE): Promise<StackSecrets> {
  const fromFile = readEnvFile(file);
  const get = (k: string) => process.env[k] || fromFile[k];
  const additions: Record<string, string> = {};
  let jwtSecret = get("SUPABASE_JWT_SECRET");
  if (!jwtSecret) jwtSecret = additions.SUPABASE_JWT_SECRET = randomBytes(32).toString("base64url");
  let publishableKey = get("SUPABASE_PUBLISHABLE_KEY");
  if (!publishableKey)
    publishableKey = additions.SUPABASE_PUBLISHABLE_KEY = (await generateApiKey("publishable")).key;
  let secretKey = get("SUPABASE_SECRET_KEY");
  if (!secretKey) secretKey = additions.SUPABASE_SECRET_KEY = (await generateApiKey("secret")).key;
  // The SPA reads only VITE_-prefixed variables; the publishable key is public by design.
  if (fromFile.VITE_SUPABASE_URL === undefined) additions.VITE_SUPABASE_URL = apiUrl;
  if (fromFile.VITE_SUPABASE_PUBLISHABLE_KEY !== publishableKey)
    additions.VITE_SUPABASE_PUBLISHABLE_KEY = publishableKey;
  const stripe = stripeSettings(apiUrl, get, additions);
  if (Object.keys(additions).length > 0) {
    const header = existsSync(file)
      ? ""
      : "# Generated by the local stack on first run. Git-ignored: never commit this file.\n";
    const body = Object.entries(additions)
      .map(([k, v]) => `${k}=${v}`)
      .join("\n");
    const prev = existsSync(file) ? readFileSync(file, "utf8") : "";
    const lines = prev
      .split(/\r?\n/)
      .filter((l) => !Object.keys(additions).some((k) => l.startsWith(`${k}=`)));
    writeFileSync(file, `${header}${lines.join("\n").trim()}\n${body}\n`.replace(/^\n/, ""), {
      mode: 0o600,
    });
  }
  return { jwtSecret, publishableKey, secretKey, stripe };
}

export interface StackOptions {
  /** API gateway port (default 54321, like `supabase start`). */
  apiPort: number;
  host: string;
  /** Folder holding PGlite data and storage objects. */
  dataDir: string;
  /** Postgres connection string; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  functionsDir: string;
  migrationsDir: string;
  seedFile?: string;
  configToml: string;
  /** The git-ignored file holding the generated secrets. */
  envFile: string;
  /** Print logs of the stack (requests are never logged). */
  quiet?: boolean;
}

export function defaultOptions(env: NodeJS.ProcessEnv = process.env): StackOptions {
  const port = Number(env.API_PORT ?? 54321);
  return {
    apiPort: port,
    host: "127.0.0.1",
    dataDir: path.resolve(ROOT, env.DATA_DIR ?? ".data"),
    databaseUrl: env.DATABASE_URL || undefined,
    functionsDir: path.join(ROOT, "supabase/functions"),
    migrationsDir: path.join(ROOT, "supabase/migrations"),
    seedFile: path.join(ROOT, "supabase/seed.sql"),
    configToml: path.join(ROOT, "supabase/config.toml"),
    envFile: ENV_FILE,
  };
}
