// Avatar storage for the avatar function: the port and its Supabase implementation (service
// role; users cannot write to the avatars bucket themselves, see migration 20261121000800).
import { type Db, serviceClient } from "./clients.ts";
import type { Env } from "./env.ts";
import { type AuthUser, userFromToken, type UserLookup } from "./supabase.ts";

export const AVATAR_BUCKET = "avatars";
export const AVATAR_NOT_CONFIGURED = "avatar_not_configured";

export interface AvatarStore extends UserLookup {
  /** Stores a new object (never overwrites). */
  upload(path: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The object's public URL (the bucket is public: anyone may read avatars). */
  publicUrl(path: string): string;
  setAvatarUrl(userId: string, url: string): Promise<void>;
  /** The paths of the objects directly inside `folder`. */
  list(folder: string): Promise<string[]>;
  remove(paths: string[]): Promise<void>;
}

export type AvatarStoreFactory = (env: Env) => AvatarStore;

export function supabaseAvatarStore(client: Db): AvatarStore {
  const bucket = () => client.storage.from(AVATAR_BUCKET);
  return {
    getUser: (token): Promise<AuthUser | null> => userFromToken(client, token),
    async upload(path, bytes, contentType) {
      const { error } = await bucket().upload(path, bytes, {
        contentType,
        upsert: false,
        // Every upload has a new name, so the bytes behind a URL never change.
        cacheControl: "31536000",
      });
      if (error) throw new Error(`[avatar] upload of ${path} failed: ${error.message}`);
    },
    publicUrl: (path) => bucket().getPublicUrl(path).data.publicUrl,
    async setAvatarUrl(userId, url) {
      const { error } = await client.from("profiles").update({ avatar_url: url }).eq("id", userId);
      if (error) throw new Error(`[avatar] profile update failed: ${error.code} ${error.message}`);
    },
    async list(folder) {
      const { data, error } = await bucket().list(folder, { limit: 1000 });
      if (error) throw new Error(`[avatar] listing ${folder} failed: ${error.message}`);
      // Entries without an id are sub-folders. Supabase Storage names entries relative to the
      // folder (so without a "/"); @supabase/lite 0.10.0 gives the full path: accept both.
      return (data ?? []).filter((o) => o.id !== null).map((o) =>
        o.name.includes("/") ? o.name : `${folder}/${o.name}`
      );
    },
    async remove(paths) {
      if (paths.length === 0) return;
      const { error } = await bucket().remove(paths);
      if (error) throw new Error(`[avatar] removing old avatars failed: ${error.message}`);
    },
  };
}

export const defaultAvatarStore: AvatarStoreFactory = (env) =>
  supabaseAvatarStore(serviceClient(env, AVATAR_NOT_CONFIGURED));
