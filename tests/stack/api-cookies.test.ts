// The /api layer's cookie session is @supabase/ssr's: a server using @supabase/ssr 0.12.0 reads
// the session POST /api/auth/login sets (also when it is chunked), and the api reads the session
// @supabase/ssr writes. An expired access token in the cookie is refreshed and set again.
import { createServerClient } from "@supabase/ssr";
import { describe, expect, it } from "vitest";
import ws from "ws";
import * as s from "../../supabase/functions/api/schemas.ts";
import { call, CookieJar, expectError, expectJson, freshUser } from "../support/api.ts";
import { stackInfo } from "../support/clients.ts";

/** An @supabase/ssr server client over a cookie jar (what a Next.js/SvelteKit server does). */
function ssrClient(jar: CookieJar) {
  const { url, publishableKey } = stackInfo();
  return createServerClient(url, publishableKey, {
    realtime: { transport: ws as never },
    cookies: {
      getAll: () =>
        [...jar.cookies].map(([name, value]) => ({ name, value: decodeURIComponent(value) })),
      setAll: (cookies) => {
        for (const c of cookies) {
          if (c.value === "" || c.options?.maxAge === 0) jar.cookies.delete(c.name);
          else jar.cookies.set(c.name, encodeURIComponent(c.value));
        }
      },
    },
  });
}

/** Sets the user's metadata (PUT /auth/v1/user with the session's token): a bigger session. */
async function setBio(jar: CookieJar, bio: string | null) {
  const { url, publishableKey } = stackInfo();
  const raw = [...jar.cookies]
    .filter(([k]) => k.startsWith("sb-127-auth-token"))
    .sort()
    .map(([, v]) => decodeURIComponent(v))
    .join("");
  const token = JSON.parse(
    Buffer.from(raw.slice("base64-".length), "base64url").toString(),
  ).access_token;
  const res = await fetch(`${url}/auth/v1/user`, {
    method: "PUT",
    headers: {
      apikey: publishableKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ data: { bio } }),
  });
  expect(res.status, await res.text()).toBe(200);
}

describe("cookie sessions in @supabase/ssr's format", () => {
  it("@supabase/ssr reads the session the api sets", async () => {
    const { jar, email, id } = await freshUser("ssr-read");
    expect([...jar.cookies.keys()]).toEqual(["sb-127-auth-token"]);
    const { data, error } = await ssrClient(jar).auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id, email });
  });

  it("the api reads the session @supabase/ssr sets", async () => {
    const email = `ssr-write-${Date.now().toString(36)}@example.test`;
    await call("/auth/register", { body: { email, password: "correct-horse-1" } });
    const jar = new CookieJar();
    const { error } = await ssrClient(jar).auth.signInWithPassword({
      email,
      password: "correct-horse-1",
    });
    expect(error).toBeNull();
    expect([...jar.cookies.keys()].some((k) => k.startsWith("sb-127-auth-token"))).toBe(true);
    const me = await expectJson(await call("/auth/me", { auth: { jar } }), 200, s.currentUser);
    expect(me.email).toBe(email);
  });

  it("a large session is chunked (.0, .1) the way @supabase/ssr chunks it, both ways", async () => {
    const { jar, email, password, id } = await freshUser("ssr-chunk");
    await setBio(jar, "x".repeat(4000));
    const big = new CookieJar();
    const res = await call("/auth/login", { body: { email, password }, auth: { jar: big } });
    const body = await res.text();
    expect(res.status, body).toBe(200);
    const names = [...big.cookies.keys()].sort();
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(names).toEqual(names.map((_, i) => `sb-127-auth-token.${i}`));
    for (const value of big.cookies.values())
      expect(encodeURIComponent(decodeURIComponent(value)).length).toBeLessThanOrEqual(3180);
    const { data } = await ssrClient(big).auth.getUser();
    expect(data.user?.id).toBe(id);
    // And back: chunks written by @supabase/ssr are read by the api.
    const ssrJar = new CookieJar();
    await ssrClient(ssrJar).auth.signInWithPassword({ email, password });
    expect(ssrJar.cookies.has("sb-127-auth-token.1")).toBe(true);
    await expectJson(await call("/user/me", { auth: { jar: ssrJar } }), 200, s.currentUser);
    // Logging in again with a short session clears the older chunks.
    await setBio(big, null);
    await call("/auth/login", { body: { email, password }, auth: { jar: big } });
    expect([...big.cookies.keys()]).toEqual(["sb-127-auth-token"]);
  });

  it("an expired access token in the cookie is refreshed and the new session set", async () => {
    const { jar } = await freshUser("refresh");
    const raw = jar.cookies.get("sb-127-auth-token")!;
    const session = JSON.parse(Buffer.from(raw.slice("base64-".length), "base64url").toString());
    session.expires_at = Math.floor(Date.now() / 1000) - 10;
    jar.cookies.set(
      "sb-127-auth-token",
      `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`,
    );
    await expectJson(await call("/auth/me", { auth: { jar } }), 200, s.currentUser);
    expect(jar.lastSetCookies.some((c) => c.startsWith("sb-127-auth-token=base64-"))).toBe(true);
    const fresh = JSON.parse(
      Buffer.from(jar.cookies.get("sb-127-auth-token")!.slice(7), "base64url").toString(),
    );
    expect(fresh.refresh_token).not.toBe(session.refresh_token);
    expect(fresh.expires_at).toBeGreaterThan(Date.now() / 1000);
    // A refresh token Auth refuses: logged out, cookie cleared.
    session.refresh_token = "not-a-refresh-token";
    jar.cookies.set(
      "sb-127-auth-token",
      `base64-${Buffer.from(JSON.stringify(session)).toString("base64url")}`,
    );
    await expectError(await call("/auth/me", { auth: { jar } }), 401, "unauthorized");
    expect(jar.cookies.size).toBe(0);
    // A garbled cookie is no session.
    jar.cookies.set("sb-127-auth-token", "base64-%%%");
    await expectError(await call("/auth/me", { auth: { jar } }), 401, "unauthorized");
  });
});
