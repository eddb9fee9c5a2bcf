// POST /functions/v1/chat-gif, multipart with the GIF in the field `gif` and the group in the
// field `groupId` → `{ attachmentUrl }` (the spec's POST /api/chat/upload-gif answer). The
// caller's token is required; the upload runs as the caller (`_shared/chat-gifs.ts`), so the
// chat-gifs bucket's policies decide. Errors are `{ error, message }`: 400 invalid_request,
// missing_file or invalid_group, 401 unauthorized, 403 banned or not_a_member,
// 413 file_too_large, 415 invalid_file.
import { userClient } from "../_shared/clients.ts";
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import {
  CHAT_GIF_NOT_CONFIGURED,
  type ChatGifStore,
  readChatGifForm,
  storeChatGif,
  supabaseChatGifStore,
} from "../_shared/chat-gifs.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { requireUser, userFromToken, type UserLookup } from "../_shared/supabase.ts";

export interface ChatGifDeps {
  env?: Env;
  /** The caller's user and store, from their token (tests pass fakes). */
  forToken?: (env: Env, token: string) => UserLookup & ChatGifStore;
}

function supabaseForToken(env: Env, token: string): UserLookup & ChatGifStore {
  const client = userClient(env, token, { code: CHAT_GIF_NOT_CONFIGURED });
  return { getUser: (t) => userFromToken(client, t), ...supabaseChatGifStore(client) };
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

    const result = await storeChatGif(caller, {
      userId: user.id,
      ...(await readChatGifForm(c.req.raw)),
    });
    return c.json(result);
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createChatGifApp();
