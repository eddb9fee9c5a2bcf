import { useMutation } from "@tanstack/react-query";
import { CHAT_GIF_BUCKET, chatGifPathFromUrl } from "@domain/chat-gifs";
import { supabase } from "@/lib/supabase";

/** Removes a pending GIF the user took back before sending (their own object; best effort). */
export async function removeGif(attachmentUrl: string): Promise<void> {
  const path = chatGifPathFromUrl(attachmentUrl);
  if (!path) return;
  const { error } = await supabase.storage.from(CHAT_GIF_BUCKET).remove([path]);
  if (error) console.warn("[chat] removing the pending GIF failed", error);
}

export function useRemoveGif() {
  return useMutation({ mutationFn: removeGif });
}
