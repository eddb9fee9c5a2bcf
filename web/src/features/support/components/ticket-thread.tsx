import { useTranslation } from "react-i18next";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/lib/utils";
import type { PersonRef, ThreadMessage, TicketWithOwner } from "../api/queries";
import { formatDateTime } from "../utils/ticket-values";

type ThreadEntry = {
  id: string;
  senderId: string;
  sender: PersonRef | null | undefined;
  content: string;
  createdAt: string;
  isAdminReply: boolean;
};

type TicketThreadProps = {
  ticket: TicketWithOwner;
  messages: readonly ThreadMessage[];
  viewerId: string;
};

/**
 * The conversation: the ticket's own text first, then every reply in order, admin replies with
 * the "Admin" badge. Names come from the profiles the reader may see: the owner sees "You" and the
 * support team; admins see who wrote what.
 */
export function TicketThread({ ticket, messages, viewerId }: TicketThreadProps) {
  const { t, i18n } = useTranslation("support");
  const entries: ThreadEntry[] = [
    {
      id: `ticket-${ticket.id}`,
      senderId: ticket.user_id,
      sender: ticket.owner,
      content: ticket.content,
      createdAt: ticket.created_at,
      isAdminReply: false,
    },
    ...messages.map((message) => ({
      id: message.id,
      senderId: message.sender_id,
      sender: message.sender,
      content: message.content,
      createdAt: message.created_at,
      isAdminReply: message.is_admin_reply,
    })),
  ];

  const nameOf = (entry: ThreadEntry): string => {
    if (entry.senderId === viewerId) return t("thread.you");
    const known = entry.sender?.username || entry.sender?.email;
    if (known) return known;
    if (entry.senderId === ticket.user_id) {
      return ticket.owner?.username || ticket.owner?.email || t("thread.customer");
    }
    return entry.isAdminReply ? t("thread.supportTeam") : t("thread.unknown");
  };

  return (
    <ol className="flex flex-col gap-3" aria-label={t("thread.label")} data-testid="ticket-thread">
      {entries.map((entry) => {
        const name = nameOf(entry);
        return (
          <li
            key={entry.id}
            data-testid="thread-message"
            data-admin-reply={entry.isAdminReply || undefined}
            className={cn(
              "flex gap-3 rounded-lg border p-4",
              entry.isAdminReply ? "border-primary/30 bg-primary/5" : "bg-card",
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                "flex size-9 shrink-0 items-center justify-center rounded-full text-sm font-semibold uppercase",
                entry.isAdminReply
                  ? "bg-primary text-primary-foreground"
                  : "bg-muted text-foreground",
              )}
            >
              {name.charAt(0) || "U"}
            </span>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium break-all">{name}</span>
                {entry.isAdminReply ? (
                  <Badge variant="destructive">{t("thread.adminBadge")}</Badge>
                ) : null}
                <time dateTime={entry.createdAt} className="text-xs text-muted-foreground">
                  {formatDateTime(entry.createdAt, i18n.language)}
                </time>
              </div>
              <p className="text-sm break-words whitespace-pre-wrap">{entry.content}</p>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
