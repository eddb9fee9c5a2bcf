import { describe, expect, it } from "vitest";
import { anonClient, serviceClient, signedInUser } from "../support/clients.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const GIF = new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0]);

/** The HTTP status of a storage-js error (StorageApiError carries it). */
const statusOf = (error: unknown) => (error as { status?: number } | null)?.status;

/**
 * A refusal as Supabase Storage answers it: HTTP 400 with the reason's own status code in the
 * body (`statusCode`), and a message that names the reason.
 */
function expectStorageRefusal(error: unknown, statusCode: string, message: RegExp) {
  const e = error as { name?: string; status?: number; statusCode?: string; message?: string };
  expect(e?.name).toBe("StorageApiError");
  expect(e.status).toBe(400);
  expect(e.statusCode).toBe(statusCode);
  expect(e.message).toMatch(message);
}

/** The names stored in a folder of a bucket, read with the service role. */
async function stored(bucket: string, folder: string): Promise<string[]> {
  const { data, error } = await serviceClient().storage.from(bucket).list(folder);
  expect(error).toBeNull();
  // Lite lists full keys where hosted Storage lists names relative to the folder: keep the last part.
  return (data ?? []).map((o) => o.name.split("/").pop()!);
}

function avatarForm(bytes: Uint8Array | string, name: string, type: string): FormData {
  const form = new FormData();
  form.set("avatar", new Blob([bytes as BlobPart], { type }), name);
  return form;
}

describe("storage through supabase-js", () => {
  it("refuses a user's direct upload, even into their own folder: only the avatar function writes", async () => {
    const { client, user } = await signedInUser();
    const up = await client.storage
      .from("avatars")
      .upload(`${user.id}/avatar.png`, new Blob([PNG], { type: "image/png" }));
    expectStorageRefusal(up.error, "403", /row-level security/);
    expect(await stored("avatars", user.id)).toEqual([]);
  });

  it("refuses an upload into another user's folder and an anonymous upload", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const cross = await a.client.storage
      .from("avatars")
      .upload(`${b.user.id}/x.png`, new Blob([PNG], { type: "image/png" }));
    expectStorageRefusal(cross.error, "403", /row-level security/);
    expect(await stored("avatars", b.user.id)).toEqual([]);
    const anon = await anonClient()
      .storage.from("avatars")
      .upload(`anon/x.png`, new Blob([PNG], { type: "image/png" }));
    expectStorageRefusal(anon.error, "403", /row-level security/);
    expect(await stored("avatars", "anon")).toEqual([]);
  });

  it("serves what the service role stored to anyone, and refuses a type the bucket does not allow", async () => {
    const { user } = await signedInUser();
    const key = `${user.id}/avatar-1.png`;
    const up = await serviceClient()
      .storage.from("avatars")
      .upload(key, new Blob([PNG], { type: "image/png" }));
    expect(up.error).toBeNull();
    // The bucket is public: anyone may read an object by its URL (listing is not public).
    const url = anonClient().storage.from("avatars").getPublicUrl(key).data.publicUrl;
    const pub = await fetch(url);
    expect(pub.status).toBe(200);
    expect(new Uint8Array(await pub.arrayBuffer())).toEqual(PNG);
    const text = await serviceClient()
      .storage.from("avatars")
      .upload(`${user.id}/notes.txt`, new Blob(["hello"], { type: "text/plain" }));
    expectStorageRefusal(text.error, "415", /mime type text\/plain is not supported/);
    expect(await stored("avatars", user.id)).toEqual([key.split("/")[1]]);
  });
});

describe("the avatar function", () => {
  it("stores an image checked by content, sets the profile and replaces the previous one", async () => {
    const { client, user } = await signedInUser();
    const first = await client.functions.invoke("avatar", {
      body: avatarForm(PNG, "me.gif", "image/gif"),
    });
    expect(first.error).toBeNull();
    const firstUrl: string = first.data.avatarUrl;
    expect(firstUrl).toMatch(
      new RegExp(`/storage/v1/object/public/avatars/${user.id}/avatar-\\d+-[0-9a-f]{32}\\.png$`),
    );

    // Anyone can fetch the public URL, with the detected content type.
    const res = await fetch(firstUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^image\/png/);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);

    const profile = await client.from("profiles").select("avatar_url").eq("id", user.id).single();
    expect(profile.data?.avatar_url).toBe(firstUrl);

    const second = await client.functions.invoke("avatar", {
      body: avatarForm(GIF, "next.gif", "image/gif"),
    });
    expect(second.error).toBeNull();
    expect(second.data.avatarUrl).toMatch(/\.gif$/);
    // Only the new avatar is left in the user's folder.
    const listed = await client.storage.from("avatars").list(user.id);
    expect(listed.data?.map((o) => o.name.split("/").pop())).toEqual([
      second.data.avatarUrl.split("/").pop(),
    ]);
    const gone = await fetch(firstUrl);
    expect(gone.status).toBe(400);
    expect(await gone.json()).toMatchObject({ statusCode: "404", error: "not_found" });
  });

  it("refuses a text file named .png with 415 and an anonymous caller with 401", async () => {
    const { client } = await signedInUser();
    const bad = await client.functions.invoke("avatar", {
      body: avatarForm("not an image", "avatar.png", "image/png"),
    });
    expect(statusOf((bad.error as { context?: Response }).context)).toBe(415);
    const response = (bad.error as { context?: Response }).context!;
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      error: "invalid_file_type",
      message: "Please select an image (JPEG, PNG, GIF, or WebP).",
    });
    const anon = await anonClient().functions.invoke("avatar", {
      body: avatarForm(PNG, "a.png", "image/png"),
    });
    expect((anon.error as { context?: Response }).context!.status).toBe(401);
  });
});
