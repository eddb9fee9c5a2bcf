import { CHAT_GIF_BUCKET, chatGifPathFromUrl } from "@domain/chat-gifs";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { supabase } from "@/lib/supabase";

/**
 * The URL to show a message's GIF with. A GIF of the private chat-gifs bucket is downloaded with
 * the viewer's own token — Storage hands it only to a member of its group (decision 0021) — and
 * shown through an object URL that lives as long as the component; any other http(s) URL is
 * shown as sent.
 */
export function useGifUrl(attachmentUrl: string | null) {
  const path = attachmentUrl ? chatGifPathFromUrl(attachmentUrl) : null;
  const file = useQuery({
    queryKey: ["chat-gifs", "file", path],
    enabled: path !== null,
    // An object never changes (a new upload gets a new name).
    staleTime: Infinity,
    queryFn: async () => {
      const { data, error } = await supabase.storage.from(CHAT_GIF_BUCKET).download(path!);
      if (error) throw error;
      return data;
    },
  });
  const [objectUrl, setObjectUrl] = useState<{ blob: Blob; url: string } | null>(null);
  useEffect(() => {
    if (!file.data) return;
    const url = URL.createObjectURL(file.data);
    // The object URL is an external resource made and revoked with the blob (StrictMode-safe).
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setObjectUrl({ blob: file.data, url });
    return () => URL.revokeObjectURL(url);
  }, [file.data]);

  if (!attachmentUrl) return { url: null, isError: false };
  if (path === null) return { url: attachmentUrl, isError: false };
  const url = objectUrl && objectUrl.blob === file.data ? objectUrl.url : null;
  return { url, isError: file.isError };
}
