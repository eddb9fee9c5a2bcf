import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import type { ChatGifStore } from "../_shared/chat-gifs.ts";
import {
  CHAT_GIF_MAX_BYTES,
  chatGifPathFromUrl,
  chatGifUrl,
  isGif,
} from "../_shared/domain/chat-gifs.ts";
import { envFrom } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import type { AuthUser } from "../_shared/supabase.ts";
import { createChatGifApp } from "./app.ts";

const USER = "0c9d7a52-3f1e-4b8a-9c6d-2e4f6a8b0c1d";
const GROUP = "5b1e2f3a-4c5d-4e6f-8a7b-9c0d1e2f3a4b";
const OTHER_GROUP = "6c2f3a4b-5d6e-4f7a-8b9c-0d1e2f3a4b5c";
const BASE = "http://supabase.test";

const gif = (size = 64, version = "89a") => {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode(`GIF${version}`));
  return bytes;
};

class FakeStore implements ChatGifStore {
  readonly objects = new Map<string, Uint8Array>();
  readonly users = new Map<string, AuthUser>();
  readonly members = new Set<string>();
  refuseUploads = false;
  /** Reservations left before the GIF upload limit answers 429 (the database counts them). */
  reservationsLeft = Infinity;
  getUser(token: string) {
    return Promise.resolve(this.users.get(token) ?? null);
  }
  isMember(groupId: string, userId: string) {
    return Promise.resolve(this.members.has(`${groupId}/${userId}`));
  }
  reserve(groupId: string) {
    const userId = [...this.users.values()][0]!.id;
    if (!this.members.has(`${groupId}/${userId}`)) return Promise.resolve(null);
    if (this.reservationsLeft <= 0) {
      return Promise.reject(
        new HttpError(429, "too_fast", "You're uploading GIFs too fast — try again in 42 s", {
          "Retry-After": "42",
        }),
      );
    }
    this.reservationsLeft--;
    return Promise.resolve(`${groupId}/${userId}/${crypto.randomUUID()}.gif`);
  }
  upload(path: string, bytes: Uint8Array) {
    if (this.refuseUploads) return Promise.resolve(false);
    if (this.objects.has(path)) return Promise.reject(new Error("exists"));
    this.objects.set(path, bytes);
    return Promise.resolve(true);
  }
  url(path: string) {
    return chatGifUrl(BASE, path);
  }
}

function setup() {
  const store = new FakeStore();
  store.users.set("tok", { id: USER, email: "a@example.test", banned: false });
  store.members.add(`${GROUP}/${USER}`);
  const app = createChatGifApp({ env: envFrom({}), forToken: () => store });
  const upload = (
    file: Blob | string | null,
    groupId: string | null = GROUP,
    auth: string | null = "tok",
  ) => {
    const form = new FormData();
    if (typeof file === "string") form.set("gif", file);
    else if (file) form.set("gif", file, "funny.gif");
    if (groupId !== null) form.set("groupId", groupId);
    return app.fetch(
      new Request("http://local/chat-gif", {
        method: "POST",
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
        body: form,
      }),
    );
  };
  return { store, app, upload };
}

Deno.test("a GIF (87a or 89a) is stored in the member's folder of the group, whatever its declared type", async () => {
  const t = setup();
  for (const version of ["87a", "89a"]) {
    const res = await t.upload(new Blob([gif(100, version)], { type: "text/plain" }));
    assertEquals(res.status, 200);
    const { attachmentUrl } = await res.json();
    const path = chatGifPathFromUrl(attachmentUrl)!;
    assertEquals(
      new RegExp(`^${GROUP}/${USER}/[0-9a-f-]{36}\\.gif$`).test(path),
      true,
      attachmentUrl,
    );
    assertEquals(attachmentUrl, `${BASE}/storage/v1/object/authenticated/chat-gifs/${path}`);
    deepStrictEqual(t.store.objects.get(path), gif(100, version));
  }
  assertEquals(t.store.objects.size, 2);
});

Deno.test("a PNG named .gif and declared image/gif is refused with 415", async () => {
  const t = setup();
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const res = await t.upload(new Blob([png], { type: "image/gif" }));
  assertEquals(res.status, 415);
  deepStrictEqual(await res.json(), {
    error: "invalid_file",
    message: "Only GIF files are allowed",
  });
  assertEquals(t.store.objects.size, 0);
});

Deno.test("more than 2 MB is refused with 413; exactly 2 MB is accepted", async () => {
  const t = setup();
  const big = await t.upload(new Blob([gif(CHAT_GIF_MAX_BYTES + 1)]));
  assertEquals(big.status, 413);
  assertEquals((await big.json()).error, "file_too_large");
  const exact = await t.upload(new Blob([gif(CHAT_GIF_MAX_BYTES)]));
  assertEquals(exact.status, 200);
  await exact.body?.cancel();
  assertEquals(t.store.objects.size, 1);
});

Deno.test("a non-member gets 403, a bad group id 400, and nothing is stored", async () => {
  const t = setup();
  const other = await t.upload(new Blob([gif()]), OTHER_GROUP);
  assertEquals(other.status, 403);
  assertEquals((await other.json()).error, "not_a_member");
  for (const bad of ["not-a-uuid", null]) {
    const res = await t.upload(new Blob([gif()]), bad);
    assertEquals(res.status, 400);
    assertEquals((await res.json()).error, "invalid_group");
  }
  t.store.refuseUploads = true; // removed from the group between the check and the upload
  const raced = await t.upload(new Blob([gif()]));
  assertEquals(raced.status, 403);
  await raced.body?.cancel();
  assertEquals(t.store.objects.size, 0);
});

Deno.test("no token answers 401, a banned user 403, a missing file 400", async () => {
  const t = setup();
  const anon = await t.upload(new Blob([gif()]), GROUP, null);
  assertEquals(anon.status, 401);
  await anon.body?.cancel();
  t.store.users.set("banned", { id: crypto.randomUUID(), email: null, banned: true });
  const banned = await t.upload(new Blob([gif()]), GROUP, "banned");
  assertEquals(banned.status, 403);
  assertEquals((await banned.json()).error, "banned");
  for (const res of [await t.upload(null), await t.upload("GIF89a as text")]) {
    assertEquals(res.status, 400);
    assertEquals((await res.json()).error, "missing_file");
  }
  assertEquals(t.store.objects.size, 0);
});

Deno.test("past the GIF upload limit: 429 too_fast with Retry-After, and nothing is stored", async () => {
  const t = setup();
  t.store.reservationsLeft = 1;
  assertEquals((await t.upload(new Blob([gif()]))).status, 200);
  const res = await t.upload(new Blob([gif()]));
  assertEquals(res.status, 429);
  assertEquals(res.headers.get("retry-after"), "42");
  deepStrictEqual(await res.json(), {
    error: "too_fast",
    message: "You're uploading GIFs too fast — try again in 42 s",
  });
  assertEquals(t.store.objects.size, 1);
});

Deno.test("GET answers 405", async () => {
  const t = setup();
  const res = await t.app.fetch(new Request("http://local/chat-gif"));
  assertEquals(res.status, 405);
  await res.body?.cancel();
});

Deno.test("isGif and the URL helpers", () => {
  assertEquals(isGif(gif()), true);
  assertEquals(isGif(new TextEncoder().encode("GIF90a")), false);
  assertEquals(isGif(new Uint8Array([0x47, 0x49])), false);
  const path = `${GROUP}/${USER}/${GROUP}.gif`;
  assertEquals(chatGifPathFromUrl(chatGifUrl(`${BASE}/`, path)), path);
  assertEquals(
    chatGifPathFromUrl(`${BASE}/storage/v1/object/sign/chat-gifs/${path}?token=x`),
    path,
  );
  assertEquals(chatGifPathFromUrl("https://media.example.test/x.gif"), null);
  assertEquals(chatGifPathFromUrl(`${BASE}/storage/v1/object/authenticated/avatars/${path}`), null);
  assertEquals(chatGifPathFromUrl("not a url"), null);
});
