import { AVATAR_MAX_BYTES, AVATAR_MIME_TYPES } from "@domain/images";

export type AvatarFileProblem = "invalidType" | "tooLarge";

/** Some systems report JPEG as `image/jpg`; an empty type is judged by the extension. */
const EXTRA_MIME_TYPES = ["image/jpg"];
const EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;

/**
 * The browser-side check before an upload: an image type (JPEG, PNG, GIF, WebP) and at most
 * 5 MB. The `avatar` edge function checks the content itself; this only spares a round trip.
 */
export function checkAvatarFile(
  file: Pick<File, "type" | "name" | "size">,
): AvatarFileProblem | null {
  const type = file.type.toLowerCase();
  const typeOk =
    type === ""
      ? EXTENSIONS.test(file.name)
      : AVATAR_MIME_TYPES.includes(type) || EXTRA_MIME_TYPES.includes(type);
  if (!typeOk) return "invalidType";
  if (file.size > AVATAR_MAX_BYTES) return "tooLarge";
  return null;
}
