import type { Database } from "@/lib/database.types";
import { dateTimeFormat, displayTimeZone } from "@/lib/time-zone";

export type TicketStatus = Database["public"]["Enums"]["ticket_status"];
export type TicketPriority = Database["public"]["Enums"]["ticket_priority"];

/** Every stored status, in the order a ticket usually moves through them (decision 0022). */
export const TICKET_STATUSES = [
  "open",
  "in_progress",
  "resolved",
  "closed",
] as const satisfies readonly TicketStatus[];

/** Every stored priority; users choose from `USER_PRIORITIES` only (spec section 5). */
export const TICKET_PRIORITIES = [
  "low",
  "medium",
  "high",
  "urgent",
] as const satisfies readonly TicketPriority[];
export const USER_PRIORITIES = [
  "low",
  "medium",
  "high",
] as const satisfies readonly TicketPriority[];
export const DEFAULT_PRIORITY = "medium" satisfies TicketPriority;

/** The desk's filters; `waiting` keeps the tickets that wait for an admin. */
export type TicketFilters = {
  status: TicketStatus | "all";
  priority: TicketPriority | "all";
  waiting: boolean;
};
export const ALL_TICKETS: TicketFilters = { status: "all", priority: "all", waiting: false };

/** Replies are refused on a closed ticket only (migration 20261121000500). */
export function acceptsReplies(status: TicketStatus): boolean {
  return status !== "closed";
}

/**
 * Whether a ticket waits for an admin: its latest word is the owner's (the database settles the
 * flag on an admin's reply and when an admin resolves or closes the ticket) and it is not closed.
 */
export function waitsForAdmin(ticket: { awaiting_admin: boolean; status: TicketStatus }): boolean {
  return ticket.awaiting_admin && ticket.status !== "closed";
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A ticket's or message's date and time in the reader's language: "23 Nov 2026, 14:05". */
export function formatDateTime(iso: string, locale: string): string {
  // Cached per language and zone (the reader's zone can change while the page is open).
  const key = `${locale}|${displayTimeZone() ?? ""}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = dateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
    dateTimeFormats.set(key, format);
  }
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
}

/** The `support` namespace key of a status' label (locale keys are camelCase). */
export function statusLabelKey(status: TicketStatus) {
  return status === "in_progress" ? ("status.inProgress" as const) : (`status.${status}` as const);
}

export type SupportPlan = Database["public"]["Enums"]["plan"];

/** What a ticket's first-response clock says (decision 0036). */
export type ResponseClock =
  | { state: "answered"; late: boolean }
  | { state: "waiting"; minutesLeft: number }
  | { state: "breached"; minutesOver: number }
  /** Resolved or closed without an answer: the clock stopped. */
  | { state: "stopped" };

/**
 * The first-response clock of a ticket at `now`: answered (on time or late), waiting with the
 * minutes left, or breached with the minutes over its plan's target.
 */
export function responseClock(
  ticket: {
    status: TicketStatus;
    response_due_at: string;
    first_response_at: string | null;
  },
  now: number,
): ResponseClock {
  const due = Date.parse(ticket.response_due_at);
  if (ticket.first_response_at) {
    return { state: "answered", late: Date.parse(ticket.first_response_at) > due };
  }
  if (ticket.status === "resolved" || ticket.status === "closed") return { state: "stopped" };
  const minutes = Math.round((due - now) / 60_000);
  return minutes >= 0
    ? { state: "waiting", minutesLeft: minutes }
    : { state: "breached", minutesOver: -minutes };
}

/** The hours a plan's first answer may take (as public.support_response_target). */
export function targetHours(ticket: { created_at: string; response_due_at: string }): number {
  return Math.round(
    (Date.parse(ticket.response_due_at) - Date.parse(ticket.created_at)) / 3_600_000,
  );
}

/** "2 h 05 min" style durations for the clock. */
export function splitMinutes(total: number): { hours: number; minutes: number } {
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}
