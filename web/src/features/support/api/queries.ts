import { queryOptions } from "@tanstack/react-query";
import { loadSupabase } from "@/lib/supabase-loader";
import { toRequestError } from "@/lib/session-expired";
import type { SupportTicket, TicketMessage } from "../utils/apply-ticket-changes";
import type { TicketFilters } from "../utils/ticket-values";

/**
 * Query keys and queries of support tickets. Keys run generic → specific. The ticket stream
 * (`hooks/use-ticket-stream.ts`) writes into the same keys the screens fetch with, so a reply or a
 * status change lands on screen; the desk stream invalidates `ticketKeys.desk()`.
 */

/** A support ticket and its thread: `['tickets', ticketId]`, `['tickets', ticketId, 'messages']`. */
export const ticketKeys = {
  all: ["tickets"] as const,
  detail: (ticketId: string) => [...ticketKeys.all, ticketId] as const,
  messages: (ticketId: string) => [...ticketKeys.detail(ticketId), "messages"] as const,
  notes: (ticketId: string) => [...ticketKeys.detail(ticketId), "notes"] as const,
  /** The signed-in user's own tickets (/support). */
  mine: (userId: string) => [...ticketKeys.all, "mine", userId] as const,
  /** Everything the admins' desk shows: its lists and the unanswered count. */
  desk: () => [...ticketKeys.all, "desk"] as const,
  deskList: (filters: TicketFilters) => [...ticketKeys.desk(), "list", filters] as const,
  unanswered: () => [...ticketKeys.desk(), "unanswered"] as const,
  cannedReplies: () => ["canned-replies"] as const,
};

export type PersonRef = { username: string | null; email: string; avatar_url: string | null };

/** A ticket as the screens show it; `owner` is null for a reader who may not see that profile. */
export type TicketWithOwner = SupportTicket & { owner: PersonRef | null };
/** A reply with its sender (null when the reader may not see the sender's profile). */
export type ThreadMessage = TicketMessage & { sender?: PersonRef | null };

export type TicketNote = {
  id: string;
  ticket_id: string;
  author_id: string | null;
  content: string;
  created_at: string;
  author: PersonRef | null;
};

export type CannedReply = {
  id: string;
  title: string;
  content: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
};

const TICKET_COLUMNS =
  "id, ticket_number, user_id, subject, content, status, priority, awaiting_admin, created_at, updated_at, support_plan, response_due_at, first_response_at";
const OWNER = "owner:profiles!support_tickets_user_id_fkey(username, email, avatar_url)";

/** A ticket id as the database stores it; anything else is "Ticket not found" without a request. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function fetchMyTickets(userId: string): Promise<SupportTicket[]> {
  const supabase = await loadSupabase();
  const { data, error, status } = await supabase
    .from("support_tickets")
    .select(TICKET_COLUMNS)
    .eq("user_id", userId)
    .order("created_at", { ascending: false });
  if (error) throw toRequestError(error, status);
  return data;
}

async function fetchTicket(ticketId: string): Promise<TicketWithOwner | null> {
  const supabase = await loadSupabase();
  if (!UUID_PATTERN.test(ticketId)) return null;
  const { data, error, status } = await supabase
    .from("support_tickets")
    .select(`${TICKET_COLUMNS}, ${OWNER}`)
    .eq("id", ticketId)
    .maybeSingle();
  if (error) throw toRequestError(error, status);
  return data as TicketWithOwner | null;
}

async function fetchMessages(ticketId: string): Promise<ThreadMessage[]> {
  const supabase = await loadSupabase();
  const { data, error, status } = await supabase
    .from("ticket_messages")
    .select(
      "id, ticket_id, sender_id, content, is_admin_reply, created_at, sender:profiles!ticket_messages_sender_id_fkey(username, email, avatar_url)",
    )
    .eq("ticket_id", ticketId)
    .order("created_at", { ascending: true })
    .order("id", { ascending: true });
  if (error) throw toRequestError(error, status);
  return data as ThreadMessage[];
}

async function fetchNotes(ticketId: string): Promise<TicketNote[]> {
  const supabase = await loadSupabase();
  const { data, error, status } = await supabase
    .from("ticket_notes")
    .select(
      "id, ticket_id, author_id, content, created_at, author:profiles!ticket_notes_author_id_fkey(username, email, avatar_url)",
    )
    .eq("ticket_id", ticketId)
    .order("created_at", { ascending: true })
    .order("id", { ascending: true });
  if (error) throw toRequestError(error, status);
  return data as TicketNote[];
}

/**
 * The desk serves the tickets that wait for an admin first, by their plan's priority and then the
 * longest wait (`desk_rank`, `desk_waiting_since`: migration 20261125400200), then the rest by the
 * newest activity; older ones are reached by the filters.
 */
export const DESK_LIMIT = 200;

async function fetchDeskTickets(filters: TicketFilters): Promise<TicketWithOwner[]> {
  const supabase = await loadSupabase();
  let query = supabase.from("support_tickets").select(`${TICKET_COLUMNS}, ${OWNER}`);
  if (filters.status !== "all") query = query.eq("status", filters.status);
  if (filters.priority !== "all") query = query.eq("priority", filters.priority);
  if (filters.waiting) query = query.eq("awaiting_admin", true).neq("status", "closed");
  const { data, error, status } = await query
    .order("desk_rank", { ascending: false })
    .order("desk_waiting_since", { ascending: true, nullsFirst: false })
    .order("updated_at", { ascending: false })
    .order("ticket_number", { ascending: false })
    .limit(DESK_LIMIT);
  if (error) throw toRequestError(error, status);
  return data as TicketWithOwner[];
}

/** Tickets whose latest word is the owner's and that are not closed: they wait for an admin. */
async function countUnanswered(): Promise<number> {
  const supabase = await loadSupabase();
  const { count, error, status } = await supabase
    .from("support_tickets")
    .select("id", { count: "exact", head: true })
    .eq("awaiting_admin", true)
    .neq("status", "closed");
  if (error) throw toRequestError(error, status);
  return count ?? 0;
}

async function fetchCannedReplies(): Promise<CannedReply[]> {
  const supabase = await loadSupabase();
  const { data, error, status } = await supabase
    .from("canned_replies")
    .select("id, title, content, created_by, created_at, updated_at")
    .order("title", { ascending: true });
  if (error) throw toRequestError(error, status);
  return data;
}

export const supportQueries = {
  mine: (userId: string) =>
    queryOptions({ queryKey: ticketKeys.mine(userId), queryFn: () => fetchMyTickets(userId) }),
  ticket: (ticketId: string) =>
    queryOptions({ queryKey: ticketKeys.detail(ticketId), queryFn: () => fetchTicket(ticketId) }),
  messages: (ticketId: string) =>
    queryOptions({
      queryKey: ticketKeys.messages(ticketId),
      queryFn: () => fetchMessages(ticketId),
    }),
  notes: (ticketId: string) =>
    queryOptions({ queryKey: ticketKeys.notes(ticketId), queryFn: () => fetchNotes(ticketId) }),
  desk: (filters: TicketFilters) =>
    queryOptions({
      queryKey: ticketKeys.deskList(filters),
      queryFn: () => fetchDeskTickets(filters),
    }),
  unanswered: () => queryOptions({ queryKey: ticketKeys.unanswered(), queryFn: countUnanswered }),
  cannedReplies: () =>
    queryOptions({ queryKey: ticketKeys.cannedReplies(), queryFn: fetchCannedReplies }),
};
