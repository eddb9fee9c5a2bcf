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
  /** The body's machine-readable `error` code (e.g. `same_plan`) when it has one beside a message. */
  readonly code: string | null;

  constructor(
    functionName: string,
    serverMessage: string | null,
    status: number | null,
    code: string | null = null,
  ) {
    super(serverMessage ?? `Edge function "${functionName}" failed`);
    this.name = "FunctionCallError";
    this.serverMessage = serverMessage;
    this.status = status;
    this.code = code;
  }
}

/** The error body of a `FunctionsHttpError` (its `context` is the fetch Response). */
async function readErrorBody(
  error: unknown,
): Promise<{ message: string | null; status: number | null; code: string | null }> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return { message: null, status: null, code: null };
  try {
    const body: unknown = await context.clone().json();
    if (body && typeof body === "object") {
      const record = body as Record<string, unknown>;
      const code =
        typeof record.message === "string" && typeof record.error === "string"
          ? record.error
          : null;
      for (const field of ["message", "error"] as const) {
        const value = record[field];
        if (typeof value === "string" && value.trim() !== "") {
          return { message: value, status: context.status, code };
        }
      }
    }
  } catch {
    // Not JSON: no server message.
  }
  return { message: null, status: context.status, code: null };
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
    const { message, status, code } = await readErrorBody(error);
    throw new FunctionCallError(name, message, status, code);
  }
  return data as T;
}
