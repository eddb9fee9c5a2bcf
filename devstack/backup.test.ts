// `npm run db:backup` / `db:restore` on PGlite: a stack's data, backed up while it is stopped and
// restored into a fresh folder, still holds its users, chat history, tickets, subscriptions and
// Storage files (an avatar's bytes, which live beside the database).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "./backup.ts";
import { defaultOptions } from "./config.ts";
import { freePort, startStack } from "./stack.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]);
const tmp = mkdtempSync(path.join(tmpdir(), "backup-test-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 60_000);

async function stackOn(dataDir: string) {
  return startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir,
    envFile: path.join(tmp, ".env.local"),
    functions: false,
    cron: false,
    quiet: true,
  });
}

describe("db:backup and db:restore (PGlite)", () => {
  it("restores users, chat history, tickets, subscriptions and Storage files into a fresh folder", async () => {
    const original = path.join(tmp, "original");
    const email = `backup-${Date.now().toString(36)}@example.test`;
    let userId: string;
    let stack = await stackOn(original);
    try {
      const key = stack.secrets.publishableKey;
      const signUp = await fetch(`${stack.url}/auth/v1/signup`, {
        method: "POST",
        headers: { apikey: key, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "correct-horse-1" }),
      });
      const session = (await signUp.json()) as { access_token: string; user: { id: string } };
      userId = session.user.id;
      const as = {
        apikey: key,
        authorization: `Bearer ${session.access_token}`,
        "content-type": "application/json",
        prefer: "return=representation",
      };
      const group = await fetch(`${stack.url}/rest/v1/groups`, {
        method: "POST",
        headers: as,
        body: JSON.stringify({ name: "Kept safe", created_by: userId }),
      });
      expect(group.status).toBe(201);
      const [{ id: groupId }] = (await group.json()) as { id: string }[];
      const msg = await fetch(`${stack.url}/rest/v1/messages`, {
        method: "POST",
        headers: as,
        body: JSON.stringify({ group_id: groupId, content: "remember me" }),
      });
      expect(msg.status).toBe(201);
      const ticket = await fetch(`${stack.url}/rest/v1/support_tickets`, {
        method: "POST",
        headers: as,
        body: JSON.stringify({ subject: "Backed up?", content: "Is this kept after a restore?" }),
      });
      expect(ticket.status).toBe(201);
      const avatar = await fetch(`${stack.url}/storage/v1/object/avatars/${userId}/kept.png`, {
        method: "POST",
        // As the avatar function writes it (users may not upload directly).
        headers: {
          apikey: stack.secrets.secretKey,
          authorization: `Bearer ${stack.secrets.secretKey}`,
          "content-type": "image/png",
        },
        body: PNG,
      });
      expect(avatar.status).toBe(200);
      await stack.db.query(
        `insert into public.billing_subscriptions (id, user_id, stripe_customer_id, plan, status)
         values ('sub_backup', $1, 'cus_backup', 'pro', 'active')`,
        [userId],
      );
    } finally {
      await stack.stop();
    }

    const file = path.join(tmp, "backups", "test.backup");
    expect(await backupDatabase({ dataDir: original }, file)).toBeGreaterThan(0);
    const restored = path.join(tmp, "restored");
    await restoreDatabase({ dataDir: restored }, file);
    await expect(restoreDatabase({ dataDir: restored }, file)).rejects.toThrow(/is not empty/);

    stack = await stackOn(restored);
    try {
      const key = stack.secrets.publishableKey;
      const signIn = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { apikey: key, "content-type": "application/json" },
        body: JSON.stringify({ email, password: "correct-horse-1" }),
      });
      expect(signIn.status).toBe(200);
      const { access_token } = (await signIn.json()) as { access_token: string };
      const as = { apikey: key, authorization: `Bearer ${access_token}` };
      const read = async (route: string) =>
        (await (await fetch(`${stack.url}/rest/v1/${route}`, { headers: as })).json()) as unknown;
      expect(await read("messages?select=content")).toEqual([{ content: "remember me" }]);
      expect(await read(`groups?select=name&created_by=eq.${userId}`)).toEqual([
        { name: "Kept safe" },
      ]);
      expect(await read("support_tickets?select=subject")).toEqual([{ subject: "Backed up?" }]);
      expect(
        await stack.db.query(
          "select plan::text, status from public.billing_subscriptions where id = 'sub_backup'",
        ),
      ).toEqual([{ plan: "pro", status: "active" }]);
      const avatar = await fetch(
        `${stack.url}/storage/v1/object/public/avatars/${userId}/kept.png`,
      );
      expect(avatar.status).toBe(200);
      expect(new Uint8Array(await avatar.arrayBuffer())).toEqual(PNG);
    } finally {
      await stack.stop();
    }
  }, 400_000);
});
