// The live streams through the official realtime-js (supabase-js with `ws`) against the local
// Realtime stand-in: who may join which topic (the policies on realtime.messages), delivery of
// database broadcasts for chat and tickets, token handling, client broadcasts, the REST
// broadcast endpoint and the 1.0.0 protocol. One stack serves every file: tests use fresh
// users and groups, and only read seeded rows.
import { RealtimeClient } from "@supabase/supabase-js";
import { SignJWT } from "jose";
import ws from "ws";
import { afterEach, describe, expect, it } from "vitest";
import {
  groupTopic,
  moversTopic,
  TEASER_EVENT,
  TEASER_TOPIC,
  ticketTopic,
} from "../../supabase/functions/_shared/domain/realtime.ts";
import {
  anonClient,
  demoUser,
  serviceClient,
  signedInUser,
  stackInfo,
  type Client,
} from "../support/clients.ts";
import { join, waitFor, type Joined } from "../support/realtime.ts";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
});
function track<T extends { client: Client }>(u: T): T {
  clients.push(u.client);
  return u;
}

async function publicGroupWith(owner: { client: Client; user: { id: string } }) {
  const name = `Live ${Math.random().toString(36).slice(2, 10)}`;
  const created = await owner.client
    .from("groups")
    .insert({ name, is_public: true, created_by: owner.user.id })
    .select("id")
    .single();
  expect(created.error).toBeNull();
  return created.data!.id;
}

const refused = (j: Joined, topic: string) => {
  expect(j.status).toBe("CHANNEL_ERROR");
  expect(j.error).toBe(
    `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`,
  );
};

describe("market:movers:<window>", () => {
  it.each([
    ["free@demo.local", [] as number[]],
    ["basic@demo.local", [30]],
    ["pro@demo.local", [15, 30]],
    ["enterprise@demo.local", [0, 5, 15, 30]],
    ["banned@demo.local", []],
  ] as const)("%s may join exactly the windows of its plan", async (email, allowed) => {
    const { client } = track(await demoUser(email));
    for (const w of [0, 5, 15, 30]) {
      const j = await join(client, moversTopic(w));
      if (allowed.includes(w as never)) expect(j.status, `window ${w}`).toBe("SUBSCRIBED");
      else refused(j, moversTopic(w));
    }
  });

  it("anonymous visitors cannot join", async () => {
    const anon = anonClient();
    clients.push(anon);
    refused(await join(anon, moversTopic(30)), moversTopic(30));
  });

  it("a window no plan offers is refused even for enterprise", async () => {
    const { client } = track(await demoUser("enterprise@demo.local"));
    refused(await join(client, "market:movers:7"), "market:movers:7");
  });
});

describe("market:teaser (the landing strip)", () => {
  it("anyone may join and receives each scan's teaser; nobody may send on it", async () => {
    const anon = anonClient();
    const { client: free } = track(await demoUser("free@demo.local"));
    clients.push(anon);
    const visitor = await join(anon, TEASER_TOPIC, { ack: true });
    expect(visitor.status).toBe("SUBSCRIBED");
    const user = await join(free, TEASER_TOPIC);
    expect(user.status).toBe("SUBSCRIBED");

    const symbol = `TEASE${Date.now().toString(36).toUpperCase()}/USDT`;
    const quote = (price: number, ts: string) => ({
      symbol,
      exchange: "Binance",
      exchangeType: "cex",
      source: "simulated",
      price,
      volume24h: 1,
      ts,
    });
    const service = serviceClient();
    const t0 = Date.now();
    for (const [price, ago] of [
      [1, 31 * 60_000],
      [100, 0],
    ] as const) {
      const ts = new Date(t0 - ago).toISOString();
      const { error } = await service.rpc("ingest_scan", {
        quotes: [quote(price, ts)] as never,
        scanned_at: ts,
      });
      expect(error).toBeNull();
    }
    for (const joined of [visitor, user]) {
      const message = await waitFor(() =>
        joined.events.find(
          (e) =>
            e.event === TEASER_EVENT &&
            (e.payload.entries as { symbol: string; pct: number }[]).some(
              (x) => x.symbol === symbol && x.pct === 9900,
            ),
        ),
      );
      const entries = message.payload.entries as { symbol: string; pct: number }[];
      expect(entries.length).toBeLessThanOrEqual(3);
      expect(entries[0]).toMatchObject({ symbol, pct: 9900 });
    }

    const sent = await visitor.channel.send({
      type: "broadcast",
      event: TEASER_EVENT,
      payload: {},
    });
    expect(sent).not.toBe("ok");
  });
});

describe("group:<id> chat", () => {
  it("members receive inserts, updates and deletes; strangers and visitors cannot join", async () => {
    const owner = track(await signedInUser());
    const member = track(await signedInUser());
    const stranger = track(await signedInUser());
    const groupId = await publicGroupWith(owner);
    expect(
      (
        await member.client
          .from("group_members")
          .insert({ group_id: groupId, user_id: member.user.id })
      ).error,
    ).toBeNull();

    const live = await join(owner.client, groupTopic(groupId));
    expect(live.status).toBe("SUBSCRIBED");
    refused(await join(stranger.client, groupTopic(groupId)), groupTopic(groupId));
    const anon = anonClient();
    clients.push(anon);
    refused(await join(anon, groupTopic(groupId)), groupTopic(groupId));

    const sent = await member.client
      .from("messages")
      .insert({ group_id: groupId, content: "Watching PEPE" })
      .select()
      .single();
    expect(sent.error).toBeNull();
    const insert = await waitFor(() => live.events.find((e) => e.event === "INSERT"));
    expect(insert.payload).toMatchObject({
      schema: "public",
      table: "messages",
      operation: "INSERT",
      record: { id: sent.data!.id, content: "Watching PEPE", sender_id: member.user.id },
      old_record: null,
    });
    expect(insert.meta?.id).toEqual(expect.any(String));

    await member.client
      .from("messages")
      .update({ content: "Watching PEPE and BRETT" })
      .eq("id", sent.data!.id);
    const update = await waitFor(() => live.events.find((e) => e.event === "UPDATE"));
    expect(update.payload).toMatchObject({
      operation: "UPDATE",
      record: { id: sent.data!.id, content: "Watching PEPE and BRETT" },
      old_record: { content: "Watching PEPE" },
    });

    await member.client.from("messages").delete().eq("id", sent.data!.id);
    const del = await waitFor(() => live.events.find((e) => e.event === "DELETE"));
    expect(del.payload).toMatchObject({
      operation: "DELETE",
      record: null,
      old_record: { id: sent.data!.id },
    });
    expect(live.events.map((e) => e.event)).toEqual(["INSERT", "UPDATE", "DELETE"]);
  });

  it("members may track presence on a group topic, but nobody may broadcast from a client", async () => {
    const owner = track(await signedInUser());
    const groupId = await publicGroupWith(owner);
    const live = await join(owner.client, groupTopic(groupId), { ack: true, self: true });
    expect(live.status).toBe("SUBSCRIBED");
    expect(
      await live.channel.send({ type: "broadcast", event: "INSERT", payload: { fake: true } }),
    ).toBe("error");
    // Presence (online, typing) is allowed to members (migration 20261124100000).
    expect(await live.channel.track({ online: true })).toBe("ok");
    await new Promise((r) => setTimeout(r, 200));
    expect(live.events).toEqual([]);
  });

  it("a member who leaves the group cannot rejoin its topic", async () => {
    const owner = track(await signedInUser());
    const member = track(await signedInUser());
    const groupId = await publicGroupWith(owner);
    await member.client
      .from("group_members")
      .insert({ group_id: groupId, user_id: member.user.id });
    expect((await join(member.client, groupTopic(groupId))).status).toBe("SUBSCRIBED");
    await member.client.removeAllChannels();
    await member.client
      .from("group_members")
      .delete()
      .eq("group_id", groupId)
      .eq("user_id", member.user.id);
    refused(await join(member.client, groupTopic(groupId)), groupTopic(groupId));
  });
});

describe("ticket:<id>", () => {
  it("the owner and admins receive replies and status changes; others cannot join", async () => {
    const owner = track(await signedInUser());
    const other = track(await signedInUser());
    const admin = track(await demoUser("admin@demo.local"));
    const ticket = await owner.client
      .from("support_tickets")
      .insert({ subject: "Live ticket", content: "Does the thread update live?" })
      .select("id")
      .single();
    expect(ticket.error).toBeNull();
    const topic = ticketTopic(ticket.data!.id);

    const mine = await join(owner.client, topic);
    expect(mine.status).toBe("SUBSCRIBED");
    const desk = await join(admin.client, topic);
    expect(desk.status).toBe("SUBSCRIBED");
    refused(await join(other.client, topic), topic);

    const reply = await admin.client
      .from("ticket_messages")
      .insert({ ticket_id: ticket.data!.id, content: "We are on it." })
      .select("id")
      .single();
    expect(reply.error).toBeNull();
    const got = await waitFor(() => mine.events.find((e) => e.event === "INSERT"));
    expect(got.payload).toMatchObject({
      table: "ticket_messages",
      record: { id: reply.data!.id, content: "We are on it.", is_admin_reply: true },
    });
    await waitFor(() => desk.events.find((e) => e.event === "INSERT"));

    expect(
      (
        await admin.client.rpc("admin_set_ticket_status", {
          ticket: ticket.data!.id,
          new_status: "closed",
        })
      ).error,
    ).toBeNull();
    const status = await waitFor(() => mine.events.find((e) => e.event === "UPDATE"));
    expect(status.payload).toMatchObject({
      table: "support_tickets",
      record: { id: ticket.data!.id, status: "closed" },
      old_record: { status: "open" },
    });
  });
});

describe("tokens", () => {
  const sign = (claims: Record<string, unknown>, secret = stackInfo().jwtSecret) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(new TextEncoder().encode(secret));

  it("a forged or expired token cannot join", async () => {
    const u = track(await signedInUser());
    const groupId = await publicGroupWith(u);
    const now = Math.floor(Date.now() / 1000);
    const base = { sub: u.user.id, role: "authenticated", aud: "authenticated" };

    for (const [token, reason] of [
      [
        await sign({ ...base, exp: now + 600 }, "not-the-secret-of-this-stack-0000"),
        /InvalidJWTToken/,
      ],
      [
        await sign({ ...base, iat: now - 7200, exp: now - 3600 }),
        /InvalidJWTToken: Token has expired \d+ seconds ago/,
      ],
    ] as const) {
      const rt = new RealtimeClient(`${stackInfo().url.replace("http", "ws")}/realtime/v1`, {
        params: { apikey: stackInfo().publishableKey },
        transport: ws as never,
      });
      rt.setAuth(token);
      const ch = rt.channel(groupTopic(groupId), { config: { private: true } });
      const result = await new Promise<{ status: string; err?: Error }>((resolve) =>
        ch.subscribe((status, err) => resolve({ status, err })),
      );
      expect(result.status).toBe("CHANNEL_ERROR");
      expect(result.err?.message).toMatch(reason);
      await rt.removeAllChannels();
    }
  });

  it("a refreshed token keeps the channel; an invalid one closes it with a system message", async () => {
    const u = track(await signedInUser());
    const groupId = await publicGroupWith(u);
    const live = await join(u.client, groupTopic(groupId));
    expect(live.status).toBe("SUBSCRIBED");

    const refreshed = await u.client.auth.refreshSession();
    expect(refreshed.error).toBeNull();
    await u.client.realtime.setAuth(refreshed.data.session!.access_token);
    await u.client.from("messages").insert({ group_id: groupId, content: "after refresh" });
    await waitFor(() =>
      live.events.find(
        (e) =>
          e.payload.record && (e.payload.record as { content: string }).content === "after refresh",
      ),
    );

    await u.client.realtime.setAuth(
      await sign(
        { sub: u.user.id, role: "authenticated", exp: Math.floor(Date.now() / 1000) + 60 },
        "wrong-secret-wrong-secret-wrong-00",
      ),
    );
    await waitFor(() => live.closed);
    expect(live.system[0]).toMatchObject({ status: "error", extension: "system" });
    expect(String(live.system[0]!.message)).toMatch(/InvalidJWTToken/);
  });
});

describe("client broadcasts, presence and REST", () => {
  it("public channels relay broadcasts (binary frames) with ack and self, and presence", async () => {
    const a = anonClient();
    const b = anonClient();
    clients.push(a, b);
    const topic = `room-${Math.random().toString(36).slice(2)}`;
    const ja = await join(a, topic, {
      private: false,
      self: true,
      ack: true,
      presenceKey: "alice",
    });
    const jb = await join(b, topic, { private: false, presenceKey: "bob" });
    expect([ja.status, jb.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);
    expect(await ja.channel.send({ type: "broadcast", event: "cursor", payload: { x: 3 } })).toBe(
      "ok",
    );
    await waitFor(() => jb.events.find((e) => e.event === "cursor"));
    await waitFor(() => ja.events.find((e) => e.event === "cursor"));
    expect(jb.events[0]!.payload).toEqual({ x: 3 });

    expect(await ja.channel.track({ status: "online" })).toBe("ok");
    await waitFor(() => Object.keys(jb.channel.presenceState()).includes("alice"));
    expect(jb.channel.presenceState().alice![0]).toMatchObject({ status: "online" });
    await a.removeAllChannels();
    await waitFor(() => !Object.keys(jb.channel.presenceState()).includes("alice"));
  });

  it("POST /realtime/v1/api/broadcast: users may not write private topics, the service role may", async () => {
    const owner = track(await signedInUser());
    const groupId = await publicGroupWith(owner);
    const live = await join(owner.client, groupTopic(groupId));
    const url = `${stackInfo().url}/realtime/v1/api/broadcast`;
    const body = JSON.stringify({
      messages: [{ topic: groupTopic(groupId), event: "notice", payload: { n: 1 }, private: true }],
    });
    const asUser = await fetch(url, {
      method: "POST",
      headers: {
        apikey: stackInfo().publishableKey,
        authorization: `Bearer ${(await owner.client.auth.getSession()).data.session!.access_token}`,
        "content-type": "application/json",
      },
      body,
    });
    expect(asUser.status).toBe(403);
    expect((await asUser.json()).message).toMatch(/permissions to write/);

    const service = serviceClient();
    clients.push(service);
    const asService = await fetch(url, {
      method: "POST",
      headers: { apikey: stackInfo().secretKey, "content-type": "application/json" },
      body,
    });
    expect(asService.status).toBe(202);
    await waitFor(() => live.events.find((e) => e.event === "notice"));

    const bad = await fetch(url, {
      method: "POST",
      headers: { apikey: stackInfo().secretKey, "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    const noKey = await fetch(url, { method: "POST", body });
    expect(noKey.status).toBe(401);
  });

  it("speaks protocol 1.0.0 too", async () => {
    const u = track(await signedInUser());
    const groupId = await publicGroupWith(u);
    const session = (await u.client.auth.getSession()).data.session!;
    const rt = new RealtimeClient(`${stackInfo().url.replace("http", "ws")}/realtime/v1`, {
      params: { apikey: stackInfo().publishableKey },
      transport: ws as never,
      vsn: "1.0.0",
    });
    rt.setAuth(session.access_token);
    const events: unknown[] = [];
    const ch = rt
      .channel(groupTopic(groupId), { config: { private: true } })
      .on("broadcast", { event: "INSERT" }, (m) => events.push(m.payload));
    await new Promise<void>((resolve, reject) =>
      ch.subscribe((s, err) => (s === "SUBSCRIBED" ? resolve() : reject(err ?? new Error(s)))),
    );
    await u.client.from("messages").insert({ group_id: groupId, content: "over vsn 1" });
    await waitFor(() => events.length === 1);
    expect(events[0]).toMatchObject({ record: { content: "over vsn 1" } });
    await rt.removeAllChannels();
    await rt.disconnect();
  });
});
