import { useTranslation } from "react-i18next";
import { cn } from "@/lib/utils";
import { useGifUrl } from "../hooks/use-gif-url";

type ChatGifProps = { attachmentUrl: string; alt: string; className?: string };

/** A message's GIF; one of the private bucket is downloaded with the viewer's token. */
export function ChatGif({ attachmentUrl, alt, className }: ChatGifProps) {
  const { t } = useTranslation("community");
  const { url, isError } = useGifUrl(attachmentUrl);
  const box = cn("max-h-60 max-w-full rounded-md border bg-muted sm:max-w-xs", className);
  if (isError) {
    return <p className="text-sm text-muted-foreground italic">{t("gif.unavailable")}</p>;
  }
  if (!url) return <div className={cn(box, "h-32 w-48 animate-pulse")} aria-hidden="true" />;
  return (
    <img
      src={url}
      alt={alt}
      loading="lazy"
      data-testid="chat-gif"
      className={cn(box, "h-auto object-contain")}
    />
  );
}
