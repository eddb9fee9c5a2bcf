// The chat-gif function and the private chat-gifs bucket on the real stack: a member uploads a
// GIF (checked by content) as themselves, fellow members download it, outsiders cannot;
// the paged history RPC serves it with the message; uploads count against a per-user limit
// (20 per 10 minutes) that a direct Storage upload cannot go around.
import { describe, expect, it } from "vitest";
import { anonClient, serviceClient, signedInUser } from "../support/clients.ts";

const GIF = new Uint8Array([
  0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21, 0xf9,
  4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b,
]);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

function gifForm(bytes: Uint8Array, groupId: string, type = "image/gif"): FormData {
  const form = new FormData();
  form.set("gif", new Blob([bytes as BlobPart], { type }), "funny.gif");
  form.set("groupId", groupId);
  return form;
}

/** Storage's answer to a write its policies refuse: HTTP 400 carrying statusCode 403. */
const RLS_REFUSAL = {
  name: "StorageApiError",
  status: 400,
  statusCode: "403",
  message: "new row violates row-level security policy",
};

const statusOf = (error: unknown) => (error as { context?: Response }).context?.status;

describe("chat GIFs", () => {
  it("a member uploads, members download, outsiders cannot", async () => {
    const owner = await signedInUser();
    const member = await signedInUser();
    const outsider = await signedInUser();
    const created = await owner.client
      .from("groups")
      .insert({ name: "GIF test", created_by: owner.user.id })
      .select("id")
      .single();
    expect(created.error).toBeNull();
    const groupId = created.data!.id;
    const joined = await member.client
      .from("group_members")
      .insert({ group_id: groupId, user_id: member.user.id });
    expect(joined.error).toBeNull();

    const upload = await owner.client.functions.invoke("chat-gif", { body: gifForm(GIF, groupId) });
    expect(upload.error).toBeNull();
    const attachmentUrl: string = upload.data.attachmentUrl;
    const path = `${groupId}/${owner.user.id}/`;
    expect(attachmentUrl).toMatch(
      new RegExp(`/storage/v1/object/authenticated/chat-gifs/${path}[0-9a-f-]{36}\\.gif$`),
    );
    const objectPath = attachmentUrl.split("/chat-gifs/")[1]!;

    const sent = await owner.client
      .from("messages")
      .insert({
        group_id: groupId,
        content: "gif!",
        attachment_type: "gif",
        attachment_url: attachmentUrl,
      })
      .select("id")
      .single();
    expect(sent.error).toBeNull();
    const page = await member.client.rpc("group_messages", { p_group_id: groupId });
    expect(page.error).toBeNull();
    expect(page.data?.[0]).toMatchObject({ content: "gif!", attachment_url: attachmentUrl });

    // A fellow member downloads the very bytes with their own token.
    const got = await member.client.storage.from("chat-gifs").download(objectPath);
    expect(got.error).toBeNull();
    expect(new Uint8Array(await got.data!.arrayBuffer())).toEqual(GIF);

    // An outsider can neither download nor upload into the group.
    const refusedDownload = await outsider.client.storage.from("chat-gifs").download(objectPath);
    expect(refusedDownload.error).toMatchObject({
      name: "StorageApiError",
      status: 400,
      statusCode: "404",
      message: "Object not found",
    });
    const refusedUpload = await outsider.client.functions.invoke("chat-gif", {
      body: gifForm(GIF, groupId),
    });
    expect(statusOf(refusedUpload.error)).toBe(403);
    const direct = await outsider.client.storage
      .from("chat-gifs")
      .upload(`${groupId}/${outsider.user.id}/${crypto.randomUUID()}.gif`, GIF, {
        contentType: "image/gif",
      });
    expect(direct.error).toMatchObject(RLS_REFUSAL);

    // A member cannot write into another member's folder, even directly.
    const foreign = await member.client.storage
      .from("chat-gifs")
      .upload(`${groupId}/${owner.user.id}/${crypto.randomUUID()}.gif`, GIF, {
        contentType: "image/gif",
      });
    expect(foreign.error).toMatchObject(RLS_REFUSAL);
    // Nothing of either refused upload was stored.
    const files = await serviceClient()
      .storage.from("chat-gifs")
      .list(`${groupId}/${owner.user.id}`);
    expect(files.data?.map((o) => o.name.split("/").pop())).toEqual([objectPath.split("/").pop()]);
    const outsiders = await serviceClient()
      .storage.from("chat-gifs")
      .list(`${groupId}/${outsider.user.id}`);
    expect(outsiders.data).toEqual([]);
  });

  it("refuses a PNG named .gif with 415 and an anonymous caller with 401", async () => {
    const owner = await signedInUser();
    const created = await owner.client
      .from("groups")
      .insert({ name: "GIF refusals", created_by: owner.user.id })
      .select("id")
      .single();
    const groupId = created.data!.id;
    const png = await owner.client.functions.invoke("chat-gif", { body: gifForm(PNG, groupId) });
    expect(statusOf(png.error)).toBe(415);
    expect(await (png.error as { context: Response }).context.json()).toEqual({
      error: "invalid_file",
      message: "Only GIF files are allowed",
    });
    const anon = await anonClient().functions.invoke("chat-gif", { body: gifForm(GIF, groupId) });
    expect(statusOf(anon.error)).toBe(401);
  });

  it("the 21st GIF in 10 minutes is refused with 429 and Retry-After, and Storage takes no unreserved name", async () => {
    const owner = await signedInUser();
    const created = await owner.client
      .from("groups")
      .insert({ name: "GIF limit", created_by: owner.user.id })
      .select("id")
      .single();
    const groupId = created.data!.id;
    for (let i = 0; i < 20; i++) {
      const ok = await owner.client.functions.invoke("chat-gif", { body: gifForm(GIF, groupId) });
      expect(ok.error).toBeNull();
    }
    const refused = await owner.client.functions.invoke("chat-gif", {
      body: gifForm(GIF, groupId),
    });
    const response = (refused.error as { context: Response }).context;
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(600);
    expect(await response.json()).toMatchObject({
      error: "too_fast",
      message: expect.stringMatching(/^You're uploading GIFs too fast — try again in \d+ s$/),
    });
    // Around the function, straight to Storage, into the member's own folder: no reservation.
    const direct = await owner.client.storage
      .from("chat-gifs")
      .upload(`${groupId}/${owner.user.id}/${crypto.randomUUID()}.gif`, GIF, {
        contentType: "image/gif",
      });
    expect(direct.error).toMatchObject(RLS_REFUSAL);
    const files = await serviceClient()
      .storage.from("chat-gifs")
      .list(`${groupId}/${owner.user.id}`);
    expect(files.data).toHaveLength(20);
  });
});
