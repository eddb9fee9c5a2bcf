import { cn } from "@/lib/utils";

type SenderAvatarProps = { name: string | null; avatarUrl: string | null; className?: string };

/** The profile picture, else the first letter of the name, else "U" (spec section 2). */
export function SenderAvatar({ name, avatarUrl, className }: SenderAvatarProps) {
  const initial = (name?.trim().charAt(0) || "U").toUpperCase();
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex size-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted text-sm font-semibold text-muted-foreground",
        className,
      )}
    >
      {avatarUrl ? <img src={avatarUrl} alt="" className="size-full object-cover" /> : initial}
    </span>
  );
}
