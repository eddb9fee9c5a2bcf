// The cookie session through @supabase/ssr's server client: the cookie's name and attributes,
// a fresh session read as is, refresh near expiry (and a refused refresh clearing the cookie),
// sign-in setting (and chunking) the cookie, sign-out, and the cross-site write guard. Auth is
// a fake fetch that records its calls.
import {
  deepStrictEqual,
  ok,
  rejects,
  strictEqual as assertEquals,
  throws,
} from "node:assert/strict";
import { stringFromBase64URL, stringToBase64URL } from "@supabase/ssr";
import { envFrom } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { RequestSession, sessionConfig, storageKey } from "./session.ts";

const env = envFrom({
  SUPABASE_URL: "http://127.0.0.1:54321",
  SUPABASE_ANON_KEY: "anon-key",
  SITE_URL: "http://127.0.0.1:5173",
});
const KEY = "sb-127-auth-token";
const nowS = () => Math.floor(Date.now() / 1000);

function session(overrides: Record<string, unknown> = {}) {
  return {
    access_token: "a.b.c",
    refresh_token: "r1",
    token_type: "bearer",
    expires_in: 3600,
    expires_at: nowS() + 3600,
    user: { id: "u1", email: "zoë@example.test" },
    ...overrides,
  };
}

/** A cookie value as @supabase/ssr writes it. */
const encode = (value: unknown) => `base64-${stringToBase64URL(JSON.stringify(value))}`;
const decode = (value: string) =>
  JSON.parse(stringFromBase64URL(decodeURIComponent(value).slice("base64-".length)));

interface AuthCall {
  path: string;
  body: Record<string, unknown> | null;
}

/** A fake Auth: `answer(path, body)` gives the status and JSON of each call. */
function fakeAuth(
  answer: (path: string, body: Record<string, unknown> | null) => [number, unknown],
) {
  const calls: AuthCall[] = [];
  const authFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const text = init?.body ? String(init.body) : "";
    const body = text ? JSON.parse(text) as Record<string, unknown> : null;
    const path = url.pathname.replace("/auth/v1", "") + url.search;
    calls.push({ path, body });
    const [status, json] = answer(path, body);
    return await Promise.resolve(
      new Response(status === 204 ? null : JSON.stringify(json), {
        status,
        headers: { "content-type": "application/json" },
      }),
    );
  };
  return { calls, authFetch };
}

const noAuth = fakeAuth((path) => {
  throw new Error(`no Auth call expected: ${path}`);
});

function request(headers: Record<string, string>, method = "GET") {
  return new Request("http://fn.local/api/user/me", { method, headers });
}

/** name → value of the answer's Set-Cookie headers (empty value: cleared). */
function setCookieMap(lines: string[]): Map<string, string> {
  return new Map(lines.map((line) => {
    const pair = line.split(";")[0]!;
    return [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
  }));
}

Deno.test("the cookie is named as supabase-js names its storage key", () => {
  assertEquals(storageKey("https://abcdefgh.supabase.co"), "sb-abcdefgh-auth-token");
  assertEquals(storageKey("http://127.0.0.1:54321"), "sb-127-auth-token");
  assertEquals(storageKey("http://localhost:54321"), "sb-localhost-auth-token");
});

Deno.test("a bearer token wins; a fresh cookie session is used as is, without Auth", async () => {
  const cfg = sessionConfig(env, noAuth.authFetch);
  const bearer = new RequestSession(request({ authorization: "Bearer tok" }), cfg);
  assertEquals(await bearer.token(), "tok");
  assertEquals(bearer.via, "bearer");
  const cookie = new RequestSession(request({ cookie: `${KEY}=${encode(session())}` }), cfg);
  assertEquals(await cookie.token(), "a.b.c");
  assertEquals(cookie.via, "cookie");
  deepStrictEqual(cookie.setCookies, []);
  const none = new RequestSession(request({ cookie: "other=1" }), cfg);
  assertEquals(await none.token(), null);
  deepStrictEqual(none.setCookies, []);
});

Deno.test("a session chunked by @supabase/ssr (.0, .1) is joined and read", async () => {
  const value = encode(session({ user: { id: "u1", bio: "é".repeat(3000) } }));
  const cut = Math.ceil(value.length / 2);
  const cfg = sessionConfig(env, noAuth.authFetch);
  const s = new RequestSession(
    request({ cookie: `${KEY}.0=${value.slice(0, cut)}; ${KEY}.1=${value.slice(cut)}` }),
    cfg,
  );
  assertEquals(await s.token(), "a.b.c");
  deepStrictEqual(s.cookieNames, [`${KEY}.0`, `${KEY}.1`]);
});

Deno.test("an expiring cookie session is refreshed and set again with the cookie's attributes", async () => {
  const fresh = session({ access_token: "new", refresh_token: "r2" });
  const auth = fakeAuth((path, body) =>
    path === "/token?grant_type=refresh_token" && body?.refresh_token === "r1"
      ? [200, fresh]
      : [400, { error_code: "refresh_token_not_found", msg: "Invalid Refresh Token" }]
  );
  const cfg = sessionConfig(env, auth.authFetch);
  const expiring = encode(session({ expires_at: nowS() + 30 })); // within the 90 s margin
  const s = new RequestSession(request({ cookie: `${KEY}=${expiring}` }), cfg);
  assertEquals(await s.token(), "new");
  deepStrictEqual(auth.calls.map((c) => c.path), ["/token?grant_type=refresh_token"]);
  assertEquals(s.setCookies.length, 1);
  const set = s.setCookies[0]!;
  ok(set.startsWith(`${KEY}=base64-`), set);
  for (const attr of ["Max-Age=34560000", "Path=/", "HttpOnly", "SameSite=Lax"]) {
    ok(set.split("; ").includes(attr), `${attr} in ${set}`);
  }
  ok(!set.includes("Secure"), "no Secure on http://127.0.0.1");
  const stored = decode(setCookieMap(s.setCookies).get(KEY)!);
  assertEquals(stored.access_token, "new");
  assertEquals(stored.refresh_token, "r2");
});

Deno.test("a refresh Auth refuses, or a garbled cookie, is no session and clears the cookie", async () => {
  const auth = fakeAuth(() => [400, { error_code: "refresh_token_not_found", msg: "Invalid" }]);
  const cfg = sessionConfig(env, auth.authFetch);
  const expired = encode(session({ expires_at: nowS() - 10, refresh_token: "bad" }));
  const refused = new RequestSession(request({ cookie: `${KEY}=${expired}` }), cfg);
  assertEquals(await refused.token(), null);
  assertEquals(auth.calls.length, 1);
  ok(refused.setCookies.some((c) => c.startsWith(`${KEY}=; Max-Age=0`)), refused.setCookies[0]);

  const garbled = new RequestSession(request({ cookie: `${KEY}=base64-%25%25%25` }), cfg);
  assertEquals(await garbled.token(), null);
  assertEquals(auth.calls.length, 1, "a garbled cookie is not sent to Auth");
  assertEquals(garbled.setCookies.length, 1);
  ok(garbled.setCookies[0]!.startsWith(`${KEY}=; Max-Age=0`), garbled.setCookies[0]);
  ok(garbled.setCookies[0]!.includes("Expires=Thu, 01 Jan 1970 00:00:00 GMT"));
});

Deno.test("Auth failing briefly during a refresh is retried (auth-js's backoff)", async () => {
  let failures = 2;
  const auth = fakeAuth(() =>
    failures-- > 0 ? [503, { msg: "unavailable" }] : [200, session({ access_token: "new" })]
  );
  const expired = encode(session({ expires_at: nowS() - 10 }));
  const s = new RequestSession(
    request({ cookie: `${KEY}=${expired}` }),
    sessionConfig(env, auth.authFetch),
  );
  assertEquals(await s.token(), "new");
  assertEquals(auth.calls.length, 3);
  assertEquals(decode(setCookieMap(s.setCookies).get(KEY)!).access_token, "new");
});

Deno.test("Auth down during a refresh is an error, and the cookie is kept", async () => {
  // auth-js retries 5xx answers with backoff for up to 30 s: each call here moves the clock
  // 10 s on, so it gives up after a few attempts without the test waiting.
  const realNow = Date.now;
  let offset = 0;
  Date.now = () => realNow() + offset;
  try {
    const auth = fakeAuth(() => {
      offset += 10_000;
      return [500, { msg: "database is down" }];
    });
    const expired = encode(session({ expires_at: nowS() - 10 }));
    const s = new RequestSession(
      request({ cookie: `${KEY}=${expired}` }),
      sessionConfig(env, auth.authFetch),
    );
    await rejects(s.token(), (e: unknown) => (e as { status?: number }).status === 500);
    ok(auth.calls.length >= 2, `${auth.calls.length} calls`);
    deepStrictEqual(s.setCookies, []);
  } finally {
    Date.now = realNow;
  }
});

Deno.test("sign-in sets the session cookie, chunked when large, clearing older chunks", async () => {
  const big = session({ user: { id: "u1", bio: "é".repeat(4000) } });
  const auth = fakeAuth((path, body) =>
    path === "/token?grant_type=password" && body?.password === "pw"
      ? [200, body.email === "big@x.test" ? big : session()]
      : [400, { error_code: "invalid_credentials", msg: "Invalid login credentials" }]
  );
  const cfg = sessionConfig(env, auth.authFetch);

  const chunked = new RequestSession(request({}, "POST"), cfg);
  const { error } = await chunked.signIn({ email: "big@x.test", password: "pw" });
  assertEquals(error, null);
  const set = setCookieMap(chunked.setCookies);
  const names = [...set.keys()];
  ok(names.length >= 2, names.join());
  deepStrictEqual(names, names.map((_, i) => `${KEY}.${i}`));
  for (const v of set.values()) ok(v.length <= 3180, `chunk of ${v.length}`);
  deepStrictEqual(decode(names.map((n) => set.get(n)!).join("")), big);

  // A short session over a chunked one: one cookie, the chunks cleared.
  const again = new RequestSession(
    request({ cookie: names.map((n) => `${n}=${set.get(n)}`).join("; ") }, "POST"),
    cfg,
  );
  await again.signIn({ email: "small@x.test", password: "pw" });
  const after = setCookieMap(again.setCookies);
  assertEquals(decode(after.get(KEY)!).access_token, "a.b.c");
  for (const n of names) assertEquals(after.get(n), "", `${n} cleared`);

  const wrong = new RequestSession(request({}, "POST"), cfg);
  const refused = await wrong.signIn({ email: "a@x.test", password: "nope" });
  assertEquals(refused.error?.status, 400);
  deepStrictEqual(wrong.setCookies, []);

  const taken = new RequestSession(request({}, "POST"), cfg);
  await taken.signIn({ email: "small@x.test", password: "pw" });
  assertEquals(taken.setCookies.length, 1);
  taken.discard();
  deepStrictEqual(taken.setCookies, []);
});

Deno.test("sign-out ends the cookie's session at Auth and clears it; a bearer's too", async () => {
  const auth = fakeAuth(() => [204, null]);
  const cfg = sessionConfig(env, auth.authFetch);
  const s = new RequestSession(request({ cookie: `${KEY}=${encode(session())}` }, "POST"), cfg);
  await s.signOut();
  deepStrictEqual(auth.calls.map((c) => c.path), ["/logout?scope=local"]);
  deepStrictEqual([...setCookieMap(s.setCookies)], [[KEY, ""]]);

  const b = new RequestSession(request({ authorization: "Bearer tok" }, "POST"), cfg);
  await b.signOut();
  assertEquals(auth.calls.length, 2);
  assertEquals(auth.calls[1]!.path, "/logout?scope=local");
  deepStrictEqual([...setCookieMap(b.setCookies)], [[KEY, ""]]);

  // Auth down: the cookie is cleared anyway.
  const down = fakeAuth(() => [500, { msg: "down" }]);
  const d = new RequestSession(
    request({ cookie: `${KEY}=${encode(session())}` }, "POST"),
    sessionConfig(env, down.authFetch),
  );
  await d.signOut();
  deepStrictEqual([...setCookieMap(d.setCookies)], [[KEY, ""]]);
});

Deno.test("cookies are Secure unless the site is local over http", () => {
  const hosted = sessionConfig(envFrom({ SUPABASE_URL: "https://ref.supabase.co" }));
  const s = new RequestSession(request({ origin: "https://app.example" }), hosted);
  s.clear();
  ok(s.setCookies[0]!.endsWith("; Secure; SameSite=Lax"), s.setCookies[0]);
  assertEquals(s.key, "sb-ref-auth-token");
  const local = new RequestSession(request({}), sessionConfig(env));
  assertEquals(local.secure, false);
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
