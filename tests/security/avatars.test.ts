// Issue 12, item 8: avatars. avatar_url could be written directly with any string (a
// `javascript:` URL was accepted), skipping the avatar function's checks, and anonymous callers
// could list the avatars bucket and so learn the id of every user with an avatar. Now only the
// avatar function sets avatar_url, and only to the user's own stored object; listing is not
// public, and an avatar stays readable by its (unguessable) URL, as the profile page needs.
import { describe, expect, it } from "vitest";
import { anonClient, signedInUser } from "../support/clients.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function withAvatar() {
  const u = await signedInUser();
  const form = new FormData();
  form.set("avatar", new Blob([PNG], { type: "image/png" }), "me.png");
  const { data, error } = await u.client.functions.invoke<{ avatarUrl: string }>("avatar", {
    body: form,
  });
  expect(error).toBeNull();
  return { ...u, avatarUrl: data!.avatarUrl };
}

async function avatarOf(u: Awaited<ReturnType<typeof signedInUser>>) {
  const { data, error } = await u.client
    .from("profiles")
    .select("avatar_url")
    .eq("id", u.user.id)
    .single();
  expect(error).toBeNull();
  return data!.avatar_url;
}

describe("avatar_url", () => {
  it.each([
    ["a javascript: URL", () => "javascript:alert(document.cookie)"],
    ["an image on another host", () => "https://tracker.example/pixel.png"],
  ])("refuses %s written directly", async (_, value) => {
    const u = await withAvatar();
    const { error } = await u.client
      .from("profiles")
      .update({ avatar_url: value() })
      .eq("id", u.user.id);
    expect(error).not.toBeNull();
    expect(await avatarOf(u)).toBe(u.avatarUrl);
  });

  it("refuses another user's avatar written directly", async () => {
    const victim = await withAvatar();
    const u = await withAvatar();
    const { error } = await u.client
      .from("profiles")
      .update({ avatar_url: victim.avatarUrl })
      .eq("id", u.user.id);
    expect(error).not.toBeNull();
    expect(await avatarOf(u)).toBe(u.avatarUrl);
  });

  it("is set by the avatar function to the user's own object, readable by its URL", async () => {
    const u = await withAvatar();
    expect(await avatarOf(u)).toBe(u.avatarUrl);
    // The name holds 128 random bits: knowing the user's id does not give the URL.
    expect(u.avatarUrl).toMatch(
      new RegExp(`/avatars/${u.user.id}/avatar-\\d+-[0-9a-f]{32}\\.png$`),
    );
    const res = await fetch(u.avatarUrl);
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
  });
});

describe("listing the avatars bucket", () => {
  it("tells an anonymous caller nothing: no folders, no files", async () => {
    const u = await withAvatar();
    const anon = anonClient().storage.from("avatars");
    const root = await anon.list("", { limit: 1000 });
    expect(JSON.stringify(root.data ?? [])).not.toContain(u.user.id);
    const folder = await anon.list(u.user.id);
    expect(folder.data ?? []).toEqual([]);
  });

  it("shows a signed-in user their own folder only", async () => {
    const victim = await withAvatar();
    const u = await withAvatar();
    const other = await u.client.storage.from("avatars").list(victim.user.id);
    expect(other.data ?? []).toEqual([]);
    const root = await u.client.storage.from("avatars").list("", { limit: 1000 });
    expect(JSON.stringify(root.data ?? [])).not.toContain(victim.user.id);
    const own = await u.client.storage.from("avatars").list(u.user.id);
    expect(own.data?.map((o) => o.name.split("/").pop())).toEqual([u.avatarUrl.split("/").pop()]);
  });
});
