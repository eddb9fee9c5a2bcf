// Live streams of the /api layer as server-sent events a browser EventSource opens with the
// cookie session (specification section 7):
//   GET /api/chat/stream?groupId=    data: {type:"connected", groupId}, then per change of the
//                                    group's messages {type:"message", …message},
//                                    {type:"update", …message} or {type:"delete", messageId}
//   GET /api/support/stream?ticketId= data: {type:"connected", ticketId}, then
//                                    {type:"message", …ticket message} per reply; a status change
//                                    is the named event `status` ({ticketId, status, updatedAt})
// Every event has an `id:` (the change's time in ms). A reconnect with `Last-Event-ID` (or
// ?lastEventId=) first replays what changed since: messages created or edited after it from the
// database with the caller's token, and deletions this instance saw. Comments keep the
// connection alive; the stream closes itself before the platform's wall-clock limit with a
// `retry:` hint; the caller's access is checked again while the stream lasts. All streams of
// an instance share one Realtime connection (realtime-hub.ts).
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { Db } from "../_shared/clients.ts";
import {
  type BroadcastChange,
  groupTopic,
  isBroadcastChange,
  ticketTopic,
} from "../_shared/domain/realtime.ts";
import { type ApiEnv, apiRouter, callerGuard, callerOf, type KitDeps, route } from "./kit.ts";
import type { RealtimeHub } from "./realtime-hub.ts";
import { groupSenders, MESSAGE_COLUMNS, type Sender, toChatMessage } from "./routes-community.ts";
import { TICKET_MESSAGE_COLUMNS, ticketSenders, toTicketMessage } from "./routes-support.ts";
import * as s from "./schemas.ts";
import { lastEventId, SSE_HEADERS, SseStream } from "./sse.ts";
import { dbFail } from "./kit.ts";
import { z } from "zod";

export interface StreamDeps extends KitDeps {
  hub: () => RealtimeHub;
  keepAliveMs: number;
  /** A stream closes itself after this long (ms), before the platform's limit. */
  maxMs: number;
  /** The caller's access is checked again this often (ms). */
  reauthMs: number;
  joinTimeoutMs: number;
  now: () => number;
}

/** How far before Last-Event-ID the replay starts (clocks of database and function differ). */
export const RESUME_SLACK_MS = 2_000;
export const RETRY_MS = 3_000;

type Row = Record<string, unknown>;

const ms = (iso: unknown, fallback: number) => {
  const t = typeof iso === "string" ? Date.parse(iso) : NaN;
  return Number.isFinite(t) ? t : fallback;
};

/** Deletions seen per topic (message id → time), so a resume can replay them. */
const deletions = new Map<string, Map<string, number>>();
const DELETIONS_KEPT = 500;

function rememberDeletion(topic: string, id: string, at: number) {
  let seen = deletions.get(topic);
  if (!seen) deletions.set(topic, seen = new Map());
  seen.set(id, at);
  if (seen.size > DELETIONS_KEPT) seen.delete(seen.keys().next().value!);
}

/** Runs async steps one after the other, so events keep their order. */
function serial() {
  let chain = Promise.resolve();
  return (step: () => Promise<void> | void) => {
    chain = chain.then(step).catch((err) => console.error("[api] stream step failed:", err));
  };
}

async function blockedIds(db: Db): Promise<Set<string>> {
  const { data, error, status } = await db.from("user_blocks").select("blocked_id");
  if (error) dbFail("reading blocks", error, { status });
  return new Set((data ?? []).map((r) => String(r.blocked_id)));
}

export function streamRoutes(deps: StreamDeps): OpenAPIHono<ApiEnv> {
  const app = apiRouter();
  const guard = callerGuard(deps);

  function open(req: Request) {
    return new SseStream({
      keepAliveMs: deps.keepAliveMs,
      signal: req.signal,
      maxMs: deps.maxMs,
      closeRetryMs: RETRY_MS,
    });
  }

  /** Re-checks access every reauthMs; a refusal ends the stream with an error event. */
  function keepChecking(stream: SseStream, check: () => Promise<void>) {
    const timer = setInterval(() => {
      check().catch((err) => {
        const message = err instanceof Error ? err.message : String(err);
        stream.send({ event: "error", data: { error: message } });
        stream.end();
      });
    }, deps.reauthMs);
    stream.onEnd(() => clearInterval(timer));
  }

  route(app, {
    method: "get",
    path: "/chat/stream",
    tag: "chat",
    summary: "A group's live messages (server-sent events)",
    access: "user",
    query: z.object({ groupId: s.groupQuery.shape.groupId }),
    status: 200,
    stream:
      'data: {"type":"connected"} first; then {"type":"message",…}, {"type":"update",…} or {"type":"delete","messageId"}. Every event has an id; reconnect with Last-Event-ID to resume.',
    errors: [400, 403, 503],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const { groupId } = c.req.valid("query");
    const topic = groupTopic(groupId);
    let senders = await groupSenders(caller.db, groupId);
    let blocked = await blockedIds(caller.db);
    const since = lastEventId(c.req.raw);
    const stream = open(c.req.raw);
    const step = serial();

    const sender = async (id: string): Promise<Map<string, Sender>> => {
      if (!senders.has(id)) senders = await groupSenders(caller.db, groupId);
      return senders;
    };
    const onChange = (change: BroadcastChange<Row>) => {
      const row = change.record ?? change.old_record;
      if (!row) return;
      if (change.operation === "DELETE") {
        const at = deps.now();
        rememberDeletion(topic, String(row.id), at);
        stream.send({ id: String(at), data: { type: "delete", messageId: String(row.id) } });
        return;
      }
      const senderId = String(row.sender_id);
      if (blocked.has(senderId)) return;
      step(async () => {
        const message = toChatMessage(row, await sender(senderId));
        if (change.operation === "INSERT") {
          stream.send({
            id: String(ms(row.created_at, deps.now())),
            data: { type: "message", ...message },
          });
        } else {
          stream.send({
            id: String(ms(row.updated_at, deps.now())),
            data: { type: "update", ...message },
          });
        }
      });
    };

    let sub;
    try {
      sub = await deps.hub().subscribe(topic, {
        onMessage(m) {
          if (isBroadcastChange(m.payload)) onChange(m.payload as BroadcastChange<Row>);
        },
        onEnd(reason) {
          stream.send({ event: "error", data: { error: reason } });
          stream.end();
        },
      }, deps.joinTimeoutMs);
    } catch (err) {
      stream.discard();
      throw err;
    }
    stream.onEnd(() => sub.close());
    stream.send({ retry: RETRY_MS, id: String(deps.now()), data: { type: "connected", groupId } });

    if (since !== null) {
      step(async () => {
        const from = new Date(since - RESUME_SLACK_MS).toISOString();
        const { data, error, status } = await caller.db.from("messages").select(MESSAGE_COLUMNS)
          .eq("group_id", groupId).or(`created_at.gt.${from},updated_at.gt.${from}`)
          .order("created_at", { ascending: true }).limit(500);
        if (error) dbFail("replaying messages", error, { status });
        for (const row of data ?? []) {
          if (blocked.has(String(row.sender_id))) continue;
          const message = toChatMessage(row, await sender(String(row.sender_id)));
          const created = ms(row.created_at, 0);
          if (created > since - RESUME_SLACK_MS) {
            stream.send({ id: String(created), data: { type: "message", ...message } });
          }
          if (
            row.updated_at !== row.created_at && ms(row.updated_at, 0) > since - RESUME_SLACK_MS
          ) {
            stream.send({
              id: String(ms(row.updated_at, 0)),
              data: { type: "update", ...message },
            });
          }
        }
        for (const [messageId, at] of deletions.get(topic) ?? []) {
          if (at > since - RESUME_SLACK_MS) {
            stream.send({ id: String(at), data: { type: "delete", messageId } });
          }
        }
      });
    }

    keepChecking(stream, async () => {
      senders = await groupSenders(caller.db, groupId);
      blocked = await blockedIds(caller.db);
    });
    return new Response(stream.body, { headers: SSE_HEADERS });
  });

  route(app, {
    method: "get",
    path: "/support/stream",
    tag: "support",
    summary: "A ticket's live replies and status (server-sent events)",
    access: "user",
    query: s.ticketQuery,
    status: 200,
    stream:
      'data: {"type":"connected"} first; then {"type":"message",…} per reply; `event: status` for a status change. Every event has an id; reconnect with Last-Event-ID to resume.',
    errors: [400, 404, 503],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const { ticketId } = c.req.valid("query");
    let senders = await ticketSenders(caller.db, ticketId);
    const since = lastEventId(c.req.raw);
    const stream = open(c.req.raw);
    const step = serial();

    const onChange = (change: BroadcastChange<Row>) => {
      const row = change.record;
      if (!row) return;
      if (change.table === "ticket_messages" && change.operation === "INSERT") {
        step(async () => {
          if (!senders.has(String(row.sender_id))) {
            senders = await ticketSenders(caller.db, ticketId);
          }
          stream.send({
            id: String(ms(row.created_at, deps.now())),
            data: { type: "message", ...toTicketMessage(row, senders) },
          });
        });
      } else if (change.table === "support_tickets" && change.operation === "UPDATE") {
        stream.send({
          id: String(ms(row.updated_at, deps.now())),
          event: "status",
          data: { ticketId, status: String(row.status), updatedAt: String(row.updated_at) },
        });
      }
    };

    let sub;
    try {
      sub = await deps.hub().subscribe(ticketTopic(ticketId), {
        onMessage(m) {
          if (isBroadcastChange(m.payload)) onChange(m.payload as BroadcastChange<Row>);
        },
        onEnd(reason) {
          stream.send({ event: "error", data: { error: reason } });
          stream.end();
        },
      }, deps.joinTimeoutMs);
    } catch (err) {
      stream.discard();
      throw err;
    }
    stream.onEnd(() => sub.close());
    stream.send({ retry: RETRY_MS, id: String(deps.now()), data: { type: "connected", ticketId } });

    if (since !== null) {
      step(async () => {
        const from = new Date(since - RESUME_SLACK_MS).toISOString();
        const { data, error, status } = await caller.db.from("ticket_messages")
          .select(TICKET_MESSAGE_COLUMNS).eq("ticket_id", ticketId).gt("created_at", from)
          .order("created_at", { ascending: true }).limit(500);
        if (error) dbFail("replaying ticket messages", error, { status });
        senders = await ticketSenders(caller.db, ticketId);
        for (const row of data ?? []) {
          stream.send({
            id: String(ms(row.created_at, 0)),
            data: { type: "message", ...toTicketMessage(row, senders) },
          });
        }
      });
    }

    keepChecking(stream, async () => {
      senders = await ticketSenders(caller.db, ticketId);
    });
    return new Response(stream.body, { headers: SSE_HEADERS });
  });

  return app;
}
