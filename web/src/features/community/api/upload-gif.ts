import { useMutation } from "@tanstack/react-query";
import { i18n } from "@/i18n/i18n";
import { supabase } from "@/lib/supabase";

/**
 * A failed GIF upload: `message` is the server's message (shown under "Upload failed"), empty
 * when there is none; `code` the server's error code (`invalid_file`, `file_too_large`, …).
 */
export class GifUploadError extends Error {
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.name = "GifUploadError";
    this.code = code;
  }
}

async function toGifUploadError(error: unknown): Promise<GifUploadError> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return new GifUploadError("", null);
  try {
    const body = (await context.clone().json()) as { error?: unknown; message?: unknown };
    const code = typeof body.error === "string" ? body.error : null;
    // The GIF upload limit (429 too_fast): worded in the user's language with the server's wait.
    const wait = /^\d+$/.exec(context.headers.get("retry-after") ?? "");
    if (code === "too_fast" && wait) {
      return new GifUploadError(i18n.t("common:tooFast.gifs", { seconds: Number(wait[0]) }), code);
    }
    const message = typeof body.message === "string" ? body.message : (code ?? "");
    return new GifUploadError(message, code);
  } catch {
    return new GifUploadError("", null);
  }
}

/**
 * Sends a GIF to the `chat-gif` function (multipart: `gif`, `groupId`), which checks its
 * content and size and stores it in the group's private bucket; answers the URL to send.
 */
export async function uploadGif(groupId: string, file: File): Promise<{ attachmentUrl: string }> {
  const body = new FormData();
  body.append("gif", file);
  body.append("groupId", groupId);
  const { data, error } = await supabase.functions.invoke<{ attachmentUrl?: unknown }>("chat-gif", {
    body,
  });
  if (error) throw await toGifUploadError(error);
  if (typeof data?.attachmentUrl !== "string") throw new GifUploadError("", null);
  return { attachmentUrl: data.attachmentUrl };
}

export function useUploadGif(groupId: string) {
  return useMutation({ mutationFn: (file: File) => uploadGif(groupId, file) });
}
