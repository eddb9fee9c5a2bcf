import { cva } from "class-variance-authority";
import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { RealtimeStatus } from "@/hooks/use-realtime-channel";

const indicatorVariants = cva("gap-1.5", {
  variants: {
    status: {
      live: "",
      connecting: "text-muted-foreground",
      reconnecting: "",
      denied: "text-muted-foreground",
    },
  },
});

const dotVariants = cva("size-2 shrink-0 rounded-full", {
  variants: {
    status: {
      live: "bg-success",
      connecting: "bg-muted-foreground/60",
      reconnecting: "animate-pulse bg-amber-500",
      denied: "bg-muted-foreground/40",
    },
  },
});

type LiveIndicatorProps = {
  status: RealtimeStatus;
  className?: string;
};

/** Whether a live stream is connected: a dot and a word; nothing while the stream is idle. */
export function LiveIndicator({ status, className }: LiveIndicatorProps) {
  const { t } = useTranslation("realtime");
  if (status === "idle") return null;

  return (
    <Badge
      variant="outline"
      role="status"
      aria-live="polite"
      data-status={status}
      className={cn(indicatorVariants({ status }), className)}
    >
      <span aria-hidden="true" data-slot="live-dot" className={dotVariants({ status })} />
      {t(`status.${status}`)}
    </Badge>
  );
}
