// Issue 12, item 3: revoked access stops streaming. A private channel is authorised when it is
// joined; when what its user may read changes (a ban, a plan that ends or shrinks, a member who
// leaves or is removed) the open channel must close within seconds with Realtime's refusal, and
// nothing sent afterwards may reach it. A ban also ends the user's sessions, so no new access
// token can be had (the bound on hosted Supabase, decision 0016).
import { afterEach, describe, expect, it } from "vitest";
import { groupTopic, moversTopic } from "../../supabase/functions/_shared/domain/realtime.ts";
import { demoUser, serviceClient, signedInUser, type Client } from "../support/clients.ts";
import { join, sleep, waitFor, type Joined } from "../support/realtime.ts";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
});

async function user() {
  const u = await signedInUser();
  clients.push(u.client);
  return u;
}

async function setPlan(id: string, plan: "basic" | "pro" | "enterprise", active = true) {
  const { error } = await serviceClient()
    .from("profiles")
    .update({ plan, subscription_active: active })
    .eq("id", id);
  expect(error).toBeNull();
}

/** A public group created by `owner`, joined by `member`; both hold its channel open. */
async function groupOf(owner: Awaited<ReturnType<typeof user>>, member: typeof owner) {
  const created = await owner.client
    .from("groups")
    .insert({
      name: `Revoke ${Math.random().toString(36).slice(2, 10)}`,
      is_public: true,
      created_by: owner.user.id,
    })
    .select("id")
    .single();
  expect(created.error).toBeNull();
  const groupId = created.data!.id;
  const joined = await member.client
    .from("group_members")
    .insert({ group_id: groupId, user_id: member.user.id });
  expect(joined.error).toBeNull();
  const ownerChannel = await join(owner.client, groupTopic(groupId));
  const memberChannel = await join(member.client, groupTopic(groupId));
  expect(ownerChannel.status).toBe("SUBSCRIBED");
  expect(memberChannel.status).toBe("SUBSCRIBED");
  return { groupId, ownerChannel, memberChannel };
}

const refusal = (topic: string) =>
  `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;

/** The channel was closed by the server with Realtime's refusal, within a few seconds. */
async function closedWithRefusal(j: Joined, topic: string) {
  await waitFor(() => j.closed, 5_000);
  expect(j.system).toContainEqual(
    expect.objectContaining({ status: "error", message: refusal(topic) }),
  );
}

/** The owner posts; the owner's channel gets it, the revoked one does not. */
async function postedOnlyTo(
  owner: Awaited<ReturnType<typeof user>>,
  groupId: string,
  ownerChannel: Joined,
  revoked: Joined,
) {
  const content = `after revocation ${Date.now()}`;
  const sent = await owner.client.from("messages").insert({ group_id: groupId, content });
  expect(sent.error).toBeNull();
  await waitFor(() =>
    ownerChannel.events.some(
      (e) => (e.payload.record as { content?: string })?.content === content,
    ),
  );
  await sleep(300);
  expect(revoked.events.filter((e) => e.event === "INSERT")).toEqual([]);
}

describe("revoked access keeps no open stream", () => {
  it("a banned user's open movers and group chat channels close, and their sessions end", async () => {
    const owner = await user();
    const member = await user();
    await setPlan(member.user.id, "enterprise");
    const movers = await join(member.client, moversTopic(0));
    expect(movers.status).toBe("SUBSCRIBED");
    const { groupId, ownerChannel, memberChannel } = await groupOf(owner, member);

    const admin = await demoUser("admin@demo.local");
    const banned = await admin.client.rpc("admin_ban_user", {
      target: member.user.id,
      reason: "Spamming the group chat",
    });
    expect(banned.error).toBeNull();

    await closedWithRefusal(memberChannel, groupTopic(groupId));
    await closedWithRefusal(movers, moversTopic(0));
    await postedOnlyTo(owner, groupId, ownerChannel, memberChannel);
    // Rejoining with the same, still unexpired token is refused (what the SPA's hook does next).
    const again = await join(member.client, groupTopic(groupId));
    expect(again.status).toBe("CHANNEL_ERROR");
    expect(again.error).toBe(refusal(groupTopic(groupId)));
    // No new access token: the ban ended every session (what bounds it on hosted Supabase).
    const refreshed = await member.client.auth.refreshSession();
    expect(refreshed.error).not.toBeNull();
    expect(ownerChannel.closed).toBe(false);
  });

  it("a plan that ends closes its movers channels; a smaller plan closes the windows it lost", async () => {
    const lapsing = await user();
    await setPlan(lapsing.user.id, "basic");
    const basic30 = await join(lapsing.client, moversTopic(30));
    expect(basic30.status).toBe("SUBSCRIBED");

    const shrinking = await user();
    await setPlan(shrinking.user.id, "enterprise");
    const tenSeconds = await join(shrinking.client, moversTopic(0));
    const thirty = await join(shrinking.client, moversTopic(30));
    expect([tenSeconds.status, thirty.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED"]);

    await setPlan(lapsing.user.id, "basic", false);
    await setPlan(shrinking.user.id, "basic");

    await closedWithRefusal(basic30, moversTopic(30));
    await closedWithRefusal(tenSeconds, moversTopic(0));
    await sleep(300);
    expect(thirty.closed).toBe(false);
  });

  it("a member removed by the group's admin stops receiving the chat", async () => {
    const owner = await user();
    const member = await user();
    const { groupId, ownerChannel, memberChannel } = await groupOf(owner, member);
    const removed = await owner.client
      .from("group_members")
      .delete()
      .eq("group_id", groupId)
      .eq("user_id", member.user.id)
      .select("id");
    expect(removed.error).toBeNull();
    expect(removed.data).toHaveLength(1);

    await closedWithRefusal(memberChannel, groupTopic(groupId));
    await postedOnlyTo(owner, groupId, ownerChannel, memberChannel);
  });

  it("a member who leaves stops receiving the chat", async () => {
    const owner = await user();
    const member = await user();
    const { groupId, ownerChannel, memberChannel } = await groupOf(owner, member);
    const left = await member.client
      .from("group_members")
      .delete()
      .eq("group_id", groupId)
      .eq("user_id", member.user.id)
      .select("id");
    expect(left.error).toBeNull();
    expect(left.data).toHaveLength(1);

    await closedWithRefusal(memberChannel, groupTopic(groupId));
    await postedOnlyTo(owner, groupId, ownerChannel, memberChannel);
  });
});
