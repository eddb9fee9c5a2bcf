// Contract of the /api layer's account routes (specification section 7) against the real
// stack, on PGlite and PostgreSQL: auth (login, register, logout, me), user (me, settings,
// profile, check-username, upload-avatar) and checkout — shapes, statuses, the `{ error }` the
// screens read, auth by cookie and by bearer, and the cross-site write guard.
import { describe, expect, it } from "vitest";
import * as s from "../../supabase/functions/api/schemas.ts";
import {
  bearerOf,
  call,
  cookieLogin,
  CookieJar,
  expectError,
  expectJson,
  freshUser,
} from "../support/api.ts";
import { stackInfo } from "../support/clients.ts";

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

describe("/api/auth", () => {
  it("login sets the @supabase/ssr session cookie and answers the user", async () => {
    const jar = new CookieJar();
    const res = await call("/auth/login", {
      body: { email: "pro@demo.local", password: "demo-password-1" },
      auth: { jar },
    });
    const body = await expectJson(res, 200, s.loginResult);
    expect(body.user).toMatchObject({ email: "pro@demo.local", plan: "pro", role: "user" });
    const cookie = jar.lastSetCookies.find((c) => c.startsWith("sb-127-auth-token"))!;
    expect(cookie).toMatch(/^sb-127-auth-token(\.0)?=base64-/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/; Secure/); // http://127.0.0.1 is local
  });

  it("login refuses a wrong password (401), bad input (400) and a banned account (403)", async () => {
    await expectError(
      await call("/auth/login", { body: { email: "pro@demo.local", password: "nope-nope" } }),
      401,
      "invalid_credentials",
    );
    const bad = await expectError(
      await call("/auth/login", { body: { email: "not-an-email", password: "x" } }),
      400,
      "invalid_request",
    );
    expect(bad.error).toMatch(/Invalid email address/);
    await expectError(
      await call("/auth/login", { body: { email: "a@b.co", password: "" } }),
      400,
      "invalid_request",
    );
    await expectError(await call("/auth/login", { body: "{not json" }), 400, "invalid_json");
    await expectError(
      await call("/auth/login", {
        body: { email: "banned@demo.local", password: "demo-password-1" },
      }),
      403,
      "banned",
    );
  });

  it("register creates an account (201), refuses a taken e-mail (409) and a short password (400)", async () => {
    const email = `reg-${Date.now().toString(36)}@example.test`;
    const body = await expectJson(
      await call("/auth/register", { body: { email, password: "correct-horse-1" } }),
      201,
      s.registerResult,
    );
    expect(body.user.email).toBe(email);
    await expectError(
      await call("/auth/register", { body: { email, password: "correct-horse-1" } }),
      409,
      "email_taken",
    );
    const short = await expectError(
      await call("/auth/register", { body: { email: `x${email}`, password: "short" } }),
      400,
      "invalid_request",
    );
    expect(short.error).toMatch(/Password must be at least 8 characters/);
  });

  it("me answers by cookie and by bearer, on /api and /functions/v1/api; 401 without", async () => {
    const jar = await cookieLogin("basic@demo.local");
    for (const base of ["/api", "/functions/v1/api"]) {
      const byCookie = await expectJson(
        await call("/auth/me", { auth: { jar }, base }),
        200,
        s.currentUser,
      );
      expect(byCookie.email).toBe("basic@demo.local");
      const byBearer = await expectJson(
        await call("/user/me", { auth: await bearerOf("basic@demo.local"), base }),
        200,
        s.currentUser,
      );
      expect(byBearer).toMatchObject({
        email: "basic@demo.local",
        plan: "basic",
        subscriptionActive: true,
      });
      await expectError(await call("/auth/me", { base }), 401, "unauthorized");
    }
    await expectError(
      await call("/user/me", { auth: { bearer: "garbage.token.here" } }),
      401,
      "unauthorized",
    );
  });

  it("logout clears the cookie and ends the session at Auth", async () => {
    const { jar } = await freshUser("logout");
    const token = JSON.parse(
      Buffer.from(
        jar.cookies.get("sb-127-auth-token")!.slice("base64-".length),
        "base64url",
      ).toString(),
    ).access_token as string;
    await expectJson(await call("/auth/logout", { method: "POST", auth: { jar } }), 200, s.ok);
    expect(jar.lastSetCookies.some((c) => /^sb-127-auth-token=;.*Max-Age=0/.test(c))).toBe(true);
    expect(jar.cookies.size).toBe(0);
    await expectError(await call("/auth/me", { auth: { jar } }), 401, "unauthorized");
    await expectError(await call("/auth/me", { auth: { bearer: token } }), 401, "unauthorized");
    // Logging out without a session is fine too (the client ignores failures anyway).
    await expectJson(await call("/auth/logout", { method: "POST" }), 200, s.ok);
  });
});

describe("/api/user", () => {
  it("settings: a valid subset is saved; out-of-range values are 400; the plan's rules are the database's", async () => {
    const { jar } = await freshUser("settings");
    const saved = await expectJson(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { userThreshold: 12.5 },
      }),
      200,
      s.currentUser,
    );
    expect(saved.userThreshold).toBe(12.5);
    await expectError(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { userThreshold: 101 },
      }),
      400,
      "invalid_request",
    );
    await expectError(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { selectedExchanges: ["nyse"] },
      }),
      400,
      "invalid_request",
    );
    // E-mail alerts are for enterprise only: the database's trigger says so.
    const refused = await expectError(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { emailAlert: "me@example.test" },
      }),
      400,
      "invalid_request",
    );
    expect(refused.error).toMatch(/enterprise/i);
    // A window the plan does not offer.
    const window = await expectError(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { selectedWindowMinutes: 5 },
      }),
      400,
      "invalid_request",
    );
    expect(window.error).toMatch(/window/i);
    await expectError(
      await call("/user/settings", { method: "PATCH", body: {} }),
      401,
      "unauthorized",
    );
  });

  it("profile: read, change the username, 409 when taken, 400 when malformed", async () => {
    const a = await freshUser("profa");
    const b = await freshUser("profb");
    const name = `u_${Date.now().toString(36)}`;
    const before = await expectJson(
      await call("/user/profile", { auth: { jar: a.jar } }),
      200,
      s.profile,
    );
    expect(before).toMatchObject({
      email: a.email,
      username: null,
      plan: "none",
      subscriptionActive: false,
    });
    const after = await expectJson(
      await call("/user/profile", {
        method: "PATCH",
        auth: { jar: a.jar },
        body: { username: name },
      }),
      200,
      s.profile,
    );
    expect(after.username).toBe(name);
    const taken = await expectError(
      await call("/user/profile", {
        method: "PATCH",
        auth: { jar: b.jar },
        body: { username: name.toUpperCase() },
      }),
      409,
      "username_taken",
    );
    expect(taken.error).toBe("Username is already taken");
    const bad = await expectError(
      await call("/user/profile", {
        method: "PATCH",
        auth: { jar: b.jar },
        body: { username: "no spaces" },
      }),
      400,
      "invalid_request",
    );
    expect(bad.error).toMatch(/letters, numbers and underscores/);

    const check = async (jar: CookieJar, candidate: string) =>
      expectJson(
        await call(`/user/check-username/${candidate}`, { auth: { jar } }),
        200,
        s.availability,
      );
    expect((await check(b.jar, name)).available).toBe(false);
    expect((await check(a.jar, name)).available).toBe(true); // one's own name
    expect((await check(b.jar, `${name}x`)).available).toBe(true);
    expect((await check(b.jar, "ab")).available).toBe(false);
    await expectError(await call(`/user/check-username/${name}`), 401, "unauthorized");
  });

  it("upload-avatar stores an image by content and sets the profile picture; other files are refused", async () => {
    const { jar } = await freshUser("avatar");
    const form = new FormData();
    form.set("avatar", new Blob([PNG], { type: "image/png" }), "me.png");
    const { avatarUrl } = await expectJson(
      await call("/user/upload-avatar", { method: "POST", auth: { jar }, body: form }),
      200,
      s.avatarResult,
    );
    expect(avatarUrl).toMatch(/\/storage\/v1\/object\/public\/avatars\/.+\.png$/);
    expect((await fetch(avatarUrl)).status).toBe(200);
    const profile = await expectJson(
      await call("/user/profile", { auth: { jar } }),
      200,
      s.profile,
    );
    expect(profile.profilePicture).toBe(avatarUrl);

    const text = new FormData();
    text.set("avatar", new Blob(["hello"], { type: "image/png" }), "fake.png");
    await expectError(
      await call("/user/upload-avatar", { method: "POST", auth: { jar }, body: text }),
      415,
      "invalid_file_type",
    );
    const empty = new FormData();
    empty.set("other", "x");
    await expectError(
      await call("/user/upload-avatar", { method: "POST", auth: { jar }, body: empty }),
      400,
      "missing_file",
    );
    await expectError(
      await call("/user/upload-avatar", { method: "POST", body: form }),
      401,
      "unauthorized",
    );
  });
});

describe("/api/checkout", () => {
  it("answers the hosted payment page's URL; an unknown plan is 400; logged out is 401", async () => {
    const { jar } = await freshUser("checkout");
    const { sessionUrl } = await expectJson(
      await call("/checkout", { auth: { jar }, body: { plan: "pro" } }),
      200,
      s.checkoutResult,
    );
    expect(sessionUrl).toMatch(/^https?:\/\//);
    await expectError(
      await call("/checkout", { auth: { jar }, body: { plan: "gold" } }),
      400,
      "invalid_request",
    );
    await expectError(await call("/checkout", { body: { plan: "pro" } }), 401, "unauthorized");
  });
});

describe("cross-site writes", () => {
  it("a cookie-authenticated write from another origin is refused; the same origin and bearer pass", async () => {
    const { jar } = await freshUser("csrf");
    const evil = await expectError(
      await call("/user/settings", {
        method: "PATCH",
        auth: { jar },
        body: { userThreshold: 50 },
        headers: { origin: "https://evil.example" },
      }),
      403,
      "cross_site_request",
    );
    expect(evil.error).toMatch(/another site/);
    await expectError(
      await call("/auth/logout", {
        method: "POST",
        auth: { jar },
        headers: { origin: "null" },
      }),
      403,
      "cross_site_request",
    );
    // No Origin, but the browser says cross-site.
    const res = await fetch(`${stackInfo().url}/api/user/settings`, {
      method: "PATCH",
      headers: {
        cookie: jar.header(),
        "content-type": "application/json",
        "sec-fetch-site": "cross-site",
      },
      body: JSON.stringify({ userThreshold: 50 }),
    });
    await expectError(res, 403, "cross_site_request");
    const me = await expectJson(await call("/user/me", { auth: { jar } }), 200, s.currentUser);
    expect(me.userThreshold).toBe(10);
    // Reads are not guarded; bearer-token writes from any origin carry no ambient credentials.
    await expectJson(
      await call("/user/me", { auth: { jar }, headers: { origin: "https://evil.example" } }),
      200,
    );
  });
});
