// Per-user write limits (issue 30, decision 0040) as callers meet them: through REST (429,
// Retry-After, code PT429 with the wait in `details` and the limit in `hint`), through supabase-js
// and through /api (429 too_many_requests with Retry-After), on PGlite and on PostgreSQL.
import { describe, expect, it } from "vitest";
import { call, freshUser } from "../support/api.ts";
import { serviceClient, signedInUser, stackInfo } from "../support/clients.ts";

async function groupOf(user: Awaited<ReturnType<typeof signedInUser>>, name: string) {
  const { data, error } = await user.client
    .from("groups")
    .insert({ name, created_by: user.user.id })
    .select("id")
    .single();
  expect(error).toBeNull();
  return data!.id;
}

/** A chat message posted with plain fetch, so the answer's headers can be read. */
function postMessage(token: string, groupId: string, content: string) {
  const { url, publishableKey } = stackInfo();
  return fetch(`${url}/rest/v1/messages`, {
    method: "POST",
    headers: {
      apikey: publishableKey,
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ group_id: groupId, content }),
  });
}

describe("write limits", () => {
  it("REST: the 11th chat message in 10 s is refused with 429 and Retry-After, and not stored", async () => {
    const user = await signedInUser();
    const groupId = await groupOf(user, "Too fast");
    for (let i = 1; i <= 10; i++) {
      const ok = await postMessage(user.session.access_token, groupId, `message ${i}`);
      expect(ok.status).toBe(201);
    }
    const refused = await postMessage(user.session.access_token, groupId, "one too many");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(10);
    expect(await refused.json()).toEqual({
      code: "PT429",
      message: `You're sending messages too fast — try again in ${wait} s`,
      details: `retry-after=${wait}`,
      hint: "chat_message",
    });
    const stored = await serviceClient()
      .from("messages")
      .select("content")
      .eq("group_id", groupId)
      .eq("content", "one too many");
    expect(stored.data).toEqual([]);

    // Another group of the same user has a count of its own.
    const other = await groupOf(user, "Other room");
    const elsewhere = await postMessage(user.session.access_token, other, "hello");
    expect(elsewhere.status).toBe(201);
  });

  it("supabase-js: the refusal carries status 429 and code PT429 the SPA words", async () => {
    const user = await signedInUser();
    for (let i = 1; i <= 10; i++) {
      const res = await user.client
        .from("groups")
        .insert({ name: `Group ${i}`, created_by: user.user.id });
      expect(res.error).toBeNull();
    }
    const refused = await user.client
      .from("groups")
      .insert({ name: "Group 11", created_by: user.user.id });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "PT429", hint: "group_create" });
    expect(refused.error?.details).toMatch(/^retry-after=\d+$/);
    const mine = await serviceClient().from("groups").select("name").eq("created_by", user.user.id);
    expect(mine.data).toHaveLength(10);
  });

  it("/api: the 11th message answers 429 too_many_requests with Retry-After", async () => {
    const user = await freshUser("limit");
    const created = await call("/groups", {
      method: "POST",
      auth: { jar: user.jar },
      body: { name: "Api limits" },
    });
    expect(created.status).toBe(201);
    const { id: groupId } = (await created.json()) as { id: string };
    for (let i = 1; i <= 10; i++) {
      const ok = await call("/chat/messages", {
        method: "POST",
        auth: { jar: user.jar },
        body: { groupId, content: `message ${i}`, attachmentType: "none" },
      });
      expect(ok.status).toBe(201);
    }
    const refused = await call("/chat/messages", {
      method: "POST",
      auth: { jar: user.jar },
      body: { groupId, content: "one too many", attachmentType: "none" },
    });
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(10);
    const body = (await refused.json()) as { code: string; error: string };
    expect(body.code).toBe("too_many_requests");
    expect(body.error).toBe(`You're sending messages too fast — try again in ${wait} s`);
  });
});
