// Accounts (specification section 7): log in, register, log out, the current user, settings,
// profile, username check, avatar upload and checkout. Log in sets the cookie session
// (session.ts); every other route takes the cookie or a bearer token. Reads and writes go
// through the caller's token: the profile policies, column privileges and plan triggers decide.
import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { Db, TableRow } from "../_shared/clients.ts";
import type { TablesUpdate } from "../_shared/database.types.ts";
import { uploadAvatar } from "../_shared/avatar-upload.ts";
import { type AvatarStoreFactory, defaultAvatarStore } from "../_shared/avatars.ts";
import { requireEnv } from "../_shared/env.ts";
import { HttpError } from "../_shared/http.ts";
import { API_NOT_CONFIGURED } from "./errors.ts";
import {
  type ApiEnv,
  apiRouter,
  callerClient,
  callerGuard,
  callerOf,
  dbFail,
  type KitDeps,
  route,
} from "./kit.ts";
import * as s from "./schemas.ts";

export interface AccountDeps extends KitDeps {
  avatarStore?: AvatarStoreFactory;
  now?: () => number;
  /** Calls another function of the project (checkout); default: fetch to SUPABASE_URL. */
  fetchFunction?: (name: string, init: RequestInit) => Promise<Response>;
}

const PROFILE_COLUMNS =
  "id, email, username, avatar_url, role, plan, subscription_active, banned, selected_window_minutes, user_threshold, email_alert, selected_exchanges, discord_webhook_url, telegram_chat_id, created_at";

type ProfileRow = Pick<
  TableRow<"profiles">,
  | "id"
  | "email"
  | "username"
  | "avatar_url"
  | "role"
  | "plan"
  | "subscription_active"
  | "banned"
  | "selected_window_minutes"
  | "user_threshold"
  | "email_alert"
  | "selected_exchanges"
  | "discord_webhook_url"
  | "telegram_chat_id"
  | "created_at"
>;

const str = (v: unknown) => (typeof v === "string" ? v : null);

export function toCurrentUser(row: ProfileRow) {
  return {
    id: String(row.id),
    email: str(row.email),
    username: str(row.username),
    profilePicture: str(row.avatar_url),
    role: row.role === "admin" ? "admin" as const : "user" as const,
    plan: (str(row.plan) ?? "none") as "none" | "basic" | "pro" | "enterprise",
    subscriptionActive: row.subscription_active === true,
    banned: row.banned === true,
    selectedWindowMinutes: Number(row.selected_window_minutes),
    userThreshold: Number(row.user_threshold),
    emailAlert: str(row.email_alert),
    selectedExchanges: Array.isArray(row.selected_exchanges)
      ? row.selected_exchanges.map(String)
      : [],
    discordWebhookUrl: str(row.discord_webhook_url),
    telegramChatId: str(row.telegram_chat_id),
    createdAt: String(row.created_at),
  };
}

export function toProfile(row: ProfileRow) {
  const u = toCurrentUser(row);
  return {
    id: u.id,
    username: u.username,
    profilePicture: u.profilePicture,
    email: u.email,
    plan: u.plan,
    subscriptionActive: u.subscriptionActive,
  };
}

export async function readOwnProfile(db: Db, userId: string): Promise<ProfileRow> {
  const { data, error, status } = await db.from("profiles").select(PROFILE_COLUMNS).eq("id", userId)
    .maybeSingle();
  if (error) dbFail("reading the profile", error, { status });
  if (!data) throw new HttpError(401, "unauthorized", "Your account no longer exists.");
  return data;
}

const banned = () => new HttpError(403, "banned", "Your account is banned.");

/** check-username answers an invalid candidate as unavailable (200), so any string routes. */
const usernameParams = z.object({
  username: z.string().describe("The candidate, 3-30 letters, digits or underscores"),
});

export function accountRoutes(deps: AccountDeps): OpenAPIHono<ApiEnv> {
  const { env } = deps;
  const app = apiRouter();
  const guard = callerGuard(deps);
  const makeAvatarStore = deps.avatarStore ?? defaultAvatarStore;
  const now = deps.now ?? Date.now;
  const fetchFunction = deps.fetchFunction ?? ((name: string, init: RequestInit) => {
    const vars = requireEnv(env, ["SUPABASE_URL"], API_NOT_CONFIGURED);
    return fetch(`${vars.SUPABASE_URL.replace(/\/+$/, "")}/functions/v1/${name}`, init);
  });

  // ---- auth --------------------------------------------------------------------------------
  route(app, {
    method: "post",
    path: "/auth/login",
    tag: "auth",
    summary: "Log in; sets the session cookie (httpOnly, SameSite=Lax, @supabase/ssr format)",
    access: "public",
    body: s.loginInput,
    status: 200,
    response: s.loginResult,
    errors: [400, 403, 429],
  }, async (c) => {
    const input = c.req.valid("json");
    // Signed in through the cookie client: the session becomes the cookie (session.ts).
    const session = deps.session(c.req.raw);
    const { data, error } = await session.signIn(input);
    if (error || !data.session) {
      if (error?.status === 429) {
        throw new HttpError(429, "too_many_requests", "Too many attempts. Please try again later.");
      }
      if (error?.code === "email_not_confirmed") {
        throw new HttpError(
          403,
          "email_not_confirmed",
          "Please confirm your e-mail address first.",
        );
      }
      if (error && error.status !== undefined && error.status >= 500) throw error;
      throw new HttpError(401, "invalid_credentials", "Invalid email or password");
    }
    const db = callerClient(env, data.session.access_token, c.req.raw);
    const row = await readOwnProfile(db, data.user.id);
    if (row.banned === true) {
      session.discard();
      await callerClient(env, null, c.req.raw).auth.admin.signOut(
        data.session.access_token,
        "local",
      )
        .catch(() => {});
      throw banned();
    }
    await db.rpc("touch_activity");
    return c.json({ user: toCurrentUser(row) });
  });

  route(app, {
    method: "post",
    path: "/auth/register",
    tag: "auth",
    summary: "Create an account (log in afterwards)",
    access: "public",
    body: s.registerInput,
    status: 201,
    response: s.registerResult,
    errors: [400, 409, 429],
  }, async (c) => {
    const input = c.req.valid("json");
    const auth = callerClient(env, null, c.req.raw).auth;
    const { data, error } = await auth.signUp(input);
    if (error || !data.user) {
      if (error?.status === 429) {
        throw new HttpError(429, "too_many_requests", "Too many attempts. Please try again later.");
      }
      if (
        error?.code === "user_already_exists" || error?.code === "email_exists" ||
        /already registered/i.test(error?.message ?? "")
      ) {
        throw new HttpError(409, "email_taken", "Email already taken or invalid");
      }
      if (error && error.status !== undefined && error.status < 500) {
        throw new HttpError(
          400,
          "invalid_request",
          error.message || "Email already taken or invalid",
        );
      }
      throw error ?? new Error("sign-up returned no user");
    }
    // The session sign-up may return is not kept: the client logs in next (specification).
    if (data.session) await auth.admin.signOut(data.session.access_token, "local").catch(() => {});
    return c.json({
      user: { id: data.user.id, email: data.user.email ?? null },
      confirmationRequired: !data.session,
    }, 201);
  });

  route(app, {
    method: "post",
    path: "/auth/logout",
    tag: "auth",
    summary: "Log out: ends the session at Auth and clears the cookie",
    access: "public",
    status: 200,
    response: s.ok,
  }, async (c) => {
    await deps.session(c.req.raw).signOut();
    return c.json({ success: true as const });
  });

  for (const path of ["/auth/me", "/user/me"]) {
    route(app, {
      method: "get",
      path,
      tag: path.startsWith("/auth") ? "auth" : "user",
      summary: "The current user",
      access: "user",
      status: 200,
      response: s.currentUser,
      guard,
    }, async (c) => {
      const caller = callerOf(c);
      const row = await readOwnProfile(caller.db, caller.id);
      // The admin panel's "Online Now" counts users seen in the last 5 minutes.
      await caller.db.rpc("touch_activity");
      return c.json(toCurrentUser(row));
    });
  }

  // ---- user --------------------------------------------------------------------------------
  route(app, {
    method: "patch",
    path: "/user/settings",
    tag: "user",
    summary: "Change alert settings (any subset); the plan's window and e-mail rules apply",
    access: "user",
    body: s.settingsInput,
    status: 200,
    response: s.currentUser,
    errors: [400, 403],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    const update: TablesUpdate<"profiles"> = {};
    if (input.selectedWindowMinutes !== undefined) {
      update.selected_window_minutes = input.selectedWindowMinutes;
    }
    if (input.userThreshold !== undefined) update.user_threshold = input.userThreshold;
    if (input.emailAlert !== undefined) update.email_alert = input.emailAlert || null;
    if (input.selectedExchanges !== undefined) update.selected_exchanges = input.selectedExchanges;
    if (input.discordWebhookUrl !== undefined) {
      update.discord_webhook_url = input.discordWebhookUrl || null;
    }
    if (input.telegramChatId !== undefined) update.telegram_chat_id = input.telegramChatId || null;
    if (Object.keys(update).length === 0) {
      return c.json(toCurrentUser(await readOwnProfile(caller.db, caller.id)));
    }
    const { data, error, status } = await caller.db.from("profiles").update(update)
      .eq("id", caller.id).select(PROFILE_COLUMNS).maybeSingle();
    if (error) dbFail("saving settings", error, { status, fallback: "Failed to save settings." });
    if (!data) throw banned();
    return c.json(toCurrentUser(data));
  });

  route(app, {
    method: "get",
    path: "/user/profile",
    tag: "user",
    summary: "The caller's profile",
    access: "user",
    status: 200,
    response: s.profile,
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    return c.json(toProfile(await readOwnProfile(caller.db, caller.id)));
  });

  route(app, {
    method: "patch",
    path: "/user/profile",
    tag: "user",
    summary: "Change the username (the picture is set by upload-avatar)",
    access: "user",
    body: s.profileInput,
    status: 200,
    response: s.profile,
    errors: [400, 403, 409],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    const { data, error, status } = await caller.db.from("profiles")
      .update({ username: input.username }).eq("id", caller.id).select(PROFILE_COLUMNS)
      .maybeSingle();
    if (error) {
      if (error.code === "23505") {
        throw new HttpError(409, "username_taken", "Username is already taken");
      }
      dbFail("saving the profile", error, { status, fallback: s.USERNAME_RULE });
    }
    if (!data) throw banned();
    return c.json(toProfile(data));
  });

  route(app, {
    method: "get",
    path: "/user/check-username/{username}",
    tag: "user",
    summary: "Whether a username is free (case-insensitive; your own counts as free)",
    access: "user",
    params: usernameParams,
    status: 200,
    response: s.availability,
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const candidate = c.req.valid("param").username;
    const valid = s.username.safeParse(candidate);
    if (!valid.success) {
      return c.json({ available: false, message: valid.error.issues[0]!.message });
    }
    const { data, error, status } = await caller.db.rpc("username_available", {
      candidate: valid.data,
    });
    if (error) dbFail("checking a username", error, { status });
    return c.json(
      data === true
        ? { available: true, message: "Username is available" }
        : { available: false, message: "Username is already taken" },
    );
  });

  route(app, {
    method: "post",
    path: "/user/upload-avatar",
    tag: "user",
    summary: "Upload a profile picture (JPEG, PNG, GIF or WebP by content, at most 5 MB)",
    access: "user",
    file: { field: "avatar", description: "The image" },
    status: 200,
    response: s.avatarResult,
    errors: [400, 403, 413, 415],
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const store = makeAvatarStore(env);
    const user = await store.getUser(caller.token);
    if (!user) throw new HttpError(401, "unauthorized", "Please log in again.");
    if (user.banned) throw banned();
    return c.json({ avatarUrl: await uploadAvatar(store, user.id, c.req.raw, now) });
  });

  // ---- checkout ----------------------------------------------------------------------------
  route(app, {
    method: "post",
    path: "/checkout",
    tag: "billing",
    summary: "Start a card payment for a plan: the hosted payment page's URL",
    access: "user",
    body: s.checkoutInput,
    status: 200,
    response: s.checkoutResult,
    errors: [400, 403, 409, 502],
    description: "Answered by the checkout function with the caller's token.",
    guard,
  }, async (c) => {
    const caller = callerOf(c);
    const input = c.req.valid("json");
    const vars = requireEnv(
      env,
      [["SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY"]],
      API_NOT_CONFIGURED,
    );
    const res = await fetchFunction("checkout", {
      method: "POST",
      headers: {
        authorization: `Bearer ${caller.token}`,
        apikey: vars.SUPABASE_ANON_KEY,
        "content-type": "application/json",
      },
      body: JSON.stringify(input),
    });
    const body = await res.json().catch(() => null) as Record<string, unknown> | null;
    if (res.ok && body && typeof body.sessionUrl === "string") {
      return c.json({ sessionUrl: body.sessionUrl });
    }
    const message = typeof body?.message === "string"
      ? body.message
      : "Payment system unavailable. Please try again later.";
    const code = typeof body?.error === "string" ? body.error : "payment_error";
    throw new HttpError(res.ok ? 502 : res.status, code, message);
  });

  return app;
}
