// The API gateway on 127.0.0.1:54321: routes /functions/v1/<name> and /api/* to the Deno
// functions host (with CORS and per-function JWT verification, as Supabase's edge gateway
// does), /realtime/v1 HTTP calls to the Realtime stand-in (its WebSocket is served by the
// HTTP server's upgrade handler), /v1/* and /stripe/* to the Stripe stand-in when it is on,
// and everything else (/auth/v1, /rest/v1, /storage/v1) to @supabase/lite.
import { jwtVerify } from "jose";
import type { FunctionsHost } from "./functions/host.ts";

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

export function createGateway(deps: GatewayDeps) {
  return async (req: Request, peerAddress: string | null): Promise<Response> => {
    const { pathname } = new URL(req.url);
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
    if (pathname.startsWith("/storage/v1/object/")) req = await normalizeStorageUpload(req);
    const res = await deps.lite(withForwardedFor(req, peerAddress), peerAddress);
    if (!res.headers.has("access-control-allow-origin")) {
      const headers = new Headers(res.headers);
      headers.set("access-control-allow-origin", "*");
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    }
    return res;
  };
}
