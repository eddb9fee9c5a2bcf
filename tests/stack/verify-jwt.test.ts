// Per-function JWT verification as config.toml declares, and the environment Supabase injects.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";

let stack: Stack;
const tmp = mkdtempSync(path.join(tmpdir(), "verify-jwt-"));

beforeAll(async () => {
  stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    functionsDir: path.join(ROOT, "tests/fixtures/functions"),
    configToml: path.join(ROOT, "tests/fixtures/config.toml"),
    quiet: true,
  });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const call = (name: string, auth?: string) =>
  fetch(`${stack.url}/functions/v1/${name}/sub/path`, {
    headers: auth ? { authorization: `Bearer ${auth}` } : {},
  });

describe("verify_jwt per function", () => {
  it("refuses a protected function without a token, with a forged token and with an expired one", async () => {
    const missing = await call("locked");
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ message: "Missing authorization header" });

    const forged = await new SignJWT({ role: "authenticated", sub: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-secret-not-the-secret-123"));
    expect((await call("locked", forged)).status).toBe(401);

    const expired = await new SignJWT({ role: "authenticated", sub: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(stack.secrets.jwtSecret));
    expect((await call("locked", expired)).status).toBe(401);
  });

  it("serves a protected function to a signed-in user and to the secret key", async () => {
    const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "free@demo.local", password: "demo-password-1" }),
    });
    const { access_token } = await login.json();
    const res = await call("locked", access_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: "/locked/sub/path" });
    expect((await call("locked", stack.secrets.secretKey)).status).toBe(200);
  });

  it("serves a function with verify_jwt = false to anyone, with Supabase's environment", async () => {
    const res = await call("open");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: stack.url, anon: true, service: true });
  });

  it("does not serve _shared as a function", async () => {
    expect((await call("_shared")).status).toBe(404);
  });
});
