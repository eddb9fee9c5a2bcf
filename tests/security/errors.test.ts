// Item 9 of the hardening issue: unhandled errors answered 500 or 503. Each now gets a clear 4xx,
// or a start-up error naming the fix, and nothing is lost.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import { StackError } from "../../devstack/errors.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { anonClient, demoUser, stackInfo, uniqueEmail } from "../support/clients.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "security-errors-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("clear 4xx instead of 500/503", () => {
  it("a NUL byte in a path gets 400 on every route, for a subscriber too", async () => {
    const { client } = await demoUser("pro@demo.local");
    const token = (await client.auth.getSession()).data.session!.access_token;
    for (const route of [
      "/api/gainers/history/BTC%00",
      "/functions/v1/api/gainers/history/BTC%00",
    ]) {
      const res = await fetch(`${stackInfo().url}${route}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status, route).toBe(400);
      expect(await res.json()).toMatchObject({ error: "bad_request" });
    }
    const rest = await fetch(`${stackInfo().url}/rest/v1/instruments?symbol=eq.BTC%00`, {
      headers: { apikey: stackInfo().publishableKey },
    });
    expect(rest.status).toBe(400);
  });

  it("a 300-character e-mail at sign-up gets GoTrue's 400 validation_failed", async () => {
    const email = `${"a".repeat(290)}@example.test`;
    const { error } = await anonClient().auth.signUp({ email, password: "correct-horse-1" });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe("validation_failed");
    expect(error?.message).toBe("An email address is too long");
    const nul = await anonClient().auth.signUp({
      email: `a\u0000${uniqueEmail()}`,
      password: "correct-horse-1",
    });
    expect(nul.error?.status).toBe(400);
    expect(nul.error?.code).toBe("validation_failed");
  });

  it("an insert of more values than a statement takes gets 413 and stores nothing", async () => {
    const { client, user } = await demoUser("pro@demo.local");
    const other = (
      await anonClient().auth.signUp({ email: uniqueEmail("blocked"), password: "correct-horse-1" })
    ).data.user!;
    const rows = Array.from({ length: 33_000 }, () => ({
      blocker_id: user.id,
      blocked_id: other.id,
    }));
    const { error, status } = await client.from("user_blocks").insert(rows);
    expect(status).toBe(413);
    expect(error?.message).toMatch(/Too many values in one request/);
    expect(error?.hint).toMatch(/smaller batches/);
    const { count } = await client
      .from("user_blocks")
      .select("*", { count: "exact", head: true })
      .eq("blocked_id", other.id);
    expect(count).toBe(0);
  });

  it("a corrupted Stripe stand-in state file stops the start with the fix, and is kept", async () => {
    const dir = path.join(tmp, "stripe");
    mkdirSync(path.join(dir, "data"), { recursive: true });
    const file = path.join(dir, "data", "stripe.json");
    writeFileSync(file, '{"version":1,"customers":{"cus_1":');
    const err = await startStack({
      ...defaultOptions({}),
      apiPort: await freePort(),
      dataDir: path.join(dir, "data"),
      envFile: path.join(dir, ".env.local"),
      functions: false,
      quiet: true,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StackError);
    expect((err as StackError).code).toBe("STRIPE_STATE_CORRUPT");
    expect((err as Error).message).toContain(file);
    expect((err as Error).message).toContain("npm run db:reset");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe('{"version":1,"customers":{"cus_1":');
  });
});
