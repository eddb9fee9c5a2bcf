// The API gateway on 127.0.0.1:54321: routes /functions/v1/<name> and /api/* to the Deno
// functions host (with CORS and per-function JWT verification, as Supabase's edge gateway
// does), /realtime/v1 HTTP calls to the Realtime stand-in (its WebSocket is served by the
// HTTP server's upgrade handler), /v1/* and /stripe/* to the Stripe stand-in when it is on,
// and everything else (/auth/v1, /rest/v1, /storage/v1) to @supabase/lite.
import { errors as joseErrors, jwtVerify } from "jose";
import { declaredTooLarge, limitBody } from "./body-limit.ts";
import type { FunctionsHost } from "./functions/host.ts";
import { badRequestTarget } from "./http-guard.ts";
import {
  authRateBucket,
  DEFAULT_AUTH_RATE_LIMITS,
  RateLimiter,
  type AuthRateLimits,
} from "./rate-limit.ts";

export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, x-client-info, apikey, content-type, x-region",
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
};

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...CORS_HEADERS, ...headers },
  });
}

export interface GatewayDeps {
  lite: (req: Request, peerAddress: string | null) => Promise<Response>;
  functions: () => FunctionsHost | null;
  realtime?: (req: Request) => Promise<Response>;
  /** The Stripe stand-in (Stripe's /v1 API and its hosted pages); absent with a real key. */
  stripe?: (req: Request) => Promise<Response>;
  jwtSecret: string;
  secretKey: string;
  /** The publishable (anon) key: valid as apikey and as bearer (anon). */
  publishableKey?: string;
  /** Largest request body of a Storage object upload (default 50 MiB + 1 MiB of multipart framing). */
  maxUploadBytes?: number;
  /** Largest request body of every other route (default 10 MiB). */
  maxBodyBytes?: number;
  /** Auth's per-IP limits per 5 minutes (default: the Supabase CLI's). */
  authRateLimits?: AuthRateLimits;
}

export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Room for the multipart framing around the object (boundaries, part headers, other fields). */
export const MULTIPART_ROOM_BYTES = 1024 * 1024;
export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024 + MULTIPART_ROOM_BYTES;

/** Hop-by-hop headers: meaningful for one connection only, never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = [
  "connection",
  "expect",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
];

function bearerOf(req: Request): string | null {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "");
  return m ? m[1]!.trim() : null;
}

/** Why a bearer token is refused (PostgREST's wording), or null when it is valid. */
async function bearerProblem(
  token: string,
  deps: GatewayDeps,
): Promise<{ code: string; message: string } | null> {
  if (token === deps.secretKey || (deps.publishableKey && token === deps.publishableKey))
    return null;
  const parts = token.split(".").length;
  if (parts !== 3) return { code: "PGRST301", message: `Expected 3 parts in JWT; got ${parts}` };
  try {
    await jwtVerify(token, new TextEncoder().encode(deps.jwtSecret), { algorithms: ["HS256"] });
    return null;
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) return { code: "PGRST303", message: "JWT expired" };
    return { code: "PGRST301", message: "JWSError JWSInvalidSignature" };
  }
}

/** Valid when the bearer is a JWT signed by the stack or the secret (service-role) key. */
async function authorized(req: Request, deps: GatewayDeps): Promise<boolean> {
  const header = req.headers.get("authorization") ?? "";
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (!m) return false;
  const token = m[1]!.trim();
  if (token === deps.secretKey) return true;
  try {
    await jwtVerify(token, new TextEncoder().encode(deps.jwtSecret), { algorithms: ["HS256"] });
    return true;
  } catch {
    return false;
  }
}

async function toFunction(
  req: Request,
  name: string,
  rest: string,
  deps: GatewayDeps,
): Promise<Response> {
  if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS_HEADERS });
  const host = deps.functions();
  if (!host)
    return json(503, { error: "unavailable", message: "The functions host is not running." });
  if (!host.names().includes(name)) {
    return json(404, { error: "not_found", message: `Function ${name} not found` });
  }
  if (host.verifyJwt(name) && !(await authorized(req, deps))) {
    const missing = !req.headers.get("authorization");
    return json(401, {
      code: 401,
      message: missing ? "Missing authorization header" : "Invalid JWT",
    });
  }
  const url = new URL(req.url);
  const target = `http://127.0.0.1:${host.port}/${name}${rest}${url.search}`;
  const headers = new Headers(req.headers);
  headers.delete("host");
  // curl sends `Expect: 100-continue` for bodies over 1 MB; Node has answered it already, and
  // fetch refuses to forward it (every such call failed with 502).
  for (const h of HOP_BY_HOP) headers.delete(h);
  const init: RequestInit & { duplex?: string } = {
    method: req.method,
    headers,
    redirect: "manual",
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = req.body;
    init.duplex = "half";
  }
  let res: Response | undefined;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      res = await fetch(target, init);
      break;
    } catch (err) {
      // The host restarts on file changes in `npm run dev`; wait for it briefly.
      if (init.body || attempt === 19) {
        return json(502, {
          error: "bad_gateway",
          message: `Function ${name} is unavailable: ${(err as Error).message}`,
        });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const out = new Headers(res!.headers);
  for (const [k, v] of Object.entries(CORS_HEADERS)) if (!out.has(k)) out.set(k, v);
  out.delete("content-encoding");
  out.delete("content-length");
  out.delete("transfer-encoding");
  return new Response(res!.body, {
    status: res!.status,
    statusText: res!.statusText,
    headers: out,
  });
}

/**
 * storage-js sends a Blob/File upload as multipart with the file under an empty field name,
 * which Supabase Storage accepts; @supabase/lite 0.10.0 only reads a field named "file".
 * Rename the first file part so the official client works unchanged (see docs/decisions).
 */
export async function normalizeStorageUpload(req: Request): Promise<Request> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data") || (req.method !== "POST" && req.method !== "PUT"))
    return req;
  const form = await req.formData();
  if (form.get("file") instanceof Blob) return rebuild(req, form);
  const out = new FormData();
  let moved = false;
  for (const [key, value] of form.entries()) {
    if (!moved && typeof value !== "string") {
      out.append("file", value);
      moved = true;
    } else out.append(key, value);
  }
  return rebuild(req, out);
}

function rebuild(req: Request, form: FormData): Request {
  const headers = new Headers(req.headers);
  headers.delete("content-type");
  headers.delete("content-length");
  return new Request(req.url, { method: req.method, headers, body: form });
}

/**
 * The gateway is the edge: like Supabase's, it sets X-Forwarded-For to the socket's address
 * (a client-supplied value is discarded, so it cannot be spoofed) and the database sees the
 * caller's IP in `request.headers` (admin actions log it).
 */
export function withForwardedFor(req: Request, peerAddress: string | null): Request {
  const headers = new Headers(req.headers);
  headers.delete("x-real-ip");
  if (peerAddress) headers.set("x-forwarded-for", peerAddress.replace(/^::ffff:/, ""));
  else headers.delete("x-forwarded-for");
  return new Request(req, { headers });
}

/** A CORS preflight answer allowing the requested method and headers from any origin. */
export function preflight(req: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD",
      "access-control-allow-headers":
        req.headers.get("access-control-request-headers") ??
        CORS_HEADERS["access-control-allow-headers"]!,
      "access-control-max-age": "86400",
    },
  });
}

/** The body limit of a request and whether it is a Storage object upload. */
export function bodyLimit(
  method: string,
  pathname: string,
  limits: { maxUploadBytes?: number; maxBodyBytes?: number },
): { upload: boolean; limit: number } {
  const upload =
    pathname.startsWith("/storage/v1/object/") && (method === "POST" || method === "PUT");
  return upload
    ? { upload, limit: limits.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES }
    : { upload, limit: limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
}

/** 413, in Storage's shape for object uploads and `{ error, message }` elsewhere. */
export function tooLarge(upload: boolean, limit: number): Response {
  const mib = Math.round((limit / 1024 / 1024) * 10) / 10;
  const body = upload
    ? {
        statusCode: "413",
        error: "Payload too large",
        message: "The object exceeded the maximum allowed size",
      }
    : { error: "payload_too_large", message: `The request body is larger than ${mib} MiB.` };
  // Close the connection: the rest of an oversized body is not read.
  return json(413, body, { connection: "close" });
}

/** GoTrue's 429, as auth-js reads it (`error_code`). */
function rateLimited(retryAfter: number): Response {
  return json(
    429,
    { code: 429, error_code: "over_request_rate_limit", msg: "Request rate limit reached" },
    { "retry-after": String(Math.max(1, retryAfter)) },
  );
}

/** Auth calls carrying an e-mail address (sign-up, OTP, magic link, recovery, change). */
const EMAIL_ROUTES =
  /^\/auth\/v1\/(signup|token|otp|magiclink|recover|user|admin\/users(\/[^/]+)?)\/?$/;

/**
 * GoTrue refuses an e-mail address longer than 255 characters with 400 `validation_failed`;
 * lite tried to store it and failed with 500 (and logged the row, bcrypt hash included). The
 * same for a NUL character, which Postgres cannot store.
 */
async function checkAuthEmail(req: Request, pathname: string): Promise<Request | Response> {
  if (!EMAIL_ROUTES.test(pathname) || !["POST", "PUT"].includes(req.method) || !req.body)
    return req;
  if (!/json/i.test(req.headers.get("content-type") ?? "")) return req;
  const text = await req.text();
  let email: unknown;
  try {
    email = (JSON.parse(text) as { email?: unknown } | null)?.email;
  } catch {
    email = undefined;
  }
  const invalid = (msg: string) => json(400, { code: 400, error_code: "validation_failed", msg });
  if (typeof email === "string" && email.length > 255)
    return invalid("An email address is too long");
  // Postgres cannot store NUL in text or jsonb: lite failed with 500 (and logged the row).
  if (/\\u0000/i.test(text)) {
    return invalid(
      typeof email === "string" && email.includes("\0")
        ? "Unable to validate email address: invalid format"
        : "The request contains a NUL character.",
    );
  }
  const headers = new Headers(req.headers);
  headers.delete("content-length");
  return new Request(req.url, { method: req.method, headers, body: text, signal: req.signal });
}

export function createGateway(deps: GatewayDeps) {
  const maxUpload = deps.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const maxBody = deps.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const rates = deps.authRateLimits ?? DEFAULT_AUTH_RATE_LIMITS;
  const limiters = Object.fromEntries(
    Object.entries(rates).map(([k, n]) => [k, new RateLimiter(n)]),
  ) as Record<keyof AuthRateLimits, RateLimiter>;
  const knownKey = (k: string | null) =>
    !!k && (k === deps.secretKey || (!!deps.publishableKey && k === deps.publishableKey));

  const route = async (req: Request, url: URL, peerAddress: string | null) => {
    const { pathname } = url;
    const fn = /^\/functions\/v1\/([^/]+)(\/.*)?$/.exec(pathname);
    if (fn) return toFunction(req, fn[1]!, fn[2] ?? "", deps);
    if (pathname === "/api" || pathname.startsWith("/api/")) {
      return toFunction(req, "api", pathname.slice("/api".length), deps);
    }
    if (deps.stripe && (pathname.startsWith("/v1/") || pathname.startsWith("/stripe/"))) {
      return deps.stripe(req);
    }
    if (pathname.startsWith("/realtime/v1/")) {
      if (req.method === "OPTIONS")
        return new Response(null, { status: 204, headers: CORS_HEADERS });
      if (!deps.realtime) return json(503, { message: "Realtime is not running" });
      const res = await deps.realtime(req);
      for (const [k, v] of Object.entries(CORS_HEADERS)) res.headers.set(k, v);
      return res;
    }
    // lite 0.10.0 answers Auth's CORS preflight without access-control-allow-headers, so
    // browsers refuse supabase-js's sign-in; answer every preflight here, as Supabase's gateway does.
    if (req.method === "OPTIONS" && req.headers.has("access-control-request-method")) {
      return preflight(req);
    }
    const ip = peerAddress?.replace(/^::ffff:/, "") ?? "unknown";
    if (pathname.startsWith("/auth/v1/")) {
      const bucket = authRateBucket(req.method, pathname, url.searchParams);
      if (bucket && !limiters[bucket].take(ip)) {
        return rateLimited(limiters[bucket].retryAfter(ip));
      }
      const checked = await checkAuthEmail(req, pathname);
      if (checked instanceof Response) return checked;
      req = checked;
    }
    // PostgREST (behind Kong) answers a bearer it cannot verify with 401; lite took it as anon.
    if (pathname.startsWith("/rest/v1/") || pathname === "/rest/v1") {
      const token = bearerOf(req);
      const problem = token === null ? null : await bearerProblem(token, deps);
      if (problem) {
        return json(
          401,
          { code: problem.code, details: null, hint: null, message: problem.message },
          {
            "www-authenticate": `Bearer error="invalid_token", error_description="${problem.message}"`,
          },
        );
      }
    }
    if (pathname.startsWith("/storage/v1/object/")) {
      if (isUpload(req)) {
        // Refuse an unauthenticated upload before its body is read (Kong and Storage do).
        const apikey = req.headers.get("apikey") ?? url.searchParams.get("apikey");
        if (!knownKey(apikey)) {
          return json(
            401,
            {
              message: apikey ? "Invalid API key" : "No API key found in request",
              hint: apikey
                ? "Double check your Supabase `apikey`"
                : "No `apikey` request header or url param was found.",
            },
            // The body is not read: close the connection rather than drain it.
            { connection: "close" },
          );
        }
        const token = bearerOf(req);
        if (token !== null && (await bearerProblem(token, deps))) {
          return json(
            401,
            { statusCode: "401", error: "InvalidJWT", message: "Invalid JWT" },
            { connection: "close" },
          );
        }
      }
      try {
        req = await normalizeStorageUpload(req);
      } catch (err) {
        if ((err as Error).name === "AbortError") throw err;
        return json(400, {
          statusCode: "400",
          error: "invalid_request",
          message: "The multipart body could not be read.",
        });
      }
    }
    const res = await deps.lite(withForwardedFor(req, peerAddress), peerAddress);
    if (!res.headers.has("access-control-allow-origin")) {
      const headers = new Headers(res.headers);
      headers.set("access-control-allow-origin", "*");
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    return res;
  };

  return async (req: Request, peerAddress: string | null): Promise<Response> => {
    const url = new URL(req.url);
    const bad = badRequestTarget(url.pathname + url.search);
    if (bad) return json(400, { error: "bad_request", message: bad });
    const { upload, limit } = bodyLimit(req.method, url.pathname, {
      maxUploadBytes: maxUpload,
      maxBodyBytes: maxBody,
    });
    if (!req.body) return route(req, url, peerAddress);
    if (declaredTooLarge(req, limit)) return tooLarge(upload, limit);
    const limited = limitBody(req, limit);
    try {
      const res = await route(limited.req, url, peerAddress);
      if (limited.exceeded()) {
        await res.body?.cancel().catch(() => {});
        return tooLarge(upload, limit);
      }
      return res;
    } catch (err) {
      if (limited.exceeded()) return tooLarge(upload, limit);
      throw err;
    }
  };
}

function isUpload(req: Request): boolean {
  return req.method === "POST" || req.method === "PUT";
}
