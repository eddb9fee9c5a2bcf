import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import { statusLabelKey, type TicketPriority, type TicketStatus } from "../utils/ticket-values";

const STATUS_CLASSES: Record<TicketStatus, string> = {
  open: "border-transparent bg-primary text-primary-foreground",
  in_progress: "border-transparent bg-amber-500 text-black dark:bg-amber-400",
  resolved: "border-transparent bg-success text-white dark:text-black",
  closed: "border-transparent bg-secondary text-secondary-foreground",
};

const PRIORITY_CLASSES: Record<TicketPriority, string> = {
  low: "text-muted-foreground",
  medium: "",
  high: "border-amber-500 text-amber-700 dark:text-amber-300",
  urgent: "border-transparent bg-destructive text-white dark:bg-destructive/70",
};

export function TicketStatusBadge({
  status,
  className,
}: {
  status: TicketStatus;
  className?: string;
}) {
  const { t } = useTranslation("support");
  return (
    <Badge data-status={status} className={cn(STATUS_CLASSES[status], className)}>
      {t(statusLabelKey(status))}
    </Badge>
  );
}

export function TicketPriorityBadge({
  priority,
  className,
}: {
  priority: TicketPriority;
  className?: string;
}) {
  const { t } = useTranslation("support");
  return (
    <Badge
      variant="outline"
      data-priority={priority}
      className={cn(PRIORITY_CLASSES[priority], className)}
    >
      {t("priorityLabel", { priority: t(`priority.${priority}`) })}
    </Badge>
  );
}
