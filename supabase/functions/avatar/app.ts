// POST /functions/v1/avatar, multipart with the image in the field `avatar` → `{ avatarUrl }`.
// The type is decided by the content's magic bytes (JPEG, PNG, GIF, WebP), never by the declared
// type or the name; at most 5 MB. The image is stored with the service role in the public
// avatars bucket at `<user id>/avatar-<ms timestamp>-<128 random bits>.<ext>`, the profile's
// avatar_url is set to its public URL, and the user's older avatar objects are removed. The
// bucket cannot be listed (migration 20261123100100), so the random part keeps an avatar's
// URL unguessable: only someone shown the URL can fetch it.
import { functionApp, methodNotAllowed } from "../_shared/app.ts";
import { uploadAvatar } from "../_shared/avatar-upload.ts";
import { type AvatarStoreFactory, defaultAvatarStore } from "../_shared/avatars.ts";
import { denoEnv, type Env } from "../_shared/env.ts";
import { requireUser } from "../_shared/supabase.ts";

export interface AvatarDeps {
  env?: Env;
  store?: AvatarStoreFactory;
  now?: () => number;
}

export function createAvatarApp(deps: AvatarDeps = {}) {
  const env = deps.env ?? denoEnv;
  const makeStore = deps.store ?? defaultAvatarStore;
  const now = deps.now ?? Date.now;
  const app = functionApp("avatar");

  app.post("/", async (c) => {
    const store = makeStore(env);
    const user = await requireUser(store, c.req.raw);

    const avatarUrl = await uploadAvatar(store, user.id, c.req.raw, now);
    return c.json({ avatarUrl });
  });

  app.all("/", () => methodNotAllowed("POST"));
  return app;
}

export default createAvatarApp();
