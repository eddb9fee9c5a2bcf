import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { AVATAR_MAX_BYTES } from "../_shared/domain/images.ts";
import { envFrom } from "../_shared/env.ts";
import { FakeAvatarStore } from "../_shared/testing/fake-db.ts";
import { createAvatarApp } from "./app.ts";

const USER = "0c9d7a52-3f1e-4b8a-9c6d-2e4f6a8b0c1d";
const STORAGE = "http://storage.test/storage/v1/object/public/avatars";

/** The first bytes of each format, then some filler. */
const IMAGES = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d],
  gif: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00],
  webp: [0x52, 0x49, 0x46, 0x46, 0x24, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50],
};
const image = (kind: keyof typeof IMAGES, size = 64) => {
  const bytes = new Uint8Array(size);
  bytes.set(IMAGES[kind]);
  return bytes;
};

function setup() {
  const store = new FakeAvatarStore();
  const token = store.add({ id: USER, email: "a@example.test" });
  let clock = 1_790_000_000_000;
  const app = createAvatarApp({ env: envFrom({}), store: () => store, now: () => clock++ });
  const upload = (file: Blob | string | null, name = "avatar.bin", auth: string | null = token) => {
    const form = new FormData();
    if (typeof file === "string") form.set("avatar", file);
    else if (file) form.set("avatar", file, name);
    return app.fetch(
      new Request("http://local/avatar", {
        method: "POST",
        headers: auth ? { authorization: `Bearer ${auth}` } : {},
        body: form,
      }),
    );
  };
  return { store, token, app, upload };
}

Deno.test("each image type is accepted by its content, whatever its declared type and name", async () => {
  const t = setup();
  const cases = [
    ["jpeg", "text/plain", "notes.txt", "image/jpeg", "jpg"],
    ["png", "application/octet-stream", "x", "image/png", "png"],
    ["gif", "image/png", "a.png", "image/gif", "gif"],
    ["webp", "", "photo.jpeg", "image/webp", "webp"],
  ] as const;
  for (const [kind, declared, name, mime, ext] of cases) {
    const res = await t.upload(new Blob([image(kind)], { type: declared }), name);
    assertEquals(res.status, 200, kind);
    const { avatarUrl } = await res.json();
    const path = avatarUrl.slice(STORAGE.length + 1);
    assertEquals(new RegExp(`^${USER}/avatar-\\d+-[0-9a-f]{32}\\.${ext}$`).test(path), true, path);
    assertEquals(t.store.objects.get(path)!.contentType, mime);
    deepStrictEqual(t.store.objects.get(path)!.bytes, image(kind));
    assertEquals(t.store.profiles.get(USER)!.avatarUrl, avatarUrl);
  }
});

Deno.test("a PNG named .gif is stored as a PNG", async () => {
  const t = setup();
  const res = await t.upload(new Blob([image("png")], { type: "image/gif" }), "funny.gif");
  assertEquals(res.status, 200);
  const { avatarUrl } = await res.json();
  assertEquals(avatarUrl.endsWith(".png"), true);
  assertEquals([...t.store.objects.values()][0]!.contentType, "image/png");
});

Deno.test("a text file named .png is refused with 415", async () => {
  const t = setup();
  const res = await t.upload(new Blob(["just some text"], { type: "image/png" }), "avatar.png");
  assertEquals(res.status, 415);
  deepStrictEqual(await res.json(), {
    error: "invalid_file_type",
    message: "Please select an image (JPEG, PNG, GIF, or WebP).",
  });
  assertEquals(t.store.objects.size, 0);
});

Deno.test("an SVG or an empty file is not an accepted image", async () => {
  const t = setup();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`;
  for (const blob of [new Blob([svg], { type: "image/svg+xml" }), new Blob([])]) {
    assertEquals((await t.upload(blob, "a.svg")).status, 415);
  }
});

Deno.test("more than 5 MB is refused with 413; exactly 5 MB is accepted", async () => {
  const t = setup();
  const big = await t.upload(new Blob([image("jpeg", AVATAR_MAX_BYTES + 1)]), "big.jpg");
  assertEquals(big.status, 413);
  deepStrictEqual(await big.json(), {
    error: "file_too_large",
    message: "The image must be at most 5 MB.",
  });
  const huge = await t.upload(new Blob([image("jpeg", 3 * AVATAR_MAX_BYTES)]), "huge.jpg");
  assertEquals(huge.status, 413);
  await huge.body?.cancel();
  assertEquals(t.store.objects.size, 0);
  const exact = await t.upload(new Blob([image("jpeg", AVATAR_MAX_BYTES)]), "exact.jpg");
  assertEquals(exact.status, 200);
  await exact.body?.cancel();
});

Deno.test("a missing avatar field, a text field or a non-multipart body answers 400", async () => {
  const t = setup();
  for (const res of [await t.upload(null), await t.upload("data:image/png;base64,iVBORw0K")]) {
    assertEquals(res.status, 400);
    assertEquals((await res.json()).error, "missing_file");
  }
  const json = await t.app.fetch(
    new Request("http://local/avatar", {
      method: "POST",
      headers: { authorization: `Bearer ${t.token}`, "content-type": "application/json" },
      body: "{}",
    }),
  );
  assertEquals(json.status, 400);
  assertEquals((await json.json()).error, "invalid_request");
});

Deno.test("no token answers 401, a banned user 403", async () => {
  const t = setup();
  const anon = await t.upload(new Blob([image("png")]), "a.png", null);
  assertEquals(anon.status, 401);
  await anon.body?.cancel();
  const banned = t.store.add({ id: crypto.randomUUID(), banned: true });
  const refused = await t.upload(new Blob([image("png")]), "a.png", banned);
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  assertEquals(t.store.objects.size, 0);
});

Deno.test("a new avatar removes the user's previous ones, not newer ones nor other users'", async () => {
  const t = setup();
  const other = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  const keep = (path: string) =>
    t.store.objects.set(path, { bytes: image("png"), contentType: "" });
  keep(`${USER}/avatar.png`); // an upload from before this function existed
  keep(`${USER}/avatar-1000.gif`);
  keep(`${USER}/avatar-9999999999999.png`); // a concurrent, newer upload
  keep(`${other}/avatar-1000.png`);
  const res = await t.upload(new Blob([image("webp")]), "me.webp");
  const { avatarUrl } = await res.json();
  deepStrictEqual(
    [...t.store.objects.keys()].sort(),
    [
      avatarUrl.slice(STORAGE.length + 1),
      `${USER}/avatar-9999999999999.png`,
      `${other}/avatar-1000.png`,
    ].sort(),
  );
});

Deno.test("when the profile cannot be updated the upload is undone and 500 answered", async () => {
  const t = setup();
  t.store.failProfileUpdate = true;
  const res = await t.upload(new Blob([image("png")]), "a.png");
  assertEquals(res.status, 500);
  assertEquals((await res.json()).error, "internal_error");
  assertEquals(t.store.objects.size, 0);
});

Deno.test("without Supabase settings the function answers 500 naming them", async () => {
  const app = createAvatarApp({ env: envFrom({ SUPABASE_URL: "http://127.0.0.1:54321" }) });
  const res = await app.fetch(new Request("http://local/avatar", { method: "POST" }));
  assertEquals(res.status, 500);
  deepStrictEqual(await res.json(), {
    error: "avatar_not_configured",
    message: "The server is missing the environment variable SUPABASE_SERVICE_ROLE_KEY.",
  });
});
