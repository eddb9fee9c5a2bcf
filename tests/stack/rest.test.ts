import { describe, expect, it } from "vitest";
import { anonClient, serviceClient, signedInUser, stackInfo } from "../support/clients.ts";

describe("PostgREST under row-level security", () => {
  it("refuses requests without an API key, as hosted Supabase does", async () => {
    const res = await fetch(`${stackInfo().url}/rest/v1/profiles`);
    expect(res.status).toBe(401);
  });

  it("shows anon no profiles", async () => {
    const { data, error } = await anonClient().from("profiles").select("*");
    expect(error).toBeNull();
    expect(data).toEqual([]);
  });

  it("shows a user only their own profile, created on sign-up", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const { data, error } = await a.client.from("profiles").select("id, email");
    expect(error).toBeNull();
    expect(data).toEqual([{ id: a.user.id, email: a.email }]);
    const other = await a.client.from("profiles").select("id").eq("id", b.user.id);
    expect(other.data).toEqual([]);
  });

  it("lets a user change their username but not another user's", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const name = `u_${a.user.id.slice(0, 8)}`;
    const own = await a.client
      .from("profiles")
      .update({ username: name })
      .eq("id", a.user.id)
      .select();
    expect(own.error).toBeNull();
    expect(own.data?.[0]?.username).toBe(name);
    const theirs = await a.client
      .from("profiles")
      .update({ username: "hijack_x" })
      .eq("id", b.user.id)
      .select();
    expect(theirs.data ?? []).toEqual([]);
    const check = await serviceClient()
      .from("profiles")
      .select("username")
      .eq("id", b.user.id)
      .single();
    expect(check.data?.username).toBeNull();
  });

  it("refuses a column a user may not set, and an invalid username", async () => {
    const a = await signedInUser();
    const email = await a.client.from("profiles").update({ email: "x@y.z" }).eq("id", a.user.id);
    expect(email.error?.code).toBe("42501");
    const bad = await a.client
      .from("profiles")
      .update({ username: "no spaces!" })
      .eq("id", a.user.id);
    expect(bad.error?.code).toBe("23514");
  });

  it("lets the secret key read every profile (service role bypasses RLS)", async () => {
    await signedInUser();
    const { data, error } = await serviceClient().from("profiles").select("id");
    expect(error).toBeNull();
    expect(data!.length).toBeGreaterThan(1);
  });
});
