// Item 6 of the hardening issue: sign-in, sign-up and token refresh had no limit (60 wrong
// passwords in 5 s, then the right one worked), and promote_self was limited per account only,
// so 20 throwaway accounts made 100 guesses. Auth is now limited per IP as hosted Supabase Auth
// does it (config.toml's [auth.rate_limit]; 429 `over_request_rate_limit`), and promote_self
// also per IP (migration 20261123200000). This stack keeps the default limits.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import ws from "ws";
import { RATE_LIMIT_WINDOW_MS, readAuthRateLimits } from "../../devstack/rate-limit.ts";
import { ROOT } from "../../devstack/config.ts";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";

let stack: StackProcess;
const tmp = mkdtempSync(path.join(tmpdir(), "security-rates-"));
const ADMIN_SECRET = "correct-horse-battery-staple";
const defaults = readAuthRateLimits(path.join(ROOT, "supabase/config.toml"), {});

beforeAll(async () => {
  stack = await startStackProcess(tmp, undefined, {
    defaultRateLimits: true,
    adminSecret: ADMIN_SECRET,
  });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const client = () =>
  createClient(stack.url, stack.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });

/** A user made in the database and a token for it, without spending sign-ins. */
async function userToken(): Promise<string> {
  const id = randomUUID();
  await stack.sql("insert into auth.users (id, email) values ($1, $2)", [id, `${id}@rate.test`]);
  return new SignJWT({ role: "authenticated", aud: "authenticated" })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(id)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

async function promote(token: string, secret: string) {
  const res = await fetch(`${stack.url}/rest/v1/rpc/promote_self`, {
    method: "POST",
    headers: {
      apikey: stack.publishableKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ secret }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe("per-IP limits", () => {
  it("the defaults come from config.toml", () => {
    expect(defaults).toEqual({ sign_in_sign_ups: 30, token_refresh: 150, token_verifications: 30 });
  });

  it("promote_self: throwaway accounts from one IP share 10 failed attempts per 15 minutes", async () => {
    const statuses: number[] = [];
    for (let account = 0; account < 3; account++) {
      const token = await userToken();
      for (let i = 0; i < 5; i++)
        statuses.push((await promote(token, `guess-${account}-${i}`)).status);
    }
    // Two accounts' five guesses each are answered (null: wrong secret); then the IP is locked.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual(Array(5).fill(429));
    const fresh = await userToken();
    const right = await promote(fresh, ADMIN_SECRET);
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ code: "PT429" });
  });

  it("token refresh: the default per-IP limit, then 429 over_request_rate_limit", async () => {
    const supabase = client();
    const email = `refresh-${Date.now()}@rate.test`;
    const { data, error } = await supabase.auth.signUp({ email, password: "correct-horse-1" });
    expect(error).toBeNull();
    let refresh = data.session!.refresh_token;
    let answered = 0;
    let limited: { status?: number; code?: string } | null = null;
    const started = Date.now();
    for (let i = 0; i < defaults.token_refresh + 60 && !limited; i++) {
      const res = await supabase.auth.refreshSession({ refresh_token: refresh });
      if (res.error) limited = { status: res.error.status, code: res.error.code };
      else {
        answered++;
        refresh = res.data.session!.refresh_token;
      }
    }
    expect(limited).toEqual({ status: 429, code: "over_request_rate_limit" });
    // The bucket refills continuously (150 per 5 minutes, one every 2 s), so the refreshes that
    // passed are the bucket plus what refilled while the loop ran: more on a slow machine.
    const refilled = Math.floor(
      ((Date.now() - started) * defaults.token_refresh) / RATE_LIMIT_WINDOW_MS,
    );
    expect(answered).toBeGreaterThanOrEqual(defaults.token_refresh - 2);
    expect(answered).toBeLessThanOrEqual(defaults.token_refresh + refilled + 1);
  });

  it("sign-in: 60 wrong passwords are not all answered, and then the right one is refused too", async () => {
    const supabase = client();
    const email = `victim-${Date.now()}@rate.test`;
    await stack.sql(
      "insert into auth.users (id, email, encrypted_password, email_confirmed_at, aud, role) values ($1, $2, extensions.crypt($3, extensions.gen_salt('bf')), now(), 'authenticated', 'authenticated')",
      [randomUUID(), email, "the-right-password"],
    );
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 60; i++) {
      const { error } = await supabase.auth.signInWithPassword({ email, password: `wrong-${i}` });
      codes.push(error?.code);
    }
    const answered = codes.filter((c) => c === "invalid_credentials").length;
    expect(answered).toBeLessThanOrEqual(defaults.sign_in_sign_ups);
    expect(codes.at(-1)).toBe("over_request_rate_limit");
    const right = await supabase.auth.signInWithPassword({ email, password: "the-right-password" });
    expect(right.error?.status).toBe(429);
    expect(right.error?.code).toBe("over_request_rate_limit");
    // Sign-ups share the limit: throwaway accounts cannot be made either.
    const signUp = await supabase.auth.signUp({
      email: `throwaway-${Date.now()}@rate.test`,
      password: "correct-horse-1",
    });
    expect(signUp.error?.status).toBe(429);
    // The raw answer has GoTrue's shape.
    const raw = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email, password: "x" }),
    });
    expect(raw.status).toBe(429);
    expect(await raw.json()).toEqual({
      code: 429,
      error_code: "over_request_rate_limit",
      msg: "Request rate limit reached",
    });
  });
});
