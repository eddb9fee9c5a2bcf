import { useQuery } from "@tanstack/react-query";
import { InboxIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { cn } from "@/lib/utils";
import { supportQueries } from "../api/queries";
import { useSupportDeskStream } from "../hooks/use-support-desk-stream";

/**
 * Header, admins only: a link to /admin/tickets with the number of tickets waiting for an admin
 * (open or in progress, latest word the owner's). Kept live by the admin-only `support:desk`
 * topic, which also refreshes the desk while it is open.
 */
export function DeskHeaderLink({ className }: { className?: string }) {
  const { t } = useTranslation("support");
  useSupportDeskStream();
  const unanswered = useQuery(supportQueries.unanswered());
  const count = unanswered.data ?? 0;

  return (
    <Link
      to="/admin/tickets"
      data-testid="desk-header-link"
      aria-label={t("header.deskLink", { count })}
      title={t("header.deskLink", { count })}
      className={cn(
        "relative inline-flex size-9 items-center justify-center rounded-md text-foreground hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none",
        className,
      )}
    >
      <InboxIcon className="size-5" aria-hidden="true" />
      {count > 0 ? (
        <span
          aria-hidden="true"
          data-testid="desk-unanswered-count"
          className="absolute -top-0.5 -right-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-white"
        >
          {count > 99 ? "99+" : count}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * The same link as a row of the phone menu (the header bar has no room for it there). Reads the
 * count `DeskHeaderLink` keeps live; `onNavigate` closes the menu.
 */
export function DeskMenuLink({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation("support");
  const unanswered = useQuery(supportQueries.unanswered());
  const count = unanswered.data ?? 0;

  return (
    <Link
      to="/admin/tickets"
      onClick={onNavigate}
      data-testid="desk-menu-link"
      className="flex items-center gap-3 rounded-md px-3 py-3 text-base font-medium text-muted-foreground transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <InboxIcon className="size-5" aria-hidden="true" />
      <span className="flex-1">{t("header.deskMenu")}</span>
      {count > 0 ? (
        <span className="rounded-full bg-destructive px-2 py-0.5 text-xs font-semibold text-white">
          <span className="sr-only">{t("header.waiting")} </span>
          {count}
        </span>
      ) : null}
    </Link>
  );
}
