import { supabase } from "@/lib/supabase";

/**
 * A failed edge-function call. `serverMessage` is the `message` (or `error`)
 * field of the function's JSON error body, or null when there is none
 * (network failure, relay error, a body that is not JSON): callers then show
 * their own fallback text.
 */
export class FunctionCallError extends Error {
  readonly serverMessage: string | null;
  readonly status: number | null;

  constructor(functionName: string, serverMessage: string | null, status: number | null) {
    super(serverMessage ?? `Edge function "${functionName}" failed`);
    this.name = "FunctionCallError";
    this.serverMessage = serverMessage;
    this.status = status;
  }
}

/** The error body of a `FunctionsHttpError` (its `context` is the fetch Response). */
async function readErrorBody(
  error: unknown,
): Promise<{ message: string | null; status: number | null }> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return { message: null, status: null };
  try {
    const body: unknown = await context.clone().json();
    if (body && typeof body === "object") {
      for (const field of ["message", "error"] as const) {
        const value = (body as Record<string, unknown>)[field];
        if (typeof value === "string" && value.trim() !== "") {
          return { message: value, status: context.status };
        }
      }
    }
  } catch {
    // Not JSON: no server message.
  }
  return { message: null, status: context.status };
}

/**
 * Calls an edge function with the caller's session and returns its JSON data;
 * throws `FunctionCallError` on any failure.
 */
export async function invokeFunction<T>(name: string, body?: Record<string, unknown>): Promise<T> {
  const { data, error } = await supabase.functions.invoke<T>(
    name,
    body === undefined ? undefined : { body },
  );
  if (error) {
    const { message, status } = await readErrorBody(error);
    throw new FunctionCallError(name, message, status);
  }
  return data as T;
}
