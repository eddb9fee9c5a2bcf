import { describe, expect, it } from "vitest";
import { anonClient, signedInUser } from "../support/clients.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe("storage through supabase-js", () => {
  it("uploads into the user's folder, then downloads the same bytes", async () => {
    const { client, user } = await signedInUser();
    const key = `${user.id}/avatar.png`;
    const up = await client.storage
      .from("avatars")
      .upload(key, new Blob([PNG], { type: "image/png" }));
    expect(up.error).toBeNull();
    const down = await client.storage.from("avatars").download(key);
    expect(down.error).toBeNull();
    expect(new Uint8Array(await down.data!.arrayBuffer())).toEqual(PNG);
    // The bucket is public: anyone may read.
    const pub = await anonClient().storage.from("avatars").download(key);
    expect(pub.error).toBeNull();
  });

  it("refuses an upload into another user's folder and an anonymous upload", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const cross = await a.client.storage
      .from("avatars")
      .upload(`${b.user.id}/x.png`, new Blob([PNG], { type: "image/png" }));
    expect(cross.error).not.toBeNull();
    const anon = await anonClient()
      .storage.from("avatars")
      .upload(`anon/x.png`, new Blob([PNG], { type: "image/png" }));
    expect(anon.error).not.toBeNull();
  });

  it("refuses a file type the bucket does not allow", async () => {
    const { client, user } = await signedInUser();
    const res = await client.storage
      .from("avatars")
      .upload(`${user.id}/notes.txt`, new Blob(["hello"], { type: "text/plain" }));
    expect(res.error).not.toBeNull();
  });
});
