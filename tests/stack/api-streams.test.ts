// The /api layer's live streams against the real stack (PGlite and PostgreSQL): the chat and
// support streams opened with the cookie session, their event shapes, an id on every event,
// resume with Last-Event-ID after a disconnect, and refusals as JSON before any streaming.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as s from "../../supabase/functions/api/schemas.ts";
import {
  call,
  cookieLogin,
  type CookieJar,
  expectError,
  expectJson,
  freshUser,
  type OpenStream,
  openStream,
} from "../support/api.ts";

type Msg = {
  type: string;
  id?: string;
  content?: string;
  messageId?: string;
  isAdminReply?: boolean;
};
const data = (e: { data: unknown }) => e.data as Msg;

let a: Awaited<ReturnType<typeof freshUser>>;
let b: Awaited<ReturnType<typeof freshUser>>;
let outsider: Awaited<ReturnType<typeof freshUser>>;
let admin: CookieJar;
let groupId: string;
const open: OpenStream[] = [];

beforeAll(async () => {
  [a, b, outsider, admin] = await Promise.all([
    freshUser("sa"),
    freshUser("sb"),
    freshUser("so"),
    cookieLogin("admin@demo.local"),
  ]);
  const g = await expectJson(
    await call("/groups", { auth: { jar: a.jar }, body: { name: "Stream room" } }),
    201,
    s.group,
  );
  groupId = g.id;
  await call(`/groups/${groupId}/join`, { method: "POST", auth: { jar: b.jar } });
});
afterAll(() => {
  for (const st of open) st.close();
});

async function stream(path: string, jar: CookieJar, headers: Record<string, string> = {}) {
  const st = await openStream(path, { auth: { jar }, headers });
  open.push(st);
  return st;
}

describe("/api/chat/stream", () => {
  it("connected, then new, edited and deleted messages, each with an id", async () => {
    const st = await stream(`/chat/stream?groupId=${groupId}`, a.jar);
    expect(st.res.status).toBe(200);
    expect(st.res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const connected = await st.next((e) => data(e)?.type === "connected");
    expect(connected.id).toMatch(/^\d+$/);
    expect(connected.retry).toBeGreaterThan(0);

    const sent = await expectJson(
      await call("/chat/messages", {
        auth: { jar: b.jar },
        body: { groupId, content: "live hello" },
      }),
      201,
      s.chatMessage,
    );
    const added = await st.next((e) => data(e)?.type === "message");
    expect(added.data).toMatchObject({ id: sent.id, content: "live hello", sender: { id: b.id } });
    expect(added.id).toMatch(/^\d+$/);

    await call(`/chat/messages/${sent.id}`, {
      method: "PATCH",
      auth: { jar: b.jar },
      body: { content: "live edited" },
    });
    const updated = await st.next((e) => data(e)?.type === "update");
    expect(updated.data).toMatchObject({ id: sent.id, content: "live edited" });

    await call(`/chat/messages/${sent.id}`, { method: "DELETE", auth: { jar: b.jar } });
    const deleted = await st.next((e) => data(e)?.type === "delete");
    expect(deleted.data).toEqual({ type: "delete", messageId: sent.id });
    st.close();
  });

  it("resumes after a disconnect: Last-Event-ID replays what was missed", async () => {
    const first = await stream(`/chat/stream?groupId=${groupId}`, a.jar);
    await first.next((e) => data(e)?.type === "connected");
    const last = first.lastId()!;
    first.close();
    const missed = await expectJson(
      await call("/chat/messages", {
        auth: { jar: b.jar },
        body: { groupId, content: "while you were away" },
      }),
      201,
      s.chatMessage,
    );
    const again = await stream(`/chat/stream?groupId=${groupId}`, a.jar, { "last-event-id": last });
    const replayed = await again.next(
      (e) => data(e)?.type === "message" && data(e).id === missed.id,
    );
    expect(data(replayed).content).toBe("while you were away");
    again.close();
  });

  it("refuses non-members (403), bad ids (400) and logged-out callers (401) as JSON", async () => {
    await expectError(
      (await openStream(`/chat/stream?groupId=${groupId}`, { auth: { jar: outsider.jar } })).res,
      403,
      "forbidden",
    );
    await expectError(
      (await openStream("/chat/stream?groupId=nope", { auth: { jar: a.jar } })).res,
      400,
      "invalid_request",
    );
    await expectError(
      (await openStream(`/chat/stream?groupId=${groupId}`)).res,
      401,
      "unauthorized",
    );
  });
});

describe("/api/support/stream", () => {
  it("the owner receives the admin's reply and the status change", async () => {
    const t = await expectJson(
      await call("/support/tickets", {
        auth: { jar: a.jar },
        body: { subject: "Stream ticket", content: "Please answer live." },
      }),
      201,
      s.ticket,
    );
    const st = await stream(`/support/stream?ticketId=${t.id}`, a.jar);
    await st.next((e) => data(e)?.type === "connected");
    await call(`/support/tickets/${t.id}/messages`, {
      auth: { jar: admin },
      body: { content: "Answered live." },
    });
    const reply = await st.next((e) => data(e)?.type === "message");
    expect(reply.data).toMatchObject({ content: "Answered live.", isAdminReply: true });
    expect(reply.id).toMatch(/^\d+$/);
    await call(`/support/tickets/${t.id}`, {
      method: "PATCH",
      auth: { jar: admin },
      body: { status: "closed" },
    });
    const status = await st.next((e) => e.event === "status");
    expect(status.data).toMatchObject({ ticketId: t.id, status: "closed" });
    st.close();
    await expectError(
      (await openStream(`/support/stream?ticketId=${t.id}`, { auth: { jar: b.jar } })).res,
      404,
      "not_found",
    );
  });
});
