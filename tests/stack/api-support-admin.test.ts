// Contract of the /api layer's support and admin routes against the real stack (PGlite and
// PostgreSQL): tickets (list, open, read, thread, reply, status), the admin panel's reads and
// actions, and self-promotion — shapes, statuses, errors, by cookie and by bearer.
import { beforeAll, describe, expect, inject, it } from "vitest";
import * as s from "../../supabase/functions/api/schemas.ts";
import {
  bearerOf,
  call,
  cookieLogin,
  type CookieJar,
  expectError,
  expectJson,
  freshUser,
} from "../support/api.ts";

let user: Awaited<ReturnType<typeof freshUser>>;
let other: Awaited<ReturnType<typeof freshUser>>;
let admin: CookieJar;
let ticketId: string;

beforeAll(async () => {
  [user, other, admin] = await Promise.all([
    freshUser("tick"),
    freshUser("other"),
    cookieLogin("admin@demo.local"),
  ]);
});

const post = (jar: CookieJar, path: string, body?: unknown) =>
  call(path, { method: "POST", auth: { jar }, body });

describe("/api/support", () => {
  it("open: 201 with a number; default priority medium; short subject or details 400", async () => {
    const t = await expectJson(
      await post(user.jar, "/support/tickets", {
        subject: "Cannot see movers",
        content: "The dashboard stays empty.",
      }),
      201,
      s.ticket,
    );
    expect(t).toMatchObject({ priority: "medium", status: "open", userId: user.id });
    expect(t.ticketNumber).toBeGreaterThanOrEqual(1001);
    ticketId = t.id;
    await expectError(
      await post(user.jar, "/support/tickets", {
        subject: "Hi",
        content: "The dashboard stays empty.",
      }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(user.jar, "/support/tickets", { subject: "Subject ok", content: "short" }),
      400,
      "invalid_request",
    );
    await expectError(
      await post(user.jar, "/support/tickets", {
        subject: "Subject ok",
        content: "Long enough text",
        priority: "asap",
      }),
      400,
      "invalid_request",
    );
    await expectError(
      await call("/support/tickets", {
        body: { subject: "Subject ok", content: "Long enough text" },
      }),
      401,
      "unauthorized",
    );
  });

  it("read: owners and admins; others get 404", async () => {
    const own = await expectJson(
      await call("/support/tickets", { auth: { jar: user.jar } }),
      200,
      s.tickets,
    );
    expect(own.map((t) => t.id)).toEqual([ticketId]);
    const all = await expectJson(
      await call("/support/tickets", { auth: { jar: admin } }),
      200,
      s.tickets,
    );
    expect(all.map((t) => t.id)).toContain(ticketId);
    expect(
      await expectJson(
        await call("/support/tickets", { auth: { jar: other.jar } }),
        200,
        s.tickets,
      ),
    ).toEqual([]);
    await expectJson(
      await call(`/support/tickets/${ticketId}`, { auth: { jar: user.jar } }),
      200,
      s.ticket,
    );
    await expectError(
      await call(`/support/tickets/${ticketId}`, { auth: { jar: other.jar } }),
      404,
      "not_found",
    );
    await expectError(
      await call("/support/tickets/nope", { auth: { jar: user.jar } }),
      400,
      "invalid_request",
    );
  });

  it("thread: replies by owner and admin, isAdminReply set by the database; strangers 404", async () => {
    const mine = await expectJson(
      await post(user.jar, `/support/tickets/${ticketId}/messages`, { content: "Any news?" }),
      201,
      s.ticketMessage,
    );
    expect(mine.isAdminReply).toBe(false);
    expect(mine.sender).toMatchObject({ id: user.id, email: user.email });
    const reply = await expectJson(
      await post(admin, `/support/tickets/${ticketId}/messages`, { content: "Looking into it." }),
      201,
      s.ticketMessage,
    );
    expect(reply.isAdminReply).toBe(true);
    const thread = await expectJson(
      await call(`/support/tickets/${ticketId}/messages`, { auth: { jar: user.jar } }),
      200,
      s.ticketMessages,
    );
    expect(thread.map((m) => [m.content, m.isAdminReply])).toEqual([
      ["Any news?", false],
      ["Looking into it.", true],
    ]);
    expect(thread[1]!.sender.email).toBeNull(); // the admin's e-mail stays private
    await expectError(
      await post(other.jar, `/support/tickets/${ticketId}/messages`, { content: "me too" }),
      404,
      "not_found",
    );
    await expectError(
      await call(`/support/tickets/${ticketId}/messages`, { auth: { jar: other.jar } }),
      404,
      "not_found",
    );
    await expectError(
      await post(user.jar, `/support/tickets/${ticketId}/messages`, { content: "" }),
      400,
      "invalid_request",
    );
  });

  it("status: admins only; a closed ticket refuses replies with 409", async () => {
    await expectError(
      await call(`/support/tickets/${ticketId}`, {
        method: "PATCH",
        auth: { jar: user.jar },
        body: { status: "closed" },
      }),
      403,
      "forbidden",
    );
    await expectError(
      await call(`/support/tickets/${ticketId}`, {
        method: "PATCH",
        auth: { jar: admin },
        body: { status: "done" },
      }),
      400,
      "invalid_request",
    );
    const closed = await expectJson(
      await call(`/support/tickets/${ticketId}`, {
        method: "PATCH",
        auth: { jar: admin },
        body: { status: "closed" },
      }),
      200,
      s.ticket,
    );
    expect(closed.status).toBe("closed");
    await expectError(
      await post(user.jar, `/support/tickets/${ticketId}/messages`, { content: "Hello?" }),
      409,
      "conflict",
    );
    await expectError(
      await call("/support/tickets/00000000-0000-4000-8000-000000000000", {
        method: "PATCH",
        auth: { jar: admin },
        body: { status: "open" },
      }),
      404,
      "not_found",
    );
  });
});

describe("/api/admin", () => {
  it("reads: users, stats, activity logs, alerts, live visitors for admins; 403 for others; 401 logged out", async () => {
    const users = await expectJson(
      await call("/admin/users", { auth: { jar: admin } }),
      200,
      s.adminUsers,
    );
    expect(users.find((u) => u.id === user.id)).toMatchObject({
      email: user.email,
      role: "user",
      banned: false,
    });
    const stats = await expectJson(
      await call("/admin/stats", { auth: await bearerOf("admin@demo.local") }),
      200,
      s.adminStats,
    );
    expect(stats.totalUsers).toBeGreaterThanOrEqual(users.length > 0 ? 1 : 0);
    expect(stats.onlineUsers).toBeGreaterThanOrEqual(1); // the admin was just seen
    await expectJson(
      await call("/admin/activity-logs", { auth: { jar: admin } }),
      200,
      s.activityLogs,
    );
    await expectJson(await call("/admin/alerts", { auth: { jar: admin } }), 200, s.alertRecords);
    await expectJson(
      await call("/admin/live-visitors", { auth: { jar: admin } }),
      200,
      s.liveVisitors,
    );
    for (const path of [
      "/admin/users",
      "/admin/stats",
      "/admin/activity-logs",
      "/admin/alerts",
      "/admin/live-visitors",
    ]) {
      const refused = await expectError(
        await call(path, { auth: { jar: user.jar } }),
        403,
        "forbidden",
      );
      expect(refused.error).toBe("Admin access required");
      await expectError(await call(path), 401, "unauthorized");
    }
  });

  it("actions: plan, subscription, ban (reason needed), unban, delete — logged; admins cannot be banned", async () => {
    const target = await freshUser("target");
    const act = (method: string, path: string, body?: unknown, jar: CookieJar = admin) =>
      call(`/admin/users/${target.id}${path}`, { method, auth: { jar }, body });
    await expectJson(await act("PATCH", "/plan", { plan: "pro" }), 200, s.ok);
    await expectJson(await act("PATCH", "/subscription", { subscriptionActive: true }), 200, s.ok);
    const me = await expectJson(
      await call("/user/me", { auth: { jar: target.jar } }),
      200,
      s.currentUser,
    );
    expect(me).toMatchObject({ plan: "pro", subscriptionActive: true });
    await expectError(await act("PATCH", "/plan", { plan: "gold" }), 400, "invalid_request");
    await expectError(await act("PATCH", "/plan", { plan: "pro" }, user.jar), 403, "forbidden");
    const short = await expectError(
      await act("POST", "/ban", { reason: "bad" }),
      400,
      "invalid_request",
    );
    expect(short.error).toBe("Ban reason must be at least 5 characters long.");
    await expectJson(await act("POST", "/ban", { reason: "Spamming the chat" }), 200, s.ok);
    await expectError(await act("PATCH", "/plan", { plan: "basic" }), 409, "conflict");
    await expectJson(await act("POST", "/unban"), 200, s.ok);
    const logs = await expectJson(
      await call("/admin/activity-logs", { auth: { jar: admin } }),
      200,
      s.activityLogs,
    );
    expect(logs.filter((l) => l.targetUserId === target.id).map((l) => l.action)).toEqual(
      expect.arrayContaining(["set_plan", "set_subscription", "ban_user", "unban_user"]),
    );
    const admins = (
      await expectJson(await call("/admin/users", { auth: { jar: admin } }), 200, s.adminUsers)
    ).filter((u) => u.role === "admin");
    await expectError(
      await call(`/admin/users/${admins[0]!.id}/ban`, {
        method: "POST",
        auth: { jar: admin },
        body: { reason: "Trying it" },
      }),
      403,
      "forbidden",
    );
    await expectJson(await act("DELETE", ""), 200, s.ok);
    await expectError(await act("DELETE", ""), 404, "not_found");
    await expectError(
      await call("/admin/users/nope/unban", { method: "POST", auth: { jar: admin } }),
      400,
      "invalid_request",
    );
  });

  it("promote-self: a wrong secret is 403 with an error; an empty one 400; logged out 401", async () => {
    const wrong = await expectError(
      await post(other.jar, "/admin/promote-self", { secret: "not-the-secret" }),
      403,
      "invalid_secret",
    );
    expect(wrong.error).toBe("Invalid admin secret");
    const empty = await expectError(
      await post(other.jar, "/admin/promote-self", { secret: "  " }),
      400,
      "invalid_request",
    );
    expect(empty.error).toMatch(/Please enter the admin secret/);
    await expectError(
      await call("/admin/promote-self", { body: { secret: "x" } }),
      401,
      "unauthorized",
    );
  });

  it("promote-self with the right secret answers user.plan", async () => {
    const fresh = await freshUser("promote");
    const body = await expectJson(
      await post(fresh.jar, "/admin/promote-self", { secret: inject("stack").adminSecret }),
      200,
      s.promoteResult,
    );
    expect(body.user).toMatchObject({ id: fresh.id, role: "admin", plan: "enterprise" });
  });
});
