// Reading a function's settings from its environment. Functions take an `Env` (defaulting to
// `Deno.env`) so tests pass their own values without touching the process environment.
import { HttpError } from "./http.ts";

export type Env = (name: string) => string | undefined;

export const denoEnv: Env = (name) => Deno.env.get(name);

/** An `Env` over fixed values (tests). */
export function envFrom(values: Record<string, string | undefined>): Env {
  return (name) => values[name];
}

/**
 * The named variables, or a 500 `{ error: code }` naming every missing one (never a value).
 * An entry `["A", "B"]` accepts A, else B (an alias), and is reported as A.
 */
export function requireEnv<const N extends string>(
  env: Env,
  names: readonly (N | readonly [N, ...string[]])[],
  code: string,
): Record<N, string> {
  const out = {} as Record<N, string>;
  const missing: string[] = [];
  for (const entry of names) {
    const [name, ...aliases] = typeof entry === "string" ? [entry] : entry;
    const value = [name, ...aliases].map((n) => env(n)?.trim()).find((v) => v);
    if (value) out[name as N] = value;
    else missing.push(name);
  }
  if (missing.length > 0) throw notConfigured(code, missing);
  return out;
}

export function notConfigured(code: string, missing: readonly string[]): HttpError {
  const list = missing.join(", ");
  return new HttpError(
    500,
    code,
    missing.length === 1
      ? `The server is missing the environment variable ${list}.`
      : `The server is missing the environment variables ${list}.`,
  );
}
