import { cn } from "@/lib/utils";

type AvatarImageProps = {
  url: string | null;
  /** Shown in a circle when there is no picture. */
  initial: string;
  alt: string;
  className?: string;
};

/** A round profile picture, or the initial on a muted circle. */
export function AvatarImage({ url, initial, alt, className }: AvatarImageProps) {
  const frame = cn("size-24 shrink-0 overflow-hidden rounded-full border bg-muted", className);
  if (url) return <img src={url} alt={alt} className={cn(frame, "object-cover")} />;
  return (
    <div
      role="img"
      aria-label={alt}
      className={cn(frame, "flex items-center justify-center text-3xl font-semibold uppercase")}
    >
      {initial}
    </div>
  );
}
