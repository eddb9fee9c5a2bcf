import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { anonClient, stackInfo, uniqueEmail } from "../support/clients.ts";

describe("auth through supabase-js", () => {
  it("signs up, signs in, refreshes, reads the user and signs out", async () => {
    const client = anonClient();
    const email = uniqueEmail("auth");
    const signUp = await client.auth.signUp({ email, password: "long-enough-pw" });
    expect(signUp.error).toBeNull();
    expect(signUp.data.user?.email).toBe(email);

    await client.auth.signOut();
    const signIn = await client.auth.signInWithPassword({ email, password: "long-enough-pw" });
    expect(signIn.error).toBeNull();
    const first = signIn.data.session!;
    expect(first.access_token).toBeTruthy();

    const refreshed = await client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(first.refresh_token);

    const me = await client.auth.getUser();
    expect(me.error).toBeNull();
    expect(me.data.user?.id).toBe(signUp.data.user?.id);

    expect((await client.auth.signOut()).error).toBeNull();
    // The signed-out session is gone: its access token no longer names a user (GoTrue answers
    // 403 session_not_found, which supabase-js reports as a missing session), and its refresh
    // token is revoked.
    const after = await anonClient().auth.getUser(first.access_token);
    expect(after.data.user).toBeNull();
    expect(after.error?.name).toBe("AuthSessionMissingError");
    const { url, publishableKey } = stackInfo();
    const raw = await fetch(`${url}/auth/v1/user`, {
      headers: { apikey: publishableKey, authorization: `Bearer ${first.access_token}` },
    });
    expect(raw.status).toBe(403);
    expect(await raw.json()).toMatchObject({ error_code: "session_not_found" });
    const reuse = await anonClient().auth.refreshSession({
      refresh_token: refreshed.data.session!.refresh_token,
    });
    expect(reuse.data.session).toBeNull();
    expect(reuse.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
  });

  it("refuses a wrong password and a too-short password", async () => {
    const client = anonClient();
    const email = uniqueEmail("bad");
    const short = await client.auth.signUp({ email, password: "short" });
    expect(short.error).not.toBeNull();
    await client.auth.signUp({ email, password: "long-enough-pw" });
    const wrong = await anonClient().auth.signInWithPassword({
      email,
      password: "not-the-password",
    });
    expect(wrong.error?.message).toMatch(/invalid/i);
  });

  it("lets every seeded demo account sign in", async () => {
    for (const account of DEMO_ACCOUNTS) {
      const { data, error } = await anonClient().auth.signInWithPassword({
        email: account.email,
        password: DEMO_PASSWORD,
      });
      expect(error, account.email).toBeNull();
      expect(data.user?.email).toBe(account.email);
    }
  });
});
