// The admin panel's calls (specification section 7): users, alerts, stats, activity logs, live
// visitors, ban, unban, delete, plan, subscription, and self-promotion with the shared secret.
// The admin RPCs (migration 20261121000600) check the caller and log every action; reads of
// tables are answered by the admin policies. A non-admin is told so (403) rather than handed
// the empty lists the policies would give them.
import type { PostgrestError } from "@supabase/supabase-js";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Db } from "../_shared/clients.ts";
import { HttpError } from "../_shared/http.ts";
import {
  type ApiEnv,
  apiRouter,
  type Caller,
  callerGuard,
  callerOf,
  dbFail,
  type KitDeps,
  requireCaller,
  route,
  uuid,
} from "./kit.ts";
import * as s from "./schemas.ts";

type Row = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : null);
const num = (v: unknown) => Number(v ?? 0);

const adminRequired = () => new HttpError(403, "forbidden", "Admin access required");

async function requireAdmin(deps: KitDeps, req: Request): Promise<Caller> {
  const caller = await requireCaller(deps, req);
  const { data, error, status } = await caller.db.from("profiles").select("role, banned")
    .eq("id", caller.id).maybeSingle();
  if (error) dbFail("reading the profile", error, { status });
  if (!data || data.role !== "admin" || data.banned === true) throw adminRequired();
  return caller;
}

const userParams = z.object({ userId: uuid("The user id").describe("The user's id") });

export function adminRoutes(deps: KitDeps): OpenAPIHono<ApiEnv> {
  const app = apiRouter();
  const guard = callerGuard(deps);
  /** The caller, an admin who is not banned (else 403), before anything else is read. */
  const adminGuard: typeof guard = async (c, next) => {
    c.set("caller", await requireAdmin(deps, c.req.raw));
    await next();
  };

  route(app, {
    method: "get",
    path: "/admin/users",
    tag: "admin",
    summary: "Every user, newest first",
    access: "admin",
    status: 200,
    response: s.adminUsers,
    errors: [403],
    guard: adminGuard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.from("profiles")
      .select(
        "id, email, username, role, plan, subscription_active, banned, banned_reason, created_at, last_activity_at",
      )
      .order("created_at", { ascending: false }).limit(5000);
    if (error) dbFail("reading users", error, { status });
    return c.json((data ?? []).map((r) => ({
      id: String(r.id),
      email: str(r.email),
      username: str(r.username),
      role: r.role === "admin" ? "admin" : "user",
      plan: str(r.plan) ?? "none",
      subscriptionActive: r.subscription_active === true,
      banned: r.banned === true,
      bannedReason: str(r.banned_reason),
      createdAt: String(r.created_at),
      lastActivityAt: str(r.last_activity_at),
    })));
  });

  route(app, {
    method: "get",
    path: "/admin/alerts",
    tag: "admin",
    summary: "The latest 50 alerts sent",
    access: "admin",
    status: 200,
    response: s.alertRecords,
    errors: [403],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.rpc("admin_latest_alerts");
    if (error) dbFail("reading alerts", error, { status });
    return c.json((data ?? []).map((r) => ({
      id: String(r.id),
      symbol: String(r.symbol),
      exchange: str(r.exchange),
      pct: num(r.pct),
      price: r.price === null || r.price === undefined ? null : num(r.price),
      recipient: String(r.recipient),
      createdAt: String(r.created_at),
      symbols: Array.isArray(r.symbols) ? r.symbols.map(String) : [String(r.symbol)],
      symbolCount: Math.max(1, Math.trunc(num(r.symbol_count))),
    })));
  });

  route(app, {
    method: "get",
    path: "/admin/stats",
    tag: "admin",
    summary:
      "User, paying-subscription, online, signup, revenue (EUR/month, Stripe only), ban and complimentary-plan counts",
    access: "admin",
    status: 200,
    response: s.adminStats,
    errors: [403],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.rpc("admin_stats");
    if (error) dbFail("reading stats", error, { status });
    const r = (data ?? [])[0] ?? {};
    return c.json({
      totalUsers: num(r.total_users),
      activeSubscriptions: num(r.active_subscriptions),
      onlineUsers: num(r.online_users),
      recentSignups: num(r.recent_signups),
      totalRevenue: num(r.total_revenue),
      bannedUsers: num(r.banned_users),
      complimentarySubscriptions: num(r.complimentary_subscriptions),
      adminPlans: num(r.admin_plans),
    });
  });

  route(app, {
    method: "get",
    path: "/admin/activity-logs",
    tag: "admin",
    summary: "The latest 200 admin actions, newest first",
    access: "admin",
    status: 200,
    response: s.activityLogs,
    errors: [403],
    guard: adminGuard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.from("activity_logs")
      .select("id, admin_id, action, target_user_id, target_user_email, details, created_at")
      .order("created_at", { ascending: false }).limit(200);
    if (error) dbFail("reading activity logs", error, { status });
    return c.json((data ?? []).map((r) => ({
      id: String(r.id),
      action: String(r.action),
      adminId: str(r.admin_id),
      targetUserId: str(r.target_user_id),
      targetUserEmail: str(r.target_user_email),
      details: str(r.details),
      createdAt: String(r.created_at),
    })));
  });

  route(app, {
    method: "get",
    path: "/admin/live-visitors",
    tag: "admin",
    summary: "Users active in the last 5 minutes (the panel's Live Visitors tab)",
    access: "admin",
    status: 200,
    response: s.liveVisitors,
    errors: [403],
    guard,
  }, async (c) => {
    const { db } = callerOf(c);
    const { data, error, status } = await db.rpc("admin_live_visitors");
    if (error) dbFail("reading live visitors", error, { status });
    return c.json((data ?? []).map((r) => ({
      id: String(r.id),
      email: str(r.email),
      plan: str(r.plan) ?? "none",
      lastActivityAt: String(r.last_activity_at),
    })));
  });

  /** One admin action on a user through its RPC; answers `{ success: true }`. */
  function action<B extends s.AdminBody | undefined>(
    method: "post" | "patch" | "delete",
    path: string,
    summary: string,
    body: B,
    fn: string,
    call: (
      db: Db,
      input: B extends s.AdminBody ? z.output<B> : undefined,
      target: string,
    ) => PromiseLike<{ error: PostgrestError | null; status: number }>,
  ) {
    route(app, {
      method,
      path,
      tag: "admin",
      summary,
      access: "admin",
      params: userParams,
      ...(body ? { body: body as s.AdminBody } : {}),
      status: 200,
      response: s.ok,
      errors: [400, 403, 404, 409],
      guard,
    }, async (c) => {
      const { db } = callerOf(c);
      const target = c.req.valid("param").userId;
      const input = (body ? c.req.valid("json") : undefined) as Parameters<typeof call>[1];
      const { error, status } = await call(db, input, target);
      if (error) dbFail(fn, error, { status });
      return c.json({ success: true as const });
    });
  }

  action(
    "post",
    "/admin/users/{userId}/ban",
    "Ban a user (not an admin) with a reason",
    s.banInput,
    "admin_ban_user",
    (db, i, t) => db.rpc("admin_ban_user", { target: t, reason: i.reason.trim() }),
  );
  action(
    "post",
    "/admin/users/{userId}/unban",
    "Unban a user",
    undefined,
    "admin_unban_user",
    (db, _i, t) => db.rpc("admin_unban_user", { target: t }),
  );
  action(
    "delete",
    "/admin/users/{userId}",
    "Delete a user (not an admin) permanently",
    undefined,
    "admin_delete_user",
    (db, _i, t) => db.rpc("admin_delete_user", { target: t }),
  );
  action(
    "patch",
    "/admin/users/{userId}/plan",
    "Set a user's plan (not while banned)",
    s.planInput,
    "admin_set_plan",
    (db, i, t) => db.rpc("admin_set_plan", { target: t, new_plan: i.plan }),
  );
  action(
    "patch",
    "/admin/users/{userId}/subscription",
    "Set a user's subscription active or inactive (not while banned)",
    s.subscriptionInput,
    "admin_set_subscription",
    (db, i, t) => db.rpc("admin_set_subscription", { target: t, active: i.subscriptionActive }),
  );

  route(app, {
    method: "post",
    path: "/admin/promote-self",
    tag: "admin",
    summary: "Become admin (enterprise plan) with the shared secret",
    access: "user",
    body: s.promoteInput,
    status: 200,
    response: s.promoteResult,
    errors: [400, 403, 429],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    const { data, error, status } = await caller.db.rpc("promote_self", { secret: input.secret });
    if (error) dbFail("promote_self", error, { status });
    if (data === null || data === undefined) {
      throw new HttpError(403, "invalid_secret", "Invalid admin secret");
    }
    return c.json({
      success: true as const,
      user: { id: caller.id, role: "admin" as const, plan: String(data) },
    });
  });

  return app;
}
