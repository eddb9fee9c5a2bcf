// The authorization matrix through the Data API: the rules the pgTAP suites prove in the
// database, seen by supabase-js callers (anon, free and paying users, members and strangers,
// a banned user, an admin). Seeded rows are only read; whatever a test changes belongs to a
// fresh sign-up or is put back, because one stack serves every test file of a run.
import { describe, expect, it } from "vitest";
import type { TablesUpdate } from "../../web/src/lib/database.types.ts";
import {
  anonClient,
  demoUser,
  serviceClient,
  signedInUser,
  type Client,
} from "../support/clients.ts";

const GROUP = {
  momentum: "10000000-0000-4000-8000-000000000001", // public
  dexHunters: "10000000-0000-4000-8000-000000000002", // public
  enterpriseDesk: "10000000-0000-4000-8000-000000000003", // private: enterprise@, admin@
};
const TICKET = {
  proOpen: "20000000-0000-4000-8000-000000000001",
  basicClosed: "20000000-0000-4000-8000-000000000002",
};

/** A fresh user given a plan by the admin (through the admin RPCs, as the product does). */
async function subscriber(plan: "basic" | "pro" | "enterprise") {
  const u = await signedInUser();
  const admin = await demoUser("admin@demo.local");
  expect(
    (await admin.client.rpc("admin_set_plan", { target: u.user.id, new_plan: plan })).error,
  ).toBeNull();
  expect(
    (await admin.client.rpc("admin_set_subscription", { target: u.user.id, active: true })).error,
  ).toBeNull();
  return u;
}

async function newGroup(client: Client, userId: string, isPublic: boolean) {
  const name = `Group ${Math.random().toString(36).slice(2, 10)}`;
  const { error } = await client
    .from("groups")
    .insert({ name, is_public: isPublic, created_by: userId });
  expect(error).toBeNull();
  const { data } = await client.from("groups").select("*").eq("name", name).single();
  return data!;
}

describe("anonymous visitors", () => {
  it("read only the three-row movers teaser", async () => {
    const anon = anonClient();
    const teaser = await anon.from("movers_teaser").select("*");
    expect(teaser.error).toBeNull();
    expect(teaser.data!.length).toBeGreaterThan(0);
    expect(teaser.data!.length).toBeLessThanOrEqual(3);
    expect(Object.keys(teaser.data![0]!).sort()).toEqual(
      ["exchange", "id", "pct", "price", "symbol", "ts"].sort(),
    );
  });

  it("read nothing of profiles, movers, instruments, groups or tickets", async () => {
    const anon = anonClient();
    for (const table of [
      "profiles",
      "instruments",
      "groups",
      "group_members",
      "messages",
      "support_tickets",
      "ticket_messages",
      "activity_logs",
    ] as const) {
      const { data, error } = await anon.from(table).select("*");
      expect(error === null ? data : [], table).toEqual([]);
    }
    const movers = await anon.from("movers").select("*");
    expect(movers.status).toBe(401);
    expect(movers.error).toMatchObject({
      code: "42501",
      message: "permission denied for table movers",
    });
    const feed = await anon.rpc("movers_feed", { window_minutes: 30 });
    expect(feed.status).toBe(401);
    expect(feed.error).toMatchObject({
      code: "42501",
      message: "permission denied for function movers_feed",
    });
  });
});

describe("market data by plan", () => {
  it("gives a user without a plan no market data", async () => {
    for (const { client } of [await demoUser("free@demo.local"), await signedInUser()]) {
      const feed = await client.rpc("movers_feed", { window_minutes: 30 });
      expect(feed.error).toMatchObject({
        code: "PT403",
        message: "Active subscription required",
      });
      expect(feed.status).toBe(403);
      const instruments = await client.from("instruments").select("*");
      expect(instruments.error).toBeNull();
      expect(instruments.data).toEqual([]);
    }
  });

  it("offers basic only the 30-minute window", async () => {
    const { client } = await demoUser("basic@demo.local");
    const ok = await client.rpc("movers_feed", { window_minutes: 30 });
    expect(ok.error).toBeNull();
    expect(ok.data!.length).toBeGreaterThan(0);
    expect(ok.data!.every((m) => m.window_used === 30)).toBe(true);
    for (const w of [0, 5, 15, 25]) {
      const refused = await client.rpc("movers_feed", { window_minutes: w });
      expect(refused.error, `window ${w}`).toMatchObject({
        code: "PT403",
        message: `The basic plan does not offer a ${w} minute window`,
      });
      expect(refused.status).toBe(403);
    }
    const instruments = await client.from("instruments").select("id");
    expect(instruments.data!.length).toBeGreaterThan(0);
  });

  it("offers pro 15 minutes and up, not 5", async () => {
    const { client } = await demoUser("pro@demo.local");
    for (const w of [15, 30]) {
      const ok = await client.rpc("movers_feed", { window_minutes: w });
      expect(ok.error, `window ${w}`).toBeNull();
      expect(ok.data![0]?.window_used).toBe(w);
    }
    const refused = await client.rpc("movers_feed", { window_minutes: 5 });
    expect(refused.error).toMatchObject({
      code: "PT403",
      message: "The pro plan does not offer a 5 minute window",
    });
    expect(refused.status).toBe(403);
  });

  it("offers enterprise the 10-second window (0)", async () => {
    const { client } = await demoUser("enterprise@demo.local");
    const ok = await client.rpc("movers_feed", { window_minutes: 0 });
    expect(ok.error).toBeNull();
    expect(ok.data!.length).toBeGreaterThan(0);
    expect(ok.data![0]!.window_used).toBe(0);
  });

  it("opens the feed once an admin grants a plan, with that plan's windows", async () => {
    const { client } = await subscriber("pro");
    expect((await client.rpc("movers_feed", { window_minutes: 15 })).error).toBeNull();
    expect((await client.rpc("movers_feed", { window_minutes: 5 })).status).toBe(403);
  });
});

describe("profiles", () => {
  it("show a user only their own profile", async () => {
    const { client, user } = await demoUser("basic@demo.local");
    const { data, error } = await client.from("profiles").select("id, plan");
    expect(error).toBeNull();
    expect(data).toEqual([{ id: user.id, plan: "basic" }]);
  });

  it("let a user update their own profile and nobody else's", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const own = await a.client
      .from("profiles")
      .update({ user_threshold: 42.5, selected_exchanges: ["coinbase"] })
      .eq("id", a.user.id)
      .select("user_threshold, selected_exchanges")
      .single();
    expect(own.error).toBeNull();
    expect(own.data).toEqual({ user_threshold: 42.5, selected_exchanges: ["coinbase"] });
    const theirs = await a.client
      .from("profiles")
      .update({ user_threshold: 99 })
      .eq("id", b.user.id)
      .select();
    expect(theirs.error).toBeNull();
    expect(theirs.data).toEqual([]);
    const check = await b.client.from("profiles").select("user_threshold").single();
    // Number(): lite sends numeric 10.0 as the string "10.0" (see types.test.ts).
    expect(Number(check.data?.user_threshold)).toBe(10);
  });

  it("refuse plan, role, subscription and ban changes by the user", async () => {
    const { client, user } = await signedInUser();
    const attempts = [
      { plan: "enterprise" },
      { role: "admin" },
      { subscription_active: true },
      { banned: true, banned_reason: "self-inflicted" },
    ] as const;
    for (const change of attempts) {
      const { error } = await client.from("profiles").update(change).eq("id", user.id);
      expect(error?.code, JSON.stringify(change)).toBe("42501");
    }
    const { data } = await client
      .from("profiles")
      .select("plan, role, subscription_active, banned")
      .single();
    expect(data).toEqual({ plan: "none", role: "user", subscription_active: false, banned: false });
  });

  it("enforce the settings rules", async () => {
    const { client, user } = await signedInUser();
    const update = (change: TablesUpdate<"profiles">) =>
      client.from("profiles").update(change).eq("id", user.id);
    expect((await update({ user_threshold: 0 })).error?.code).toBe("23514");
    const window = await update({ selected_window_minutes: 15 });
    expect(window.error?.code).toBe("23514");
    expect(window.status).toBe(400);
    expect((await update({ email_alert: "me@example.test" })).error?.code).toBe("23514");
    expect((await update({ selected_window_minutes: 30, user_threshold: 1 })).error).toBeNull();

    const pro = await subscriber("pro");
    expect(
      (
        await pro.client
          .from("profiles")
          .update({ selected_window_minutes: 15 })
          .eq("id", pro.user.id)
      ).error,
    ).toBeNull();
    expect(
      (
        await pro.client
          .from("profiles")
          .update({ email_alert: "p@example.test" })
          .eq("id", pro.user.id)
      ).error?.code,
    ).toBe("23514");

    const ent = await subscriber("enterprise");
    const alert = await ent.client
      .from("profiles")
      .update({ selected_window_minutes: 0, email_alert: "alerts@example.test" })
      .eq("id", ent.user.id)
      .select("selected_window_minutes, email_alert")
      .single();
    expect(alert.error).toBeNull();
    expect(alert.data).toEqual({ selected_window_minutes: 0, email_alert: "alerts@example.test" });
  });

  it("refuse Discord and Telegram below enterprise and a window change while inactive, with a code the SPA translates", async () => {
    const pro = await subscriber("pro");
    const discord = await pro.client
      .from("profiles")
      .update({ discord_webhook_url: "https://discord.com/api/webhooks/1/token" })
      .eq("id", pro.user.id);
    expect(discord.status).toBe(400);
    expect(discord.error).toMatchObject({ code: "23514", details: "chat_alerts_enterprise_only" });
    const window = await pro.client
      .from("profiles")
      .update({ selected_window_minutes: 5 })
      .eq("id", pro.user.id);
    expect(window.error).toMatchObject({
      code: "23514",
      details: "window_not_offered",
      hint: "Allowed windows: 15, 20, 25, 30",
    });

    const ent = await subscriber("enterprise");
    const chat = await ent.client
      .from("profiles")
      .update({
        discord_webhook_url: "https://discord.com/api/webhooks/1/token",
        telegram_chat_id: "42",
      })
      .eq("id", ent.user.id)
      .select("discord_webhook_url, telegram_chat_id")
      .single();
    expect(chat.error).toBeNull();
    expect(chat.data).toEqual({
      discord_webhook_url: "https://discord.com/api/webhooks/1/token",
      telegram_chat_id: "42",
    });
    const service = serviceClient();
    await service.from("profiles").update({ subscription_active: false }).eq("id", ent.user.id);
    const inactive = await ent.client
      .from("profiles")
      .update({ selected_window_minutes: 10 })
      .eq("id", ent.user.id);
    expect(inactive.error).toMatchObject({
      code: "23514",
      details: "window_needs_active_subscription",
    });
    await service.from("profiles").update({ plan: "pro" }).eq("id", ent.user.id);
    const after = await service
      .from("profiles")
      .select("discord_webhook_url, telegram_chat_id")
      .eq("id", ent.user.id)
      .single();
    expect(after.data).toEqual({ discord_webhook_url: null, telegram_chat_id: null });
  });
});

describe("groups and messages", () => {
  it("list public groups to everyone signed in and private ones to members only", async () => {
    const stranger = await signedInUser();
    const listed = await stranger.client.from("groups").select("id");
    expect(listed.error).toBeNull();
    const ids = listed.data!.map((g) => g.id);
    expect(ids).toEqual(expect.arrayContaining([GROUP.momentum, GROUP.dexHunters]));
    expect(ids).not.toContain(GROUP.enterpriseDesk);

    const member = await demoUser("enterprise@demo.local");
    const seen = await member.client.from("groups").select("id").eq("id", GROUP.enterpriseDesk);
    expect(seen.data).toEqual([{ id: GROUP.enterpriseDesk }]);
  });

  it("make the creator of a group its admin", async () => {
    const { client, user } = await signedInUser();
    const group = await newGroup(client, user.id, true);
    const members = await client
      .from("group_members")
      .select("user_id, role")
      .eq("group_id", group.id);
    expect(members.data).toEqual([{ user_id: user.id, role: "admin" }]);
  });

  // Known bug (migration 20261121000400_community.sql): the select policy on groups admits a
  // private group's creator only through group_members, and the row making them its admin is
  // written by an AFTER trigger, after PostgreSQL checked the RETURNING row against that policy.
  // So insert(...).select() of a private group fails with 42501. Drop `.fails` once fixed.
  it("lets a user create a private group and read it back in the same request", async () => {
    const { client, user } = await signedInUser();
    const { data, error } = await client
      .from("groups")
      .insert({ name: "Private returning", is_public: false, created_by: user.id })
      .select("id, is_public")
      .single();
    expect(error).toBeNull();
    expect(data?.is_public).toBe(false);
  });

  it("let users join public groups directly and private ones only by invite code", async () => {
    const owner = await signedInUser();
    const joiner = await signedInUser();
    const pub = await newGroup(owner.client, owner.user.id, true);
    const priv = await newGroup(owner.client, owner.user.id, false);

    const joinPublic = await joiner.client
      .from("group_members")
      .insert({ group_id: pub.id, user_id: joiner.user.id });
    expect(joinPublic.error).toBeNull();

    expect((await joiner.client.from("groups").select("id").eq("id", priv.id)).data).toEqual([]);
    const direct = await joiner.client
      .from("group_members")
      .insert({ group_id: priv.id, user_id: joiner.user.id });
    expect(direct.error?.code).toBe("42501");
    const asAdmin = await joiner.client
      .from("group_members")
      .insert({ group_id: pub.id, user_id: joiner.user.id, role: "admin" });
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.error).toMatchObject({
      code: "42501",
      message: 'new row violates row-level security policy for table "group_members"',
    });

    const wrongCode = await joiner.client.rpc("join_group_by_invite", {
      code: "00000000-0000-4000-8000-0000000000ff",
    });
    expect(wrongCode.status).toBe(404);
    const join = await joiner.client.rpc("join_group_by_invite", { code: priv.invite_code });
    expect(join.error).toBeNull();
    expect(join.data).toBe(priv.id);
    expect((await joiner.client.from("groups").select("id").eq("id", priv.id)).data).toEqual([
      { id: priv.id },
    ]);
  });

  it("let members read and write messages, strangers neither", async () => {
    const owner = await signedInUser();
    const stranger = await signedInUser();
    const group = await newGroup(owner.client, owner.user.id, true);
    const sent = await owner.client
      .from("messages")
      .insert({ group_id: group.id, content: "hello members" })
      .select("id, sender_id")
      .single();
    expect(sent.error).toBeNull();
    expect(sent.data?.sender_id).toBe(owner.user.id);

    expect(
      (await stranger.client.from("messages").select("id").eq("group_id", group.id)).data,
    ).toEqual([]);
    const intrude = await stranger.client
      .from("messages")
      .insert({ group_id: group.id, content: "let me in" });
    expect(intrude.error?.code).toBe("42501");
    const spoof = await owner.client
      .from("messages")
      .insert({ group_id: group.id, content: "as someone else", sender_id: stranger.user.id });
    expect(spoof.error?.code).toBe("42501");

    // Seeded public group: its members (free@ among them) read the seeded messages.
    const free = await demoUser("free@demo.local");
    const seeded = await free.client.from("messages").select("id").eq("group_id", GROUP.momentum);
    expect(seeded.data!.length).toBeGreaterThanOrEqual(3);
  });

  it("let senders edit and delete only their own messages", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const group = await newGroup(a.client, a.user.id, true);
    await b.client.from("group_members").insert({ group_id: group.id, user_id: b.user.id });
    const msg = await a.client
      .from("messages")
      .insert({ group_id: group.id, content: "original" })
      .select("id")
      .single();

    const edit = await b.client
      .from("messages")
      .update({ content: "defaced" })
      .eq("id", msg.data!.id)
      .select();
    expect(edit.data ?? []).toEqual([]);
    const del = await b.client.from("messages").delete().eq("id", msg.data!.id).select();
    expect(del.data ?? []).toEqual([]);
    const still = await b.client.from("messages").select("content").eq("id", msg.data!.id).single();
    expect(still.data?.content).toBe("original");

    const own = await a.client
      .from("messages")
      .update({ content: "edited" })
      .eq("id", msg.data!.id)
      .select("content")
      .single();
    expect(own.data?.content).toBe("edited");
    const moved = await a.client
      .from("messages")
      .update({ group_id: GROUP.momentum })
      .eq("id", msg.data!.id);
    expect(moved.error?.code).toBe("42501");
    const gone = await a.client.from("messages").delete().eq("id", msg.data!.id).select("id");
    expect(gone.data).toEqual([{ id: msg.data!.id }]);
  });

  it("hide a blocked user's messages from the blocker only", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    const group = await newGroup(a.client, a.user.id, true);
    await b.client.from("group_members").insert({ group_id: group.id, user_id: b.user.id });
    await a.client.from("messages").insert({ group_id: group.id, content: "from a" });
    await b.client.from("messages").insert({ group_id: group.id, content: "from b" });

    const block = await b.client.from("user_blocks").insert({ blocked_id: a.user.id });
    expect(block.error).toBeNull();
    const seenByB = await b.client.from("messages").select("content").eq("group_id", group.id);
    expect(seenByB.data).toEqual([{ content: "from b" }]);
    const seenByA = await a.client.from("messages").select("content").eq("group_id", group.id);
    expect(seenByA.data!.map((m) => m.content).sort()).toEqual(["from a", "from b"]);
    expect((await a.client.from("user_blocks").select("*")).data).toEqual([]);

    await b.client.from("user_blocks").delete().eq("blocked_id", a.user.id);
    const again = await b.client.from("messages").select("content").eq("group_id", group.id);
    expect(again.data).toHaveLength(2);
  });
});

describe("support tickets", () => {
  it("show users their own tickets and the admin every ticket", async () => {
    const pro = await demoUser("pro@demo.local");
    const own = await pro.client.from("support_tickets").select("id");
    expect(own.data).toEqual([{ id: TICKET.proOpen }]);
    const thread = await pro.client.from("ticket_messages").select("ticket_id");
    expect(thread.data!.every((m) => m.ticket_id === TICKET.proOpen)).toBe(true);

    const fresh = await signedInUser();
    expect((await fresh.client.from("support_tickets").select("id")).data).toEqual([]);
    const opened = await fresh.client
      .from("support_tickets")
      .insert({ subject: "Cannot see movers", content: "The dashboard stays empty for me." })
      .select("id, user_id, status, ticket_number")
      .single();
    expect(opened.error).toBeNull();
    expect(opened.data).toMatchObject({ user_id: fresh.user.id, status: "open" });
    expect(opened.data!.ticket_number).toBeGreaterThan(1000);

    const admin = await demoUser("admin@demo.local");
    const all = await admin.client.from("support_tickets").select("id");
    expect(all.data!.map((t) => t.id)).toEqual(
      expect.arrayContaining([TICKET.proOpen, TICKET.basicClosed, opened.data!.id]),
    );
  });

  it("refuse a status a user sets, a reply on someone else's ticket and one on a closed ticket", async () => {
    const fresh = await signedInUser();
    const ownStatus = await fresh.client.from("support_tickets").insert({
      subject: "Closing myself",
      content: "Trying to pick my own status.",
      status: "closed",
    });
    expect(ownStatus.error?.code).toBe("42501");

    const foreign = await fresh.client
      .from("ticket_messages")
      .insert({ ticket_id: TICKET.proOpen, content: "Me too!" });
    expect(foreign.error?.code).toBe("42501");

    const basic = await demoUser("basic@demo.local");
    const closed = await basic.client
      .from("ticket_messages")
      .insert({ ticket_id: TICKET.basicClosed, content: "One more thing" });
    expect(closed.error).toMatchObject({
      code: "PT409",
      message: "This ticket is closed; replies are no longer possible",
    });
    expect(closed.status).toBe(409);
  });

  it("flag admin replies, and only those, as admin replies", async () => {
    const user = await signedInUser();
    const admin = await demoUser("admin@demo.local");
    const ticket = await user.client
      .from("support_tickets")
      .insert({ subject: "Question on plans", content: "Which plan offers the 5 minute window?" })
      .select("id")
      .single();
    const reply = await admin.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.data!.id, content: "Enterprise does." })
      .select("is_admin_reply, sender_id")
      .single();
    expect(reply.error).toBeNull();
    expect(reply.data).toEqual({ is_admin_reply: true, sender_id: admin.user.id });

    const answer = await user.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.data!.id, content: "Thanks!" })
      .select("is_admin_reply")
      .single();
    expect(answer.data).toEqual({ is_admin_reply: false });
    const forged = await user.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.data!.id, content: "I am staff", is_admin_reply: true });
    expect(forged.error?.code).toBe("42501");
    const thread = await user.client
      .from("ticket_messages")
      .select("is_admin_reply")
      .eq("ticket_id", ticket.data!.id);
    expect(thread.data).toHaveLength(2);
  });
});

describe("a banned user", () => {
  it("signs in and reads their own profile, but writes nothing", async () => {
    const { client, user } = await demoUser("banned@demo.local");
    const me = await client.from("profiles").select("id, banned, banned_reason").single();
    expect(me.error).toBeNull();
    expect(me.data).toMatchObject({ id: user.id, banned: true });

    const ticket = await client
      .from("support_tickets")
      .insert({ subject: "Unban me please", content: "I promise to behave from now on." });
    expect(ticket.error?.code).toBe("42501");
    const message = await client
      .from("messages")
      .insert({ group_id: GROUP.momentum, content: "still here" });
    expect(message.error?.code).toBe("42501");
    const group = await client.from("groups").insert({ name: "Banned club", created_by: user.id });
    expect(group.error?.code).toBe("42501");
    const profile = await client
      .from("profiles")
      .update({ username: "rebranded" })
      .eq("id", user.id)
      .select();
    expect(profile.data ?? []).toEqual([]);
    expect((await client.from("groups").select("id")).data).toEqual([]);
    expect((await client.rpc("movers_feed", { window_minutes: 15 })).status).toBe(403);
    expect((await client.rpc("join_group_by_invite", { code: GROUP.momentum })).status).toBe(403);

    const after = await client.from("profiles").select("username").single();
    expect(after.data?.username).toBe("banned");
  });
});

describe("admin RPCs", () => {
  it("refuse every caller but an admin", async () => {
    const target = await signedInUser();
    for (const { client } of [await demoUser("enterprise@demo.local"), target]) {
      const calls = [
        client.rpc("admin_stats"),
        client.rpc("admin_live_visitors"),
        client.rpc("admin_latest_alerts"),
        client.rpc("admin_set_plan", { target: target.user.id, new_plan: "enterprise" }),
        client.rpc("admin_set_subscription", { target: target.user.id, active: true }),
        client.rpc("admin_ban_user", { target: target.user.id, reason: "no reason at all" }),
        client.rpc("admin_set_ticket_status", { ticket: TICKET.proOpen, new_status: "closed" }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.error).toMatchObject({ code: "PT403", message: "Admin access required" });
        expect(res.status).toBe(403);
      }
    }
    const anon = await anonClient().rpc("admin_stats");
    expect(anon.status).toBe(401);
    expect(anon.error).toMatchObject({
      code: "42501",
      message: "permission denied for function admin_stats",
    });
    const { data } = await target.client.from("profiles").select("plan, banned").single();
    expect(data).toEqual({ plan: "none", banned: false });
  });

  it("give an admin the figures", async () => {
    const admin = await demoUser("admin@demo.local");
    const { data, error } = await admin.client.rpc("admin_stats");
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    const stats = data![0]!;
    for (const [k, v] of Object.entries(stats)) expect(typeof v, k).toBe("number");
    expect(stats.total_users).toBeGreaterThanOrEqual(6);
    expect(stats.banned_users).toBeGreaterThanOrEqual(1);
    const profiles = await admin.client.from("profiles").select("id");
    expect(profiles.data!.length).toBeGreaterThanOrEqual(6);
  });

  it("let an admin change a plan, logging it where only admins read", async () => {
    const target = await signedInUser();
    const admin = await demoUser("admin@demo.local");
    const set = await admin.client.rpc("admin_set_plan", {
      target: target.user.id,
      new_plan: "pro",
    });
    expect(set.error).toBeNull();
    expect((await target.client.from("profiles").select("plan").single()).data).toEqual({
      plan: "pro",
    });

    const log = await admin.client
      .from("activity_logs")
      .select("admin_id, action, target_user_id, target_user_email, details")
      .eq("target_user_id", target.user.id);
    expect(log.error).toBeNull();
    expect(log.data).toEqual([
      {
        admin_id: admin.user.id,
        action: "set_plan",
        target_user_id: target.user.id,
        target_user_email: target.email,
        details: "none -> pro",
      },
    ]);
    expect((await target.client.from("activity_logs").select("id")).data).toEqual([]);
  });

  it("let an admin ban and unban a user, who meanwhile writes nothing", async () => {
    const target = await signedInUser();
    const admin = await demoUser("admin@demo.local");
    const short = await admin.client.rpc("admin_ban_user", { target: target.user.id, reason: "x" });
    expect(short.error?.code).toBe("23514");
    const ban = await admin.client.rpc("admin_ban_user", {
      target: target.user.id,
      reason: "Spamming the test suite",
    });
    expect(ban.error).toBeNull();
    const ticket = await target.client
      .from("support_tickets")
      .insert({ subject: "Why was I banned", content: "Please explain the ban to me." });
    expect(ticket.error?.code).toBe("42501");

    expect(
      (await admin.client.rpc("admin_unban_user", { target: target.user.id })).error,
    ).toBeNull();
    const retry = await target.client
      .from("support_tickets")
      .insert({ subject: "Thanks for the unban", content: "All good again, thank you." });
    expect(retry.error).toBeNull();

    const selfBan = await admin.client.rpc("admin_ban_user", {
      target: admin.user.id,
      reason: "Admins cannot be banned",
    });
    expect(selfBan.status).toBe(403);
  });
});
