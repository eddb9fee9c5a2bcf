import { lazy, Suspense } from "react";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeftIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation, useParams } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { LiveIndicator } from "@/components/live-indicator";
import { useCurrentUser } from "@/hooks/use-current-user";
import { loginPath } from "@/lib/redirect";
import { isSessionExpiredError } from "@/lib/session-expired";
import { supportQueries } from "../api/queries";
import { useTicketStream } from "../hooks/use-ticket-stream";
import { acceptsReplies, formatDateTime, targetHours, waitsForAdmin } from "../utils/ticket-values";
import { ResponseTimer } from "./response-timer";
import { SupportPlanBadge } from "./support-plan-badge";
import { TicketPriorityBadge, TicketStatusBadge } from "./ticket-badges";
import { TicketThread } from "./ticket-thread";

// The desk's controls (status select, internal notes) load for administrators only: a user's
// ticket page does not download them (decision 0027's budget).
// The reply form (its validation and form library) follows the thread a moment later.
const ReplyForm = lazy(() => import("./reply-form").then((m) => ({ default: m.ReplyForm })));
const TicketStatusSelect = lazy(() =>
  import("./ticket-status-select").then((m) => ({ default: m.TicketStatusSelect })),
);
const InternalNotes = lazy(() =>
  import("./internal-notes").then((m) => ({ default: m.InternalNotes })),
);

/**
 * /support/ticket/:id — the conversation. Replies and status changes arrive live on
 * `ticket:<id>`; after a reconnect the ticket and its thread are refetched. Admins also set the
 * status, insert canned replies and keep internal notes.
 */
export function TicketPage() {
  const { t, i18n } = useTranslation("support");
  const { id = "" } = useParams();
  const location = useLocation();
  const { user, isAdmin } = useCurrentUser();
  const ticket = useQuery(supportQueries.ticket(id));
  const found = ticket.data != null;
  const messages = useQuery({ ...supportQueries.messages(id), enabled: found });
  const stream = useTicketStream(id, { enabled: found });
  const backTo = isAdmin ? "/admin/tickets" : "/support";

  if (!user || (ticket.isError && isSessionExpiredError(ticket.error))) {
    return <Navigate to={loginPath(location.pathname)} replace />;
  }

  const back = (
    <Button asChild variant="ghost" size="sm" className="self-start">
      <Link to={backTo}>
        <ArrowLeftIcon aria-hidden="true" />
        {isAdmin ? t("ticket.backToDesk") : t("ticket.back")}
      </Link>
    </Button>
  );

  if (ticket.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center p-8">
        <Spinner label={t("loading")} className="size-6" />
      </div>
    );
  }
  if (ticket.isError || ticket.data === null) {
    return (
      <div className="container mx-auto flex w-full max-w-3xl flex-col gap-4 px-4 py-8">
        {back}
        <Card role="alert">
          <CardHeader>
            <CardTitle>{ticket.isError ? t("ticket.loadFailed") : t("ticket.notFound")}</CardTitle>
            <CardDescription>
              {ticket.isError ? ticket.error.message : t("ticket.notFoundDescription")}
            </CardDescription>
          </CardHeader>
          {ticket.isError ? (
            <CardContent>
              <Button variant="outline" onClick={() => void ticket.refetch()}>
                {t("retry")}
              </Button>
            </CardContent>
          ) : null}
        </Card>
      </div>
    );
  }

  const data = ticket.data;
  const closed = !acceptsReplies(data.status);

  return (
    <div className="container mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      {back}
      <header className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-lg font-semibold">#{data.ticket_number}</span>
          <TicketStatusBadge status={data.status} />
          <TicketPriorityBadge priority={data.priority} />
          {isAdmin && waitsForAdmin(data) ? (
            <span className="text-xs font-medium text-amber-700 dark:text-amber-300">
              {t("admin.waiting")}
            </span>
          ) : null}
          <LiveIndicator status={stream.status} className="ml-auto" />
        </div>
        <h1 className="text-xl font-bold tracking-tight break-words sm:text-2xl">{data.subject}</h1>
        <p className="text-sm text-muted-foreground">
          {t("ticket.opened", { date: formatDateTime(data.created_at, i18n.language) })}
          {isAdmin && data.owner ? ` · ${t("ticket.from", { email: data.owner.email })}` : null}
        </p>
        {isAdmin ? (
          <div className="flex flex-wrap items-center gap-2">
            <SupportPlanBadge plan={data.support_plan} />
            <ResponseTimer ticket={data} />
          </div>
        ) : (
          <p className="text-sm" data-testid="ticket-target">
            {data.first_response_at
              ? t("sla.ownerAnswered", {
                  date: formatDateTime(data.first_response_at, i18n.language),
                  hours: targetHours(data),
                })
              : t("sla.ownerTarget", {
                  plan: t(`sla.plan.${data.support_plan}`),
                  hours: targetHours(data),
                  date: formatDateTime(data.response_due_at, i18n.language),
                })}
          </p>
        )}
        {isAdmin ? (
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium">{t("admin.status")}</span>
            <Suspense fallback={<Spinner label={t("loading")} className="size-4" />}>
              <TicketStatusSelect
                ticketId={data.id}
                ticketNumber={data.ticket_number}
                status={data.status}
              />
            </Suspense>
          </div>
        ) : null}
      </header>

      <div
        className={
          isAdmin ? "grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]" : "flex flex-col gap-6"
        }
      >
        <section className="flex min-w-0 flex-col gap-6" aria-label={t("thread.label")}>
          {messages.isPending ? (
            <Spinner label={t("loading")} className="size-5" />
          ) : messages.isError ? (
            <p className="text-sm text-destructive" role="alert">
              {t("thread.loadFailed")}
            </p>
          ) : (
            <TicketThread ticket={data} messages={messages.data} viewerId={user.id} />
          )}
          <Suspense fallback={<Spinner label={t("loading")} className="size-5" />}>
            <ReplyForm ticketId={data.id} closed={closed} isAdmin={isAdmin} />
          </Suspense>
        </section>
        {isAdmin ? (
          <aside className="min-w-0">
            <Suspense fallback={<Spinner label={t("loading")} className="size-5" />}>
              <InternalNotes ticketId={data.id} viewerId={user.id} />
            </Suspense>
          </aside>
        ) : null}
      </div>
    </div>
  );
}
