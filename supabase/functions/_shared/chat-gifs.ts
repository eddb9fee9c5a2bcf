// Chat GIF upload, shared by the `chat-gif` function and the /api layer
// (POST /api/chat/upload-gif). Everything runs as the CALLER: the supabase-js client given here
// must carry the caller's access token (`Authorization: Bearer <token>`, see `userClient` in clients.ts), so
// the Storage policies of the private bucket chat-gifs (migration 20261124100000) decide: only a
// member of the group writes, only into `<group id>/<own id>/`. Nothing here uses the service role.
//
// Usage:
//   const client = userClient(env, token, { code: CHAT_GIF_NOT_CONFIGURED });
//   const { attachmentUrl } = await uploadChatGif(client, { userId, groupId, bytes });
//   // errors are HttpError: 400 invalid_group, 403 not_a_member, 413 file_too_large,
//   // 415 invalid_file, 429 too_fast (with Retry-After: the database's GIF upload limit,
//   // migration 20261126000000); anything else (Storage down) is a plain Error → 500.
import type { Db } from "./clients.ts";
import {
  CHAT_GIF_BUCKET,
  CHAT_GIF_MAX_BYTES,
  CHAT_GIF_MESSAGES,
  chatGifUrl,
  isGif,
  isUuid,
} from "./domain/chat-gifs.ts";
import { readLimited } from "./avatar-upload.ts";
import { HttpError } from "./http.ts";

export const CHAT_GIF_NOT_CONFIGURED = "chat_gif_not_configured";

export interface ChatGifUpload {
  /** The caller (their id; the client carries their token). */
  userId: string;
  /** The group the GIF will be sent to; the caller must be a member. */
  groupId: string;
  /** The uploaded file's bytes. */
  bytes: Uint8Array;
}

/** What the upload needs from Supabase; `supabaseChatGifStore` is the real one. */
export interface ChatGifStore {
  isMember(groupId: string, userId: string): Promise<boolean>;
  /**
   * Reserves the object name of one upload into the group (`<group>/<caller>/<uuid>.gif`),
   * counted against the caller's GIF upload limit; null when the caller may not send to the
   * group. Past the limit it throws HttpError 429 too_fast with Retry-After.
   */
  reserve(groupId: string): Promise<string | null>;
  /** Stores a new object (never overwrites); false when Storage refused it by policy. */
  upload(path: string, bytes: Uint8Array): Promise<boolean>;
  /** The URL a message stores for the object. */
  url(path: string): string;
}

export function supabaseChatGifStore(client: Db): ChatGifStore {
  const bucket = () => client.storage.from(CHAT_GIF_BUCKET);
  return {
    async isMember(groupId, userId) {
      // RLS shows a user their own memberships.
      const { data, error } = await client
        .from("group_members")
        .select("id")
        .eq("group_id", groupId)
        .eq("user_id", userId)
        .maybeSingle();
      if (error) throw new Error(`[chat-gif] membership check failed: ${error.message}`);
      return data !== null;
    },
    async reserve(groupId) {
      const { data, error } = await client.rpc("reserve_chat_gif", { group_id: groupId });
      if (!error && typeof data === "string") return data;
      if (error?.code === "42501") return null;
      const wait = /^retry-after=(\d+)$/.exec(error?.details ?? "");
      if (error?.code === "PT429" && wait) {
        throw new HttpError(429, "too_fast", error.message, { "Retry-After": wait[1]! });
      }
      throw new Error(`[chat-gif] reserving an upload failed: ${error?.message ?? "no name"}`);
    },
    async upload(path, bytes) {
      const { error } = await bucket().upload(path, bytes, {
        contentType: "image/gif",
        upsert: false,
        cacheControl: "31536000",
      });
      if (!error) return true;
      const status = Number((error as { statusCode?: string | number }).statusCode ?? NaN);
      if (status === 403 || /row-level security|unauthorized/i.test(error.message)) return false;
      throw new Error(`[chat-gif] upload of ${path} failed: ${error.message}`);
    },
    url(path) {
      // The client's own base URL, so the stored URL names the Supabase the GIF lives in.
      const publicUrl = bucket().getPublicUrl(path).data.publicUrl;
      return chatGifUrl(publicUrl.slice(0, publicUrl.indexOf("/storage/v1/")), path);
    },
  };
}

/** Checks the upload, stores it as the caller and returns the URL to send with the message. */
export async function storeChatGif(
  store: ChatGifStore,
  { userId, groupId, bytes }: ChatGifUpload,
): Promise<{ attachmentUrl: string }> {
  if (!isUuid(groupId)) throw new HttpError(400, "invalid_group", CHAT_GIF_MESSAGES.invalidGroup);
  if (bytes.byteLength > CHAT_GIF_MAX_BYTES) {
    throw new HttpError(413, "file_too_large", CHAT_GIF_MESSAGES.tooLarge);
  }
  if (!isGif(bytes)) throw new HttpError(415, "invalid_file", CHAT_GIF_MESSAGES.invalidFile);
  if (!(await store.isMember(groupId, userId))) {
    throw new HttpError(403, "not_a_member", CHAT_GIF_MESSAGES.notMember);
  }
  // Counts against the caller's limit (429 past it); the bucket takes only a reserved name.
  const path = await store.reserve(groupId);
  if (path === null) throw new HttpError(403, "not_a_member", CHAT_GIF_MESSAGES.notMember);
  // Refused by policy although a member a moment ago: removed or banned meanwhile.
  if (!(await store.upload(path, bytes))) {
    throw new HttpError(403, "not_a_member", CHAT_GIF_MESSAGES.notMember);
  }
  return { attachmentUrl: store.url(path) };
}

/** `storeChatGif` with the caller's supabase-js client. */
export function uploadChatGif(
  client: Db,
  upload: ChatGifUpload,
): Promise<{ attachmentUrl: string }> {
  return storeChatGif(supabaseChatGifStore(client), upload);
}

/** Room for the multipart framing around the file (boundaries, part headers, the group id). */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => new HttpError(413, "file_too_large", CHAT_GIF_MESSAGES.tooLarge);

/**
 * Reads a chat GIF upload: multipart/form-data with the file in the field `gif` and the group in
 * the field `groupId`. A body over the limit is refused without reading the rest. Errors are
 * HttpError: 400 invalid_request or missing_file, 413 file_too_large.
 */
export async function readChatGifForm(
  req: Request,
): Promise<{ groupId: string; bytes: Uint8Array }> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(contentType)) {
    throw new HttpError(400, "invalid_request", "Send the GIF as multipart/form-data.");
  }
  const body = await readLimited(req, CHAT_GIF_MAX_BYTES + MULTIPART_OVERHEAD, tooLarge);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new HttpError(400, "invalid_request", "The multipart body could not be read.");
  }
  const file = form.get("gif");
  if (!(file instanceof File)) {
    throw new HttpError(400, "missing_file", "Choose a GIF to upload (field gif).");
  }
  if (file.size > CHAT_GIF_MAX_BYTES) throw tooLarge();
  const groupId = form.get("groupId");
  return {
    groupId: typeof groupId === "string" ? groupId : "",
    bytes: new Uint8Array(await file.arrayBuffer()),
  };
}
