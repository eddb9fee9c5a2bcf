// The cookie session's format (@supabase/ssr's: name, base64url value, chunking), the cookie
// attributes, refresh, and the cross-site write guard.
import { deepStrictEqual, ok, strictEqual as assertEquals, throws } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import {
  chunkCookie,
  decodeSession,
  encodeSession,
  MAX_CHUNK_SIZE,
  parseCookies,
  readSessionCookie,
  RequestSession,
  sessionConfig,
  storageKey,
  type StoredSession,
} from "./session.ts";

const SESSION: StoredSession = {
  access_token: "a.b.c",
  refresh_token: "r1",
  expires_at: 2_000_000_000,
  user: { email: "zoë@example.test" },
};

Deno.test("the cookie is named as supabase-js names its storage key", () => {
  assertEquals(storageKey("https://abcdefgh.supabase.co"), "sb-abcdefgh-auth-token");
  assertEquals(storageKey("http://127.0.0.1:54321"), "sb-127-auth-token");
  assertEquals(storageKey("http://localhost:54321"), "sb-localhost-auth-token");
});

Deno.test("values are base64- + base64url of the UTF-8 JSON, and decode back", () => {
  const value = encodeSession(SESSION);
  ok(value.startsWith("base64-"));
  ok(/^base64-[A-Za-z0-9_-]+$/.test(value), value);
  deepStrictEqual(decodeSession(value), SESSION);
  // @supabase/ssr's raw (older) encoding is read too; garbage is no session.
  deepStrictEqual(decodeSession(JSON.stringify(SESSION)), SESSION);
  assertEquals(decodeSession("base64-!!!"), null);
  assertEquals(decodeSession(encodeSession({ nope: 1 } as unknown as StoredSession)), null);
});

Deno.test("long values are chunked at 3180 URL-encoded characters and joined back", () => {
  const big = encodeSession({ ...SESSION, user: { bio: "é".repeat(5000) } });
  const chunks = chunkCookie("sb-x-auth-token", big);
  ok(chunks.length >= 2);
  deepStrictEqual(chunks.map((c) => c.name), chunks.map((_, i) => `sb-x-auth-token.${i}`));
  for (const c of chunks) ok(encodeURIComponent(c.value).length <= MAX_CHUNK_SIZE);
  const jar = new Map(chunks.map((c) => [c.name, c.value]));
  assertEquals(readSessionCookie(jar, "sb-x-auth-token"), big);
  deepStrictEqual(chunkCookie("k", "short"), [{ name: "k", value: "short" }]);
});

Deno.test("Cookie headers are parsed and URL-decoded", () => {
  const jar = parseCookies('a=1; b="two"; c=%3D; broken');
  deepStrictEqual([...jar], [["a", "1"], ["b", "two"], ["c", "="]]);
});

function request(headers: Record<string, string>, method = "GET") {
  return new Request("http://fn.local/api/user/me", { method, headers });
}

const env = envFrom({ SUPABASE_URL: "http://127.0.0.1:54321", SITE_URL: "http://127.0.0.1:5173" });

Deno.test("a bearer token wins; a fresh cookie session is used as is", async () => {
  const cfg = sessionConfig(env, () => Promise.reject(new Error("no refresh expected")));
  const bearer = new RequestSession(request({ authorization: "Bearer tok" }), cfg);
  assertEquals(await bearer.token(), "tok");
  assertEquals(bearer.via, "bearer");
  const cookie = new RequestSession(
    request({ cookie: `sb-127-auth-token=${encodeSession(SESSION)}` }),
    cfg,
  );
  assertEquals(await cookie.token(), "a.b.c");
  assertEquals(cookie.via, "cookie");
  deepStrictEqual(cookie.setCookies, []);
});

Deno.test("an expiring cookie session is refreshed and set again; a refused refresh clears it", async () => {
  const now = 2_000_000_000 * 1000 - 30_000; // 30 s before expiry: within the margin
  const fresh = { ...SESSION, access_token: "new", refresh_token: "r2", expires_at: 2_000_003_600 };
  const cfg = sessionConfig(env, (rt) => Promise.resolve(rt === "r1" ? fresh : null), () => now);
  const s = new RequestSession(
    request({ cookie: `sb-127-auth-token=${encodeSession(SESSION)}` }),
    cfg,
  );
  assertEquals(await s.token(), "new");
  assertEquals(s.setCookies.length, 1);
  const set = s.setCookies[0]!;
  ok(
    set.startsWith(
      `sb-127-auth-token=${encodeSession(fresh)}; Path=/; Max-Age=34560000; HttpOnly; SameSite=Lax`,
    ),
    set,
  );
  ok(!set.includes("Secure"), "no Secure on http://127.0.0.1");

  const refused = new RequestSession(
    request({ cookie: `sb-127-auth-token=${encodeSession({ ...SESSION, refresh_token: "bad" })}` }),
    cfg,
  );
  assertEquals(await refused.token(), null);
  ok(refused.setCookies[0]!.startsWith("sb-127-auth-token=; Path=/; Max-Age=0"));
});

Deno.test("cookies are Secure unless the site is local over http", () => {
  const hosted = sessionConfig(envFrom({ SUPABASE_URL: "https://ref.supabase.co" }));
  const s = new RequestSession(request({ origin: "https://app.example" }), hosted);
  s.store(SESSION);
  ok(s.setCookies[0]!.endsWith("; Secure"));
  assertEquals(s.key, "sb-ref-auth-token");
});

Deno.test("cookie writes from other sites are refused; reads, bearer calls and the app's origins pass", () => {
  const cfg = sessionConfig(env);
  const check = (headers: Record<string, string>, method = "POST") =>
    new RequestSession(request(headers, method), cfg).checkCrossSite();
  const refused = (headers: Record<string, string>, method = "POST") =>
    throws(
      () => check(headers, method),
      (e) => e instanceof HttpError && e.code === "cross_site_request",
    );
  refused({ origin: "https://evil.example" });
  refused({ origin: "null" });
  refused({ "sec-fetch-site": "cross-site" });
  refused({ "sec-fetch-site": "same-site" }, "DELETE");
  check({ origin: "http://127.0.0.1:5173" });
  check({ origin: "http://127.0.0.1:54321" });
  check({ origin: "http://fn.local" });
  check({ "sec-fetch-site": "same-origin" });
  check({}); // not a browser
  check({ origin: "https://evil.example" }, "GET");
  check({ origin: "https://evil.example", authorization: "Bearer t" });
});
