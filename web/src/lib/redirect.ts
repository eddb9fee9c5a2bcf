/** Where a successful login lands when no (acceptable) redirect was asked for. */
export const DEFAULT_AFTER_LOGIN = "/dashboard";

export const LOGIN_PATH = "/auth/login";

/**
 * The login route that returns to `redirect` afterwards, e.g.
 * `loginPath("/pricing")` → `/auth/login?redirect=/pricing`. Slashes stay
 * readable (they are legal in a query); everything else is encoded.
 */
export function loginPath(redirect?: string | null): string {
  const safe = safeRedirectPath(redirect);
  if (safe === null) return LOGIN_PATH;
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(safe).replace(/%2F/g, "/")}`;
}

function isControlCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/**
 * The open-redirect guard: returns `value` only when it is a path on this
 * origin ("/pricing", "/support/ticket/1?x=y#z"), else null. Absolute URLs,
 * protocol-relative "//host", backslash tricks and "javascript:" are refused.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//")) return null;
  // Browsers treat "\" like "/" in URLs ("/\evil.com"); control characters are stripped.
  if (value.includes("\\") || [...value].some(isControlCharacter)) return null;
  const base = "http://same-origin.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
