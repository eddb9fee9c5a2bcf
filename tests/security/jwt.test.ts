// Item 11 of the hardening issue: a token with `alg: none` (or any non-JWT) on /rest/v1 was
// treated as anon; hosted Supabase (PostgREST behind Kong) answers 401. The publishable key as
// bearer stays anon, and a token the stack signed works as before.
import { SignJWT, UnsecuredJWT } from "jose";
import { describe, expect, it } from "vitest";
import { demoUser, stackInfo } from "../support/clients.ts";

async function rest(bearer: string) {
  const res = await fetch(`${stackInfo().url}/rest/v1/instruments?select=symbol&limit=1`, {
    headers: { apikey: stackInfo().publishableKey, authorization: `Bearer ${bearer}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("/rest/v1 refuses bearers it cannot verify", () => {
  it("alg none, a non-JWT, a foreign signature and an expired token get 401 with a JSON error", async () => {
    const none = new UnsecuredJWT({ role: "service_role" }).setIssuedAt().encode();
    const foreign = await new SignJWT({ role: "authenticated" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-stack-secret-not-the-stack-secret"));
    const expired = await new SignJWT({ role: "authenticated" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(stackInfo().jwtSecret));
    for (const [label, token, code] of [
      ["alg none", none, "PGRST301"],
      ["not a JWT", "garbage", "PGRST301"],
      ["foreign signature", foreign, "PGRST301"],
      ["expired", expired, "PGRST303"],
    ] as const) {
      const res = await rest(token);
      expect(res.status, label).toBe(401);
      expect(res.body, label).toMatchObject({ code });
      expect(typeof res.body.message, label).toBe("string");
    }
  });

  it("the publishable key as bearer stays anon, and a signed-in user's token works", async () => {
    expect((await rest(stackInfo().publishableKey)).status).toBe(200);
    const { client } = await demoUser("free@demo.local");
    const token = (await client.auth.getSession()).data.session!.access_token;
    expect((await rest(token)).status).toBe(200);
  });
});
