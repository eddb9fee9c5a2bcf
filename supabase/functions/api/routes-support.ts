// Support tickets (specification section 7): the caller's tickets (every ticket for admins),
// open one, read one and its thread, reply, and set its status (admins). Through the caller's
// token: the support policies, the closed-ticket trigger and admin_set_ticket_status decide;
// ticket_senders (migration 20261124400000) names the thread's senders.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Db } from "../_shared/clients.ts";
import { HttpError } from "../_shared/http.ts";
import {
  type ApiEnv,
  apiRouter,
  callerGuard,
  callerOf,
  dbFail,
  type KitDeps,
  route,
  uuid,
} from "./kit.ts";
import * as s from "./schemas.ts";

export const TICKET_COLUMNS =
  "id, ticket_number, user_id, subject, content, priority, status, created_at, updated_at";
export const TICKET_MESSAGE_COLUMNS =
  "id, ticket_id, sender_id, content, is_admin_reply, created_at";

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : null);

export function toTicket(row: Row) {
  return {
    id: String(row.id),
    ticketNumber: Number(row.ticket_number),
    userId: String(row.user_id),
    subject: String(row.subject),
    content: String(row.content),
    priority: String(row.priority) as (typeof s.TICKET_PRIORITIES)[number],
    status: String(row.status) as (typeof s.TICKET_STATUSES)[number],
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
  };
}

export type TicketSender = {
  id: string;
  username: string | null;
  email: string | null;
  profilePicture: string | null;
};

/** The ticket's senders by id; a ticket the caller may not read is a 404. */
export async function ticketSenders(db: Db, ticketId: string) {
  const { data, error, status } = await db.rpc("ticket_senders", { tid: ticketId });
  if (error) dbFail("reading the ticket's senders", error, { status });
  const map = new Map<string, TicketSender>();
  for (const r of data ?? []) {
    map.set(String(r.id), {
      id: String(r.id),
      username: str(r.username),
      email: str(r.email),
      profilePicture: str(r.avatar_url),
    });
  }
  return map;
}

export function toTicketMessage(row: Row, senders: Map<string, TicketSender>) {
  const senderId = String(row.sender_id);
  return {
    id: String(row.id),
    ticketId: String(row.ticket_id),
    content: String(row.content),
    createdAt: String(row.created_at),
    isAdminReply: row.is_admin_reply === true,
    sender: senders.get(senderId) ??
      { id: senderId, username: null, email: null, profilePicture: null },
  };
}

const ticketParams = z.object({ id: uuid("The ticket id").describe("The ticket's id") });
const notFound = () => new HttpError(404, "not_found", "Ticket not found");

async function readTicket(db: Db, id: string): Promise<Row> {
  const { data, error, status } = await db.from("support_tickets").select(TICKET_COLUMNS)
    .eq("id", id).maybeSingle();
  if (error) dbFail("reading a ticket", error, { status });
  if (!data) throw notFound();
  return data;
}

export function supportRoutes(deps: KitDeps): OpenAPIHono<ApiEnv> {
  const app = apiRouter();
  const guard = callerGuard(deps);

  route(app, {
    method: "get",
    path: "/support/tickets",
    tag: "support",
    summary: "Your tickets, newest first (every ticket for admins)",
    access: "user",
    status: 200,
    response: s.tickets,
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.from("support_tickets").select(TICKET_COLUMNS)
      .order("created_at", { ascending: false }).limit(1000);
    if (error) dbFail("reading tickets", error, { status });
    return c.json((data ?? []).map(toTicket));
  });

  route(app, {
    method: "post",
    path: "/support/tickets",
    tag: "support",
    summary: "Open a ticket",
    access: "user",
    body: s.ticketInput,
    status: 201,
    response: s.ticket,
    errors: [400, 403],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const input = c.req.valid("json");
    const { data, error, status } = await db.from("support_tickets").insert({
      subject: input.subject.trim(),
      content: input.content.trim(),
      priority: input.priority,
    }).select(TICKET_COLUMNS).single();
    if (error) {
      dbFail("opening a ticket", error, {
        status,
        fallback: error.code === "42501" ? "Your account cannot open tickets." : undefined,
      });
    }
    return c.json(toTicket(data), 201);
  });

  route(app, {
    method: "get",
    path: "/support/tickets/{id}",
    tag: "support",
    summary: "One ticket",
    access: "user",
    params: ticketParams,
    status: 200,
    response: s.ticket,
    errors: [400, 404],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    return c.json(toTicket(await readTicket(db, c.req.valid("param").id)));
  });

  route(app, {
    method: "patch",
    path: "/support/tickets/{id}",
    tag: "support",
    summary: "Set a ticket's status (admins)",
    access: "admin",
    params: ticketParams,
    body: s.ticketStatusInput,
    status: 200,
    response: s.ticket,
    errors: [400, 403, 404],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const id = c.req.valid("param").id;
    const input = c.req.valid("json");
    const { error, status } = await db.rpc("admin_set_ticket_status", {
      ticket: id,
      new_status: input.status,
    });
    if (error) dbFail("setting a ticket's status", error, { status });
    return c.json(toTicket(await readTicket(db, id)));
  });

  route(app, {
    method: "get",
    path: "/support/tickets/{id}/messages",
    tag: "support",
    summary: "A ticket's thread, oldest first",
    access: "user",
    params: ticketParams,
    status: 200,
    response: s.ticketMessages,
    errors: [400, 404],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const id = c.req.valid("param").id;
    const senders = await ticketSenders(db, id);
    const { data, error, status } = await db.from("ticket_messages").select(TICKET_MESSAGE_COLUMNS)
      .eq("ticket_id", id).order("created_at", { ascending: true }).order("id").limit(2000);
    if (error) dbFail("reading a ticket's messages", error, { status });
    return c.json((data ?? []).map((r) => toTicketMessage(r, senders)));
  });

  route(app, {
    method: "post",
    path: "/support/tickets/{id}/messages",
    tag: "support",
    summary: "Reply on a ticket (refused once it is closed)",
    access: "user",
    params: ticketParams,
    body: s.ticketReplyInput,
    status: 201,
    response: s.ticketMessage,
    errors: [400, 403, 404, 409],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const id = c.req.valid("param").id;
    const input = c.req.valid("json");
    await readTicket(db, id);
    const { data, error, status } = await db.from("ticket_messages").insert({
      ticket_id: id,
      content: input.content,
    }).select(TICKET_MESSAGE_COLUMNS).single();
    if (error) {
      dbFail("replying on a ticket", error, {
        status,
        fallback: error.code === "42501" ? "Your account cannot reply on tickets." : undefined,
      });
    }
    const senders = await ticketSenders(db, id);
    return c.json(toTicketMessage(data, senders), 201);
  });

  return app;
}
