import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { useNow } from "@/hooks/use-now";
import { cn } from "@/lib/utils";
import { responseClock, splitMinutes, type TicketStatus } from "../utils/ticket-values";

/**
 * The desk's first-response clock of a ticket against its plan's target (decision 0036): time
 * left, breached (with how long over), answered on time or late, or stopped.
 */
export function ResponseTimer({
  ticket,
  className,
}: {
  ticket: { status: TicketStatus; response_due_at: string; first_response_at: string | null };
  className?: string;
}) {
  const { t } = useTranslation("support");
  const now = useNow();
  const clock = responseClock(ticket, now);
  let label: string;
  let tone: string;
  if (clock.state === "waiting") {
    label = t("sla.left", splitMinutes(clock.minutesLeft));
    tone = clock.minutesLeft < 30 ? "border-amber-500 text-amber-700 dark:text-amber-300" : "";
  } else if (clock.state === "breached") {
    label = t("sla.breached", splitMinutes(clock.minutesOver));
    tone = "border-transparent bg-destructive text-white dark:bg-destructive/70";
  } else if (clock.state === "answered") {
    label = clock.late ? t("sla.answeredLate") : t("sla.answeredOnTime");
    tone = clock.late ? "text-destructive" : "text-muted-foreground";
  } else {
    label = t("sla.stopped");
    tone = "text-muted-foreground";
  }
  return (
    <Badge
      variant="outline"
      data-testid="response-timer"
      data-state={clock.state === "answered" && clock.late ? "answered-late" : clock.state}
      className={cn(tone, className)}
    >
      {label}
    </Badge>
  );
}
