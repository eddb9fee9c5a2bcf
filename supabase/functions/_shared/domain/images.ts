/**
 * Avatar images: the accepted types, the size limit and type detection by content.
 *
 * The type of an upload is decided by its first bytes ("magic bytes"), never by the
 * declared MIME type or the file name, which the sender chooses freely.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 */

/** At most 5 MB (5 MiB, the avatars bucket's `file_size_limit`). */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

export const AVATAR_MESSAGES = {
  invalidType: "Please select an image (JPEG, PNG, GIF, or WebP).",
  tooLarge: "The image must be at most 5 MB.",
} as const;

export const IMAGE_TYPES = {
  jpeg: { mime: "image/jpeg", ext: "jpg" },
  png: { mime: "image/png", ext: "png" },
  gif: { mime: "image/gif", ext: "gif" },
  webp: { mime: "image/webp", ext: "webp" },
} as const;

export type ImageKind = keyof typeof IMAGE_TYPES;
export type ImageType = (typeof IMAGE_TYPES)[ImageKind];

/** The MIME types an avatar may have (the bucket's `allowed_mime_types`). */
export const AVATAR_MIME_TYPES: readonly string[] = Object.values(IMAGE_TYPES).map((t) => t.mime);

/** Bytes needed to recognise every supported type (WebP: "RIFF" size "WEBP"). */
export const SNIFF_BYTES = 12;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => bytes[offset + i] === b);
}

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const GIF87A = ascii("GIF87a");
const GIF89A = ascii("GIF89a");
const RIFF = ascii("RIFF");
const WEBP = ascii("WEBP");

/** The image type the content starts with, or null when it is none of JPEG, PNG, GIF, WebP. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, JPEG)) return IMAGE_TYPES.jpeg;
  if (startsWith(bytes, PNG)) return IMAGE_TYPES.png;
  if (startsWith(bytes, GIF87A) || startsWith(bytes, GIF89A)) return IMAGE_TYPES.gif;
  if (startsWith(bytes, RIFF) && startsWith(bytes, WEBP, 8)) return IMAGE_TYPES.webp;
  return null;
}
