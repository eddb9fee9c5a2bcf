// POST /functions/v1/chat-gif, multipart with the GIF in the field `gif` and the group in the
// field `groupId` → `{ attachmentUrl }` (the spec's POST /api/chat/upload-gif answer). The
// caller's token is required; the upload runs as the caller (`_shared/chat-gifs.ts`), so the
// chat-gifs bucket's policies decide. Errors are `{ error, message }`: 400 invalid_request,
// missing_file or invalid_group, 401 unauthorized, 403 banned or not_a_member,
// 413 file_too_large, 415 invalid_file.
import type { SupabaseClient } from "@supabase/supabase-js";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  callerClient,
  type ChatGifStore,
  storeChatGif,
  supabaseChatGifStore,
} from "../_shared/chat-gifs.ts";
import { CHAT_GIF_MAX_BYTES, CHAT_GIF_MESSAGES } from "../_shared/domain/chat-gifs.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { requireUser, userFromToken, type UserLookup } from "../_shared/supabase.ts";

export interface ChatGifDeps {
  env?: Env;
  /** The caller's user and store, from their token (tests pass fakes). */
  forToken?: (env: Env, token: string) => UserLookup & ChatGifStore;
}

/** Room for the multipart framing around the file (boundaries, part headers, the group id). */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => new HttpError(413, "file_too_large", CHAT_GIF_MESSAGES.tooLarge);

function supabaseForToken(env: Env, token: string): UserLookup & ChatGifStore {
  const client: SupabaseClient = callerClient(env, token);
  return { getUser: (t) => userFromToken(client, t), ...supabaseChatGifStore(client) };
}

/** The body, read up to `limit` bytes; a longer body is refused without reading the rest. */
async function readLimited(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > limit) throw tooLarge();
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
      throw tooLarge();
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

export function createChatGifApp(deps: ChatGifDeps = {}) {
  const env = deps.env ?? denoEnv;
  const forToken = deps.forToken ?? supabaseForToken;
  const app = functionApp("chat-gif");

  app.post("/", async (c) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header("authorization") ?? "");
    if (!match) throw new HttpError(401, "unauthorized", "Please log in again.");
    const caller = forToken(env, match[1]!);
    const user = await requireUser(caller, c.req.raw);

    const contentType = c.req.header("content-type") ?? "";
    if (!/^multipart\/form-data/i.test(contentType)) {
      throw new HttpError(400, "invalid_request", "Send the GIF as multipart/form-data.");
    }
    const body = await readLimited(c.req.raw, CHAT_GIF_MAX_BYTES + MULTIPART_OVERHEAD);
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
    const result = await storeChatGif(caller, {
      userId: user.id,
      groupId: typeof groupId === "string" ? groupId : "",
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return c.json(result);
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createChatGifApp();
