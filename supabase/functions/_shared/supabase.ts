// Resolving the caller from their bearer token. The clients themselves are built in
// `clients.ts`.
import type { Db } from "./clients.ts";
import { HttpError } from "./http.ts";

export interface AuthUser {
  id: string;
  email: string | null;
  banned: boolean;
}

/** Resolves an access token to its user; null when the token is not a valid session. */
export interface UserLookup {
  getUser(accessToken: string): Promise<AuthUser | null>;
}

/** Auth's verdict on the token (`GET /auth/v1/user`), then the profile's ban flag. */
export async function userFromToken(
  client: Db,
  accessToken: string,
): Promise<AuthUser | null> {
  const { data, error } = await client.auth.getUser(accessToken);
  if (error) {
    // 4xx: the token is invalid, expired or its user is gone. Anything else is an outage.
    if (typeof error.status === "number" && error.status >= 400 && error.status < 500) return null;
    if (error.name === "AuthSessionMissingError") return null;
    throw error;
  }
  const { data: profile, error: profileError } = await client
    .from("profiles")
    .select("banned")
    .eq("id", data.user.id)
    .maybeSingle();
  if (profileError) throw profileError;
  if (!profile) return null;
  return { id: data.user.id, email: data.user.email ?? null, banned: profile.banned };
}

export function bearerToken(req: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return match ? match[1]! : null;
}

/** The calling user, else 401; a banned user is refused with 403 unless `allowBanned`. */
export async function requireUser(
  users: UserLookup,
  req: Request,
  opts: { allowBanned?: boolean } = {},
): Promise<AuthUser> {
  const token = bearerToken(req);
  const user = token ? await users.getUser(token) : null;
  if (!user) throw new HttpError(401, "unauthorized", "Please log in again.");
  if (user.banned && !opts.allowBanned) {
    throw new HttpError(403, "banned", "Your account is banned.");
  }
  return user;
}
