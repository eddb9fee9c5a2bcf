// Shared HTTP helpers for edge functions: CORS headers and JSON errors `{ error, message }`.
export const corsHeaders: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type",
  "Access-Control-Allow-Methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `Retry-After` on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function jsonError(status: number, error: string, message: string): Response {
  return Response.json({ error, message }, { status, headers: corsHeaders });
}
