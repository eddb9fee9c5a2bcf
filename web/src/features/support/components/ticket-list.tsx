import { ChevronRightIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { SupportTicket } from "../utils/apply-ticket-changes";
import { formatDateTime } from "../utils/ticket-values";
import { TicketPriorityBadge, TicketStatusBadge } from "./ticket-badges";

/** The user's tickets: #number, status and priority badges, subject, creation date and time. */
export function TicketList({ tickets }: { tickets: readonly SupportTicket[] }) {
  const { t, i18n } = useTranslation("support");
  return (
    <ul className="flex flex-col gap-3" aria-label={t("center.listLabel")}>
      {tickets.map((ticket) => (
        <li key={ticket.id}>
          <Link
            to={`/support/ticket/${ticket.id}`}
            data-testid="ticket-item"
            className="flex items-center gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-xs transition-colors hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
          >
            <div className="flex min-w-0 flex-1 flex-col gap-2">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-sm font-semibold">#{ticket.ticket_number}</span>
                <TicketStatusBadge status={ticket.status} />
                <TicketPriorityBadge priority={ticket.priority} />
              </div>
              <p className="truncate font-medium">{ticket.subject}</p>
              <p className="text-xs text-muted-foreground">
                <time dateTime={ticket.created_at}>
                  {formatDateTime(ticket.created_at, i18n.language)}
                </time>
              </p>
            </div>
            <ChevronRightIcon
              className="size-5 shrink-0 text-muted-foreground"
              aria-hidden="true"
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}
