import { useQuery } from "@tanstack/react-query";
import { InboxIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from "@/components/ui/table";
import { DESK_LIMIT, supportQueries, type TicketWithOwner } from "../api/queries";
import {
  formatDateTime,
  statusLabelKey,
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  waitsForAdmin,
  type TicketFilters,
} from "../utils/ticket-values";
import { ResponseTimer } from "./response-timer";
import { SupportPlanBadge } from "./support-plan-badge";
import { TicketPriorityBadge } from "./ticket-badges";
import { TicketStatusSelect } from "./ticket-status-select";

/** The desk's filters live in the address (`?status=open&priority=high&waiting=1`), so they survive a reload. */
function readFilters(params: URLSearchParams): TicketFilters {
  const status = TICKET_STATUSES.find((value) => value === params.get("status")) ?? "all";
  const priority = TICKET_PRIORITIES.find((value) => value === params.get("priority")) ?? "all";
  return { status, priority, waiting: params.get("waiting") === "1" };
}

/**
 * /admin/tickets: every ticket, those waiting for an admin first by their plan's priority and the
 * longest wait (with each one's first-response clock), then the newest activity; filtered by
 * status and priority. The route
 * sits behind `RequireAdmin` ("Admin access required" for others); the database refuses
 * non-admins on its own.
 */
export function AdminTicketsPage() {
  const { t } = useTranslation("support");
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const tickets = useQuery(supportQueries.desk(filters));
  const unanswered = useQuery(supportQueries.unanswered());

  const setFilter = (key: "status" | "priority" | "waiting", value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null || value === "all") next.delete(key);
        else next.set(key, value);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="container mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-8">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{t("admin.title")}</h1>
        <p className="text-muted-foreground">
          {t("admin.description")}{" "}
          {unanswered.data === undefined
            ? null
            : unanswered.data === 0
              ? t("admin.waitingNone")
              : t("admin.waitingCount", { count: unanswered.data })}
        </p>
      </header>

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="desk-status">{t("admin.filterStatus")}</Label>
          <Select value={filters.status} onValueChange={(value) => setFilter("status", value)}>
            <SelectTrigger id="desk-status" className="w-full sm:w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">{t("admin.allStatuses")}</SelectItem>
              {TICKET_STATUSES.map((value) => (
                <SelectItem key={value} value={value}>
                  {t(statusLabelKey(value))}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="desk-priority">{t("admin.filterPriority")}</Label>
          <Select value={filters.priority} onValueChange={(value) => setFilter("priority", value)}>
            <SelectTrigger id="desk-priority" className="w-full sm:w-44">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="all">{t("admin.allPriorities")}</SelectItem>
              {TICKET_PRIORITIES.map((value) => (
                <SelectItem key={value} value={value}>
                  {t(`priority.${value}`)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="flex h-9 items-center gap-2">
          <Checkbox
            id="desk-waiting"
            checked={filters.waiting}
            onChange={(event) => setFilter("waiting", event.target.checked ? "1" : null)}
          />
          <Label htmlFor="desk-waiting">{t("admin.onlyWaiting")}</Label>
        </div>
      </div>

      {tickets.isPending ? (
        <div className="flex justify-center p-8">
          <Spinner label={t("loading")} className="size-6" />
        </div>
      ) : tickets.isError ? (
        <Card role="alert">
          <CardHeader>
            <CardTitle>{t("admin.loadFailed")}</CardTitle>
            <CardDescription>{tickets.error.message}</CardDescription>
          </CardHeader>
          <CardContent>
            <Button variant="outline" onClick={() => void tickets.refetch()}>
              {t("retry")}
            </Button>
          </CardContent>
        </Card>
      ) : tickets.data.length === 0 ? (
        <Card>
          <CardContent className="flex flex-col items-center gap-3 py-12 text-center text-muted-foreground">
            <InboxIcon className="size-10" aria-hidden="true" />
            <p>{t("admin.empty")}</p>
          </CardContent>
        </Card>
      ) : (
        <>
          <DeskTable tickets={tickets.data} />
          <DeskCards tickets={tickets.data} />
          {tickets.data.length >= DESK_LIMIT ? (
            <p className="text-center text-sm text-muted-foreground">
              {t("admin.limited", { count: DESK_LIMIT })}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

function WaitingMark({ ticket }: { ticket: TicketWithOwner }) {
  const { t } = useTranslation("support");
  if (!waitsForAdmin(ticket)) return null;
  return (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-700 dark:text-amber-300">
      <span className="size-2 rounded-full bg-amber-500" aria-hidden="true" />
      {t("admin.waiting")}
    </span>
  );
}

function ViewButton({ ticket }: { ticket: TicketWithOwner }) {
  const { t } = useTranslation("support");
  return (
    <Button asChild size="sm" variant="outline">
      <Link to={`/support/ticket/${ticket.id}`}>
        {t("admin.viewReply")} <span className="sr-only">#{ticket.ticket_number}</span>
      </Link>
    </Button>
  );
}

function DeskTable({ tickets }: { tickets: readonly TicketWithOwner[] }) {
  const { t, i18n } = useTranslation("support");
  return (
    <div className="hidden rounded-lg border md:block">
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>{t("admin.columns.ticket")}</TableHead>
            <TableHead>{t("admin.columns.subject")}</TableHead>
            <TableHead>{t("sla.planColumn")}</TableHead>
            <TableHead>{t("sla.column")}</TableHead>
            <TableHead>{t("admin.columns.priority")}</TableHead>
            <TableHead>{t("admin.columns.status")}</TableHead>
            <TableHead>{t("admin.columns.activity")}</TableHead>
            <TableHead className="text-right">{t("admin.columns.actions")}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {tickets.map((ticket) => (
            <TableRow
              key={ticket.id}
              data-testid="desk-row"
              data-ticket-number={ticket.ticket_number}
            >
              <TableCell className="font-mono font-semibold">#{ticket.ticket_number}</TableCell>
              <TableCell className="max-w-xs">
                <p className="truncate font-medium">{ticket.subject}</p>
                <p className="truncate text-xs text-muted-foreground">
                  {ticket.owner?.email ?? t("thread.unknown")}
                </p>
                <WaitingMark ticket={ticket} />
              </TableCell>
              <TableCell>
                <SupportPlanBadge plan={ticket.support_plan} />
              </TableCell>
              <TableCell>
                <ResponseTimer ticket={ticket} />
              </TableCell>
              <TableCell>
                <TicketPriorityBadge priority={ticket.priority} />
              </TableCell>
              <TableCell>
                <TicketStatusSelect
                  ticketId={ticket.id}
                  ticketNumber={ticket.ticket_number}
                  status={ticket.status}
                />
              </TableCell>
              <TableCell className="text-sm text-muted-foreground">
                <time dateTime={ticket.updated_at}>
                  {formatDateTime(ticket.updated_at, i18n.language)}
                </time>
              </TableCell>
              <TableCell className="text-right">
                <ViewButton ticket={ticket} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

function DeskCards({ tickets }: { tickets: readonly TicketWithOwner[] }) {
  const { t, i18n } = useTranslation("support");
  return (
    <ul className="flex flex-col gap-3 md:hidden">
      {tickets.map((ticket) => (
        <li
          key={ticket.id}
          data-testid="desk-card"
          className="flex flex-col gap-3 rounded-lg border bg-card p-4"
        >
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono font-semibold">#{ticket.ticket_number}</span>
            <SupportPlanBadge plan={ticket.support_plan} />
            <ResponseTimer ticket={ticket} />
            <TicketPriorityBadge priority={ticket.priority} />
            <WaitingMark ticket={ticket} />
          </div>
          <div className="min-w-0">
            <p className="font-medium break-words">{ticket.subject}</p>
            <p className="truncate text-xs text-muted-foreground">
              {ticket.owner?.email ?? t("thread.unknown")}
            </p>
            <p className="text-xs text-muted-foreground">
              {t("admin.lastActivity", { date: formatDateTime(ticket.updated_at, i18n.language) })}
            </p>
          </div>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <TicketStatusSelect
              ticketId={ticket.id}
              ticketNumber={ticket.ticket_number}
              status={ticket.status}
            />
            <ViewButton ticket={ticket} />
          </div>
        </li>
      ))}
    </ul>
  );
}
