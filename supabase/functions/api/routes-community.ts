// Groups and chat (specification section 7): the group lists, create, join, leave, the
// messages of a group, send, edit, delete, and blocking a user. Through the caller's token:
// the community policies decide who sees and writes what; group_senders (migration
// 20261124400000) names the senders for the group's members.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Db } from "../_shared/clients.ts";
import { readChatGifForm, uploadChatGif } from "../_shared/chat-gifs.ts";
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

const GROUP_COLUMNS = "id, name, description, is_public, created_by, created_at";
export const MESSAGE_COLUMNS =
  "id, group_id, sender_id, content, attachment_type, attachment_url, created_at, updated_at";
export const CHAT_PAGE = 50;

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : null);

function toGroup(row: Row, role: string | null) {
  return {
    id: String(row.id),
    name: String(row.name),
    description: str(row.description),
    isPublic: row.is_public === true,
    createdBy: str(row.created_by),
    createdAt: String(row.created_at),
    role: role === "admin" || role === "member" ? role : null,
  };
}

export type Sender = {
  id: string;
  username: string | null;
  email: string | null;
  profilePicture: string | null;
  plan: "none" | "basic" | "pro" | "enterprise";
};

export function unknownSender(id: string): Sender {
  return { id, username: null, email: null, profilePicture: null, plan: "none" };
}

/** The group's senders by id; refuses (403) a caller who is not an active member. */
export async function groupSenders(db: Db, groupId: string) {
  const { data, error, status } = await db.rpc("group_senders", { gid: groupId });
  if (error) dbFail("reading the group's senders", error, { status });
  const map = new Map<string, Sender>();
  for (const r of data ?? []) {
    map.set(String(r.id), {
      id: String(r.id),
      username: str(r.username),
      email: str(r.email),
      profilePicture: str(r.avatar_url),
      plan: (str(r.plan) ?? "none") as Sender["plan"],
    });
  }
  return map;
}

export function toChatMessage(row: Row, senders: Map<string, Sender>) {
  const senderId = String(row.sender_id);
  return {
    id: String(row.id),
    groupId: String(row.group_id),
    content: String(row.content),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    attachmentType: row.attachment_type === "gif" ? "gif" as const : "none" as const,
    attachmentUrl: str(row.attachment_url),
    sender: senders.get(senderId) ?? unknownSender(senderId),
  };
}

const groupParams = z.object({ id: uuid("The group id").describe("The group's id") });
const messageParams = z.object({ id: uuid("The message id").describe("The message's id") });

export function communityRoutes(deps: KitDeps): OpenAPIHono<ApiEnv> {
  const app = apiRouter();
  const guard = callerGuard(deps);

  route(app, {
    method: "get",
    path: "/groups",
    tag: "community",
    summary: "Your groups and the public groups you have not joined",
    access: "user",
    status: 200,
    response: s.groupsResult,
    guard,
  }, async (c) => {
    const { db, id } = callerOf(c);
    const [members, groups] = await Promise.all([
      db.from("group_members").select("group_id, role").eq("user_id", id),
      db.from("groups").select(GROUP_COLUMNS).order("created_at", { ascending: false }).limit(1000),
    ]);
    if (members.error) dbFail("reading memberships", members.error, { status: members.status });
    if (groups.error) dbFail("reading groups", groups.error, { status: groups.status });
    const roles = new Map((members.data ?? []).map((m) => [String(m.group_id), String(m.role)]));
    const userGroups = [];
    const publicGroups = [];
    for (const row of groups.data ?? []) {
      const role = roles.get(String(row.id)) ?? null;
      if (role) userGroups.push(toGroup(row, role));
      else if (row.is_public === true) publicGroups.push(toGroup(row, null));
    }
    return c.json({ userGroups, publicGroups });
  });

  route(app, {
    method: "post",
    path: "/groups",
    tag: "community",
    summary: "Create a group; you become its admin",
    access: "user",
    body: s.groupInput,
    status: 201,
    response: s.group,
    errors: [400, 403],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    const { data, error, status } = await caller.db.from("groups").insert({
      name: input.name.trim(),
      description: input.description?.trim() || null,
      is_public: input.isPublic,
      created_by: caller.id,
    }).select(GROUP_COLUMNS).single();
    if (error) {
      dbFail("creating a group", error, {
        status,
        fallback: error.code === "42501" ? "Your account cannot create groups." : undefined,
      });
    }
    return c.json(toGroup(data, "admin"), 201);
  });

  route(app, {
    method: "post",
    path: "/groups/{id}/join",
    tag: "community",
    summary: "Join a public group (joining twice is fine)",
    access: "user",
    params: groupParams,
    status: 200,
    response: s.group,
    errors: [400, 403, 404],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const gid = c.req.valid("param").id;
    const found = await caller.db.from("groups").select(GROUP_COLUMNS).eq("id", gid).maybeSingle();
    if (found.error) dbFail("reading the group", found.error, { status: found.status });
    if (!found.data) throw new HttpError(404, "not_found", "Group not found");
    const { error, status } = await caller.db.from("group_members").insert({
      group_id: gid,
      user_id: caller.id,
    });
    let role = "member";
    if (error?.code === "23505") {
      const m = await caller.db.from("group_members").select("role").eq("group_id", gid)
        .eq("user_id", caller.id).maybeSingle();
      role = String(m.data?.role ?? "member");
    } else if (error) {
      dbFail("joining a group", error, {
        status,
        fallback: "This group is private: you can join it only with an invitation.",
      });
    }
    return c.json(toGroup(found.data, role));
  });

  route(app, {
    method: "post",
    path: "/groups/{id}/leave",
    tag: "community",
    summary: "Leave a group",
    access: "user",
    params: groupParams,
    status: 200,
    response: s.ok,
    errors: [400, 404],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const gid = c.req.valid("param").id;
    const { data, error, status } = await caller.db.from("group_members").delete()
      .eq("group_id", gid).eq("user_id", caller.id).select("id");
    if (error) dbFail("leaving a group", error, { status });
    if (!data || data.length === 0) {
      throw new HttpError(404, "not_found", "You are not a member of this group.");
    }
    return c.json({ success: true as const });
  });

  // ---- chat --------------------------------------------------------------------------------
  route(app, {
    method: "get",
    path: "/chat/messages",
    tag: "chat",
    summary:
      `A group's messages, oldest first (the newest ${CHAT_PAGE}, or \`limit\`; \`before\` pages back)`,
    access: "user",
    query: s.groupQuery,
    status: 200,
    response: s.chatMessages,
    errors: [400, 403],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const q = c.req.valid("query");
    const senders = await groupSenders(caller.db, q.groupId);
    let query = caller.db.from("messages").select(MESSAGE_COLUMNS).eq("group_id", q.groupId);
    if (q.before) query = query.lt("created_at", q.before);
    const { data, error, status } = await query.order("created_at", { ascending: false })
      .order("id", { ascending: false }).limit(q.limit ?? CHAT_PAGE);
    if (error) dbFail("reading messages", error, { status });
    return c.json((data ?? []).reverse().map((r) => toChatMessage(r, senders)));
  });

  route(app, {
    method: "post",
    path: "/chat/messages",
    tag: "chat",
    summary: "Send a message to a group you belong to (text, optionally one GIF)",
    access: "user",
    body: s.messageInput,
    status: 201,
    response: s.chatMessage,
    errors: [400, 403],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    if (input.attachmentType === "gif" && !input.attachmentUrl) {
      throw new HttpError(
        400,
        "invalid_request",
        "A GIF message needs the GIF's URL (attachmentUrl).",
      );
    }
    if (input.attachmentType === "none" && input.attachmentUrl) {
      throw new HttpError(400, "invalid_request", 'Set attachmentType to "gif" to attach a GIF.');
    }
    const { data, error, status } = await caller.db.from("messages").insert({
      group_id: input.groupId,
      content: input.content,
      attachment_type: input.attachmentType,
      attachment_url: input.attachmentType === "gif" ? input.attachmentUrl : null,
    }).select(MESSAGE_COLUMNS).single();
    if (error) {
      dbFail("sending a message", error, {
        status,
        fallback: error.code === "42501" ? "Join the group to post in it." : undefined,
      });
    }
    const senders = await groupSenders(caller.db, input.groupId);
    return c.json(toChatMessage(data, senders), 201);
  });

  route(app, {
    method: "post",
    path: "/chat/upload-gif",
    tag: "chat",
    summary: "Upload a GIF to send in a group (image/gif by content, at most 2 MB)",
    access: "user",
    file: {
      field: "gif",
      description: "The GIF",
      fields: { groupId: "The group the GIF will be sent to (you must be a member)" },
    },
    status: 200,
    response: s.gifResult,
    errors: [400, 403, 413, 415],
    description:
      "The answer's attachmentUrl goes into POST /api/chat/messages with attachmentType gif. " +
      "The GIF lives in the private chat-gifs bucket: only the group's members can read it.",
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const upload = await readChatGifForm(c.req.raw);
    return c.json(await uploadChatGif(caller.db, { userId: caller.id, ...upload }));
  });

  /** Why a message could not be changed: someone else's (403) or not there (404). */
  async function refuseChange(db: Db, me: string, id: string, verb: string): Promise<never> {
    const { data } = await db.from("messages").select("sender_id").eq("id", id).maybeSingle();
    if (data && String(data.sender_id) !== me) {
      throw new HttpError(403, "forbidden", `You can only ${verb} your own messages.`);
    }
    throw new HttpError(404, "not_found", "Message not found");
  }

  route(app, {
    method: "patch",
    path: "/chat/messages/{id}",
    tag: "chat",
    summary: "Edit your own message",
    access: "user",
    params: messageParams,
    body: s.messageEditInput,
    status: 200,
    response: s.chatMessage,
    errors: [400, 403, 404],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const id = c.req.valid("param").id;
    const input = c.req.valid("json");
    const { data, error, status } = await caller.db.from("messages")
      .update({ content: input.content }).eq("id", id).select(MESSAGE_COLUMNS).maybeSingle();
    if (error) dbFail("editing a message", error, { status });
    if (!data) return await refuseChange(caller.db, caller.id, id, "edit");
    const senders = await groupSenders(caller.db, String(data.group_id));
    return c.json(toChatMessage(data, senders));
  });

  route(app, {
    method: "delete",
    path: "/chat/messages/{id}",
    tag: "chat",
    summary: "Delete your own message",
    access: "user",
    params: messageParams,
    status: 204,
    response: null,
    errors: [400, 403, 404],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const id = c.req.valid("param").id;
    const { data, error, status } = await caller.db.from("messages").delete().eq("id", id)
      .select("id");
    if (error) dbFail("deleting a message", error, { status });
    if (!data || data.length === 0) return await refuseChange(caller.db, caller.id, id, "delete");
    return c.body(null, 204);
  });

  route(app, {
    method: "post",
    path: "/users/block",
    tag: "chat",
    summary: "Block a user: their messages are hidden from you (blocking twice is fine)",
    access: "user",
    body: s.blockInput,
    status: 200,
    response: s.ok,
    errors: [400, 403, 404],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    if (input.userId === caller.id) {
      throw new HttpError(400, "invalid_request", "You cannot block yourself.");
    }
    const { error, status } = await caller.db.from("user_blocks").insert({
      blocked_id: input.userId,
    });
    if (error && error.code !== "23505") {
      dbFail("blocking a user", error, {
        status,
        notFound: "User not found",
        fallback: error.code === "42501" ? "Your account cannot block users." : undefined,
      });
    }
    return c.json({ success: true as const });
  });

  return app;
}
