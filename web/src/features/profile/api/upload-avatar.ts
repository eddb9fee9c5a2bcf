import { useMutation, useQueryClient } from "@tanstack/react-query";
import { profileQueryOptions } from "@/lib/profile-query";
import { supabase } from "@/lib/supabase";

/** The `error` codes the `avatar` edge function answers with (supabase/functions/avatar/app.ts). */
export type AvatarErrorCode =
  "file_too_large" | "invalid_file_type" | "missing_file" | "invalid_request" | (string & {});

/**
 * A failed upload. `message` is the server's `message` (or `error`) field, else the response
 * text, else empty: then the page shows "Upload failed ({status})". `code` is the server's
 * `error` field when it is a code (`file_too_large`, `invalid_file_type`, …), else null; the page
 * translates the known ones.
 */
export class AvatarUploadError extends Error {
  readonly status: number | null;
  readonly code: AvatarErrorCode | null;

  constructor(message: string, status: number | null, code: AvatarErrorCode | null = null) {
    super(message);
    this.name = "AvatarUploadError";
    this.status = status;
    this.code = code;
  }
}

/** An `error` field that is a code (`file_too_large`), not a sentence. */
const ERROR_CODE = /^[a-z][a-z0-9_]*$/;

async function toUploadError(error: unknown): Promise<AvatarUploadError> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) {
    return new AvatarUploadError(error instanceof Error ? error.message : "", null);
  }
  let text = "";
  try {
    text = (await context.clone().text()).trim();
  } catch {
    // An unreadable body leaves only the status.
  }
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === "object") {
      const fields = body as Record<string, unknown>;
      const code =
        typeof fields.error === "string" && ERROR_CODE.test(fields.error) ? fields.error : null;
      for (const field of ["message", "error"] as const) {
        const value = fields[field];
        if (typeof value === "string" && value.trim() !== "") {
          return new AvatarUploadError(value, context.status, code);
        }
      }
    }
  } catch {
    // Not JSON: the text itself is the message.
  }
  return new AvatarUploadError(text, context.status);
}

/**
 * Sends the image to the `avatar` edge function (multipart, field `avatar`). The function checks
 * the content, stores it and sets `profiles.avatar_url`; it answers `{ avatarUrl }`.
 */
export async function uploadAvatar(file: File): Promise<{ avatarUrl: string }> {
  const body = new FormData();
  body.append("avatar", file);
  const { data, error } = await supabase.functions.invoke<{ avatarUrl?: unknown }>("avatar", {
    body,
  });
  if (error) throw await toUploadError(error);
  if (typeof data?.avatarUrl !== "string") throw new AvatarUploadError("", null);
  return { avatarUrl: data.avatarUrl };
}

export function useUploadAvatar(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: profileQueryOptions(userId).queryKey }),
  });
}
