// Contract of the /api layer's groups and chat routes against the real stack (PGlite and
// PostgreSQL): the group lists, create, join, leave, messages (list, send, edit, delete) with
// their sender, blocking — shapes, statuses and errors, by cookie and by bearer.
import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import * as s from "../../supabase/functions/api/schemas.ts";
import {
  bearerOf,
  call,
  type CookieJar,
  expectError,
  expectJson,
  freshUser,
} from "../support/api.ts";
import { serviceClient, stackInfo } from "../support/clients.ts";

let owner: Awaited<ReturnType<typeof freshUser>>;
let member: Awaited<ReturnType<typeof freshUser>>;
let outsider: Awaited<ReturnType<typeof freshUser>>;
let groupId: string;
let privateId: string;

beforeAll(async () => {
  [owner, member, outsider] = await Promise.all([
    freshUser("own"),
    freshUser("mem"),
    freshUser("out"),
  ]);
  await call("/user/profile", {
    method: "PATCH",
    auth: { jar: owner.jar },
    body: { username: `own_${Date.now().toString(36)}` },
  });
});

const post = (jar: CookieJar, path: string, body?: unknown) =>
  call(path, { method: "POST", auth: { jar }, body });

describe("/api/groups", () => {
  it("create: 201 with the creator as admin; bad names are 400; logged out is 401", async () => {
    const g = await expectJson(
      await post(owner.jar, "/groups", {
        name: "  API testers ",
        description: "contract",
        isPublic: true,
      }),
      201,
      s.group,
    );
    expect(g).toMatchObject({
      name: "API testers",
      description: "contract",
      isPublic: true,
      role: "admin",
    });
    groupId = g.id;
    const p = await expectJson(
      await post(owner.jar, "/groups", { name: "Hidden room", isPublic: false }),
      201,
      s.group,
    );
    privateId = p.id;
    await expectError(await post(owner.jar, "/groups", { name: "ab" }), 400, "invalid_request");
    await expectError(
      await post(owner.jar, "/groups", { name: "Long desc", description: "x".repeat(201) }),
      400,
      "invalid_request",
    );
    await expectError(await call("/groups", { body: { name: "Anonymous" } }), 401, "unauthorized");
  });

  it("lists: your groups and the public groups you have not joined", async () => {
    const mine = await expectJson(
      await call("/groups", { auth: { jar: owner.jar } }),
      200,
      s.groupsResult,
    );
    expect(mine.userGroups.map((g) => g.id)).toEqual(expect.arrayContaining([groupId, privateId]));
    expect(mine.publicGroups.map((g) => g.id)).not.toContain(groupId);
    const theirs = await expectJson(
      await call("/groups", { auth: { jar: outsider.jar } }),
      200,
      s.groupsResult,
    );
    expect(theirs.publicGroups.map((g) => g.id)).toContain(groupId);
    expect([...theirs.publicGroups, ...theirs.userGroups].map((g) => g.id)).not.toContain(
      privateId,
    );
  });

  it("join and leave: public groups only, idempotent join, 404 for unknown groups and non-members", async () => {
    const joined = await expectJson(
      await post(member.jar, `/groups/${groupId}/join`),
      200,
      s.group,
    );
    expect(joined.role).toBe("member");
    await expectJson(await post(member.jar, `/groups/${groupId}/join`), 200, s.group);
    await expectError(await post(outsider.jar, `/groups/${privateId}/join`), 404, "not_found");
    await expectError(
      await post(outsider.jar, "/groups/00000000-0000-4000-8000-000000000000/join"),
      404,
      "not_found",
    );
    await expectError(await post(outsider.jar, "/groups/not-a-uuid/join"), 400, "invalid_request");
    await expectJson(await post(outsider.jar, `/groups/${groupId}/join`), 200, s.group);
    await expectJson(await post(outsider.jar, `/groups/${groupId}/leave`), 200, s.ok);
    await expectError(await post(outsider.jar, `/groups/${groupId}/leave`), 404, "not_found");
  });
});

describe("/api/chat", () => {
  let messageId: string;

  it("send: 201 with the sender; non-members 403; invalid content 400", async () => {
    const m = await expectJson(
      await post(owner.jar, "/chat/messages", { groupId, content: "Hello from the api" }),
      201,
      s.chatMessage,
    );
    expect(m).toMatchObject({
      groupId,
      content: "Hello from the api",
      attachmentType: "none",
      attachmentUrl: null,
    });
    expect(m.sender).toMatchObject({ id: owner.id, email: owner.email, plan: "none" });
    expect(m.sender.username).toMatch(/^own_/);
    messageId = m.id;
    const gif = await expectJson(
      await post(member.jar, "/chat/messages", {
        groupId,
        content: "look",
        attachmentType: "gif",
        attachmentUrl: "https://media.example/cat.gif",
      }),
      201,
      s.chatMessage,
    );
    expect(gif.attachmentType).toBe("gif");
    await expectError(
      await post(outsider.jar, "/chat/messages", { groupId, content: "let me in" }),
      403,
      "forbidden",
    );
    await expectError(
      await post(owner.jar, "/chat/messages", { groupId, content: "   " }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(owner.jar, "/chat/messages", { groupId, content: "x".repeat(2001) }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(owner.jar, "/chat/messages", { groupId, content: "a", attachmentType: "gif" }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(owner.jar, "/chat/messages", { groupId: "nope", content: "a" }),
      400,
      "invalid_request",
    );
  });

  it("list: oldest first with senders; other members' e-mails stay private; non-members 403", async () => {
    const list = await expectJson(
      await call(`/chat/messages?groupId=${groupId}`, { auth: await bearerOf("free@demo.local") }),
      403,
    );
    expect(list).toMatchObject({ code: "forbidden" });
    const seen = await expectJson(
      await call(`/chat/messages?groupId=${groupId}`, { auth: { jar: member.jar } }),
      200,
      s.chatMessages,
    );
    expect(seen.map((m) => m.content)).toEqual(["Hello from the api", "look"]);
    expect(seen[0]!.sender.email).toBeNull();
    expect(seen[1]!.sender.email).toBe(member.email);
    const page = await expectJson(
      await call(`/chat/messages?groupId=${groupId}&limit=1`, { auth: { jar: member.jar } }),
      200,
      s.chatMessages,
    );
    expect(page.map((m) => m.content)).toEqual(["look"]);
    await expectError(
      await call("/chat/messages", { auth: { jar: member.jar } }),
      400,
      "invalid_request",
    );
  });

  it("edit and delete: own messages only (403 for others', 404 for unknown)", async () => {
    const edited = await expectJson(
      await call(`/chat/messages/${messageId}`, {
        method: "PATCH",
        auth: { jar: owner.jar },
        body: { content: "Edited" },
      }),
      200,
      s.chatMessage,
    );
    expect(edited.content).toBe("Edited");
    expect(Date.parse(edited.updatedAt)).toBeGreaterThanOrEqual(Date.parse(edited.createdAt));
    await expectError(
      await call(`/chat/messages/${messageId}`, {
        method: "PATCH",
        auth: { jar: member.jar },
        body: { content: "mine now" },
      }),
      403,
      "forbidden",
    );
    await expectError(
      await call(`/chat/messages/${messageId}`, {
        method: "PATCH",
        auth: { jar: owner.jar },
        body: { content: " " },
      }),
      400,
      "invalid_request",
    );
    await expectError(
      await call(`/chat/messages/${messageId}`, { method: "DELETE", auth: { jar: member.jar } }),
      403,
      "forbidden",
    );
    const del = await call(`/chat/messages/${messageId}`, {
      method: "DELETE",
      auth: { jar: owner.jar },
    });
    expect(del.status).toBe(204);
    await expectError(
      await call(`/chat/messages/${messageId}`, { method: "DELETE", auth: { jar: owner.jar } }),
      404,
      "not_found",
    );
  });

  it("block: hides the blocked user's messages from the blocker; self-block 400; unknown user 404", async () => {
    await expectJson(
      await post(member.jar, "/chat/messages", { groupId, content: "from member" }),
      201,
      s.chatMessage,
    );
    await expectJson(await post(owner.jar, "/users/block", { userId: member.id }), 200, s.ok);
    await expectJson(await post(owner.jar, "/users/block", { userId: member.id }), 200, s.ok);
    const seen = await expectJson(
      await call(`/chat/messages?groupId=${groupId}`, { auth: { jar: owner.jar } }),
      200,
      s.chatMessages,
    );
    expect(seen.some((m) => m.sender.id === member.id)).toBe(false);
    await expectError(
      await post(owner.jar, "/users/block", { userId: owner.id }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(owner.jar, "/users/block", { userId: "00000000-0000-4000-8000-000000000000" }),
      404,
      "not_found",
    );
    await expectError(
      await post(owner.jar, "/users/block", { userId: "x" }),
      400,
      "invalid_request",
    );
    const { data } = await serviceClient()
      .from("user_blocks")
      .select("blocked_id")
      .eq("blocker_id", owner.id);
    expect(data).toEqual([{ blocked_id: member.id }]);
  });
});

describe("a banned account (bearer token)", () => {
  it("writes nothing: groups, messages, tickets, blocks and settings are refused with 403", async () => {
    const banned = await bearerOf("banned@demo.local");
    const gid = groupId;
    await expectError(
      await call("/groups", { auth: banned, body: { name: "Banned group" } }),
      403,
      "forbidden",
    );
    await expectError(
      await call(`/groups/${gid}/join`, { method: "POST", auth: banned }),
      404,
      "not_found",
    );
    await expectError(
      await call("/chat/messages", { auth: banned, body: { groupId: gid, content: "hi" } }),
      403,
      "forbidden",
    );
    await expectError(
      await call("/support/tickets", {
        auth: banned,
        body: { subject: "Let me back", content: "Please unban me now." },
      }),
      403,
      "forbidden",
    );
    await expectError(
      await call("/users/block", { auth: banned, body: { userId: owner.id } }),
      403,
      "forbidden",
    );
    await expectError(
      await call("/user/settings", { method: "PATCH", auth: banned, body: { userThreshold: 20 } }),
      403,
      "banned",
    );
    const me = await expectJson(await call("/user/me", { auth: banned }), 200, s.currentUser);
    expect(me.banned).toBe(true);
  });
});

describe("/api/chat/upload-gif", () => {
  const GIF = new Uint8Array([
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0x80, 0, 0, 0xff, 0xff, 0xff, 0, 0, 0, 0x21,
    0xf9, 4, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3b,
  ]);
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  const form = (bytes: Uint8Array, group: string | null) => {
    const f = new FormData();
    f.set("gif", new Blob([bytes as BlobPart], { type: "image/gif" }), "party.gif");
    if (group !== null) f.set("groupId", group);
    return f;
  };
  const upload = (jar: CookieJar | null, body: FormData, headers?: Record<string, string>) =>
    call("/chat/upload-gif", { method: "POST", auth: jar ? { jar } : undefined, body, headers });

  /**
   * The same upload on a connection of its own, closed after the answer. A refusal that comes
   * before the body is read (no session, another site, a declared size over the limit) may be
   * followed by the stack closing the connection while the client still writes the body; through
   * fetch's pool that surfaced as `fetch failed (EPIPE)` instead of the answer (CI, twice). Here
   * the answer is read whatever happens to the rest of the body.
   */
  async function uploadAlone(
    jar: CookieJar | null,
    body: FormData,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    const encoded = new Response(body);
    const bytes = Buffer.from(await encoded.arrayBuffer());
    const { url } = stackInfo();
    return await new Promise<Response>((resolve, reject) => {
      let answered = false;
      const req = http.request(
        `${url}/api/chat/upload-gif`,
        {
          method: "POST",
          agent: false,
          headers: {
            "content-type": encoded.headers.get("content-type")!,
            "content-length": String(bytes.length),
            ...(jar ? { cookie: jar.header(), origin: url } : {}),
            connection: "close",
            ...headers,
          },
        },
        (res) => {
          answered = true;
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve(
              new Response(Buffer.concat(chunks), {
                status: res.statusCode,
                headers: { "content-type": String(res.headers["content-type"] ?? "") },
              }),
            ),
          );
          res.on("error", reject);
        },
      );
      // The stack may answer and close before the whole body is written: that is the point.
      req.on("error", (err: NodeJS.ErrnoException) => {
        if (err.code !== "EPIPE" && err.code !== "ECONNRESET") reject(err);
      });
      req.on("close", () => {
        if (!answered) reject(new Error("the stack closed the connection without an answer"));
      });
      req.end(bytes);
    });
  }

  it("a member's GIF is stored in the group's folder and sends with a message", async () => {
    const { attachmentUrl } = await expectJson(
      await upload(owner.jar, form(GIF, groupId)),
      200,
      s.gifResult,
    );
    expect(attachmentUrl).toMatch(
      new RegExp(
        `/storage/v1/object/authenticated/chat-gifs/${groupId}/${owner.id}/[0-9a-f-]{36}\\.gif$`,
      ),
    );
    const sent = await expectJson(
      await post(owner.jar, "/chat/messages", {
        groupId,
        content: "look",
        attachmentType: "gif",
        attachmentUrl,
      }),
      201,
      s.chatMessage,
    );
    expect(sent).toMatchObject({ attachmentType: "gif", attachmentUrl });
  });

  it("refuses non-members, other files, big files, a missing group and strangers", async () => {
    await expectError(await uploadAlone(outsider.jar, form(GIF, groupId)), 403, "not_a_member");
    await expectError(await uploadAlone(owner.jar, form(PNG, groupId)), 415, "invalid_file");
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(GIF);
    await expectError(await uploadAlone(owner.jar, form(big, groupId)), 413, "file_too_large");
    await expectError(await uploadAlone(owner.jar, form(GIF, null)), 400, "invalid_group");
    await expectError(await uploadAlone(null, form(GIF, groupId)), 401, "unauthorized");
    await expectError(
      await uploadAlone(owner.jar, form(GIF, groupId), { origin: "https://evil.example" }),
      403,
      "cross_site_request",
    );
  });
});
