/**
 * Chat GIFs (decision 0021): the rules shared by the upload (edge function `chat-gif`, and the
 * /api layer's POST /api/chat/upload-gif through `_shared/chat-gifs.ts`) and the SPA.
 *
 * - Only GIFs, decided by the content's first bytes (`GIF87a` / `GIF89a`), never by the declared
 *   type or the file name.
 * - At most 2 MiB (the `chat-gifs` bucket's `file_size_limit`, migration 20261124100000).
 * - Stored in the private bucket `chat-gifs` at `<group id>/<sender id>/<uuid>.gif`; a message
 *   refers to it by its authenticated Storage URL
 *   `<SUPABASE_URL>/storage/v1/object/authenticated/chat-gifs/<path>`, which members turn into a
 *   short-lived signed URL to display it.
 *
 * Runtime-agnostic: imported by the edge functions (Deno) and by the SPA (alias `@domain`).
 */

export const CHAT_GIF_BUCKET = "chat-gifs";

/** 2 MiB. */
export const CHAT_GIF_MAX_BYTES = 2 * 1024 * 1024;

/** The spec's texts (section 8) and ours for the size limit. */
export const CHAT_GIF_MESSAGES = {
  invalidFile: "Only GIF files are allowed",
  tooLarge: "The GIF must be at most 2 MB.",
  notMember: "You are not a member of this group.",
  invalidGroup: "groupId must be a group id (uuid).",
} as const;

const GIF87A = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61];
const GIF89A = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61];

/** Whether the bytes start like a GIF (87a or 89a). */
export function isGif(bytes: Uint8Array): boolean {
  if (bytes.length < 6) return false;
  return [GIF87A, GIF89A].some((sig) => sig.every((b, i) => bytes[i] === b));
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID_RE = new RegExp(`^${UUID}$`, "i");
const URL_RE = new RegExp(
  `/storage/v1/object/(?:authenticated/|sign/|public/)?${CHAT_GIF_BUCKET}/(${UUID}/${UUID}/${UUID}\\.gif)(?:[?#].*)?$`,
);

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_RE.test(value);
}

/** The URL a message stores for the object at `path` of the chat-gifs bucket. */
export function chatGifUrl(supabaseUrl: string, path: string): string {
  return `${
    supabaseUrl.replace(/\/+$/, "")
  }/storage/v1/object/authenticated/${CHAT_GIF_BUCKET}/${path}`;
}

/**
 * The chat-gifs object path an attachment URL points to, or null for any other URL (an
 * external GIF, which the message rules of the spec still allow).
 */
export function chatGifPathFromUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = URL_RE.exec(pathname);
  return match ? match[1]! : null;
}
