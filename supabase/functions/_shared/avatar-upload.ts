// Storing an uploaded avatar (multipart field `avatar`), shared by the avatar function and the
// /api layer's POST /api/user/upload-avatar. The type is decided by the content's magic bytes
// (JPEG, PNG, GIF, WebP), never by the declared type or the name; at most 5 MB. The image is
// stored with the service role in the public avatars bucket at
// `<user id>/avatar-<ms timestamp>-<128 random bits>.<ext>`, the profile's avatar_url is set to
// its public URL, and the user's older avatar objects are removed. The bucket cannot be listed
// (migration 20261123100100), so the random part keeps an avatar's URL unguessable.
import type { AvatarStore } from "./avatars.ts";
import { AVATAR_MAX_BYTES, AVATAR_MESSAGES, sniffImageType } from "./domain/images.ts";
import { HttpError } from "./http.ts";

/** Room for the multipart framing around the file (boundaries, part headers, other fields). */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => new HttpError(413, "file_too_large", AVATAR_MESSAGES.tooLarge);
const invalidType = () => new HttpError(415, "invalid_file_type", AVATAR_MESSAGES.invalidType);

/** The body, read up to `limit` bytes; a longer body is refused without reading the rest. */
export async function readLimited(
  req: Request,
  limit: number,
  onTooLarge: () => Error = tooLarge,
): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw onTooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw onTooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

const AVATAR_NAME = /^avatar-(\d+)(?:-[0-9a-f]+)?\.[a-z]+$/;

/** 128 random bits in hex: the part of an avatar's name nobody can guess. */
function randomPart(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Reads the request's multipart `avatar`, stores it for `userId`; returns its public URL. */
export async function uploadAvatar(
  store: AvatarStore,
  userId: string,
  req: Request,
  now: () => number,
): Promise<string> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new HttpError(400, "invalid_request", "Send the image as multipart/form-data.");
  }
  const body = await readLimited(req, AVATAR_MAX_BYTES + MULTIPART_OVERHEAD);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "invalid_request", "The multipart body could not be read.");
  }
  const file = form.get("avatar");
  if (!(file instanceof File)) {
    throw new HttpError(400, "missing_file", "Choose an image to upload (field avatar).");
  }
  if (file.size > AVATAR_MAX_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(bytes);
  if (!type) throw invalidType();

  const folder = userId;
  const stamp = now();
  const path = `${folder}/avatar-${stamp}-${randomPart()}.${type.ext}`;
  await store.upload(path, bytes, type.mime);
  const avatarUrl = store.publicUrl(path);
  try {
    await store.setAvatarUrl(userId, avatarUrl);
  } catch (err) {
    await store.remove([path]).catch(() => {});
    throw err;
  }

  // Remove the previous avatars: every object of the folder except this one and any newer one
  // (a concurrent upload that may be the profile's avatar by now).
  try {
    const old = (await store.list(folder)).filter((p) => {
      if (p === path) return false;
      const m = AVATAR_NAME.exec(p.slice(folder.length + 1));
      return !m || Number(m[1]) < stamp;
    });
    await store.remove(old);
  } catch (err) {
    console.error("[avatar] old avatars stay:", err);
  }
  return avatarUrl;
}
