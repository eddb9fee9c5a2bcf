import { isAuthApiError } from "@supabase/supabase-js";

/** The auth server's own message, or null for network and client errors (callers fall back). */
export function authErrorMessage(error: unknown): string | null {
  if (isAuthApiError(error) && error.message.trim() !== "") return error.message;
  return null;
}
