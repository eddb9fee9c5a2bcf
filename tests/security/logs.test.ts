// Item 10 of the hardening issue: every refused query logged its SQL text and parameters (about
// 1.3 KB each), and a failed sign-up logged the e-mail and the bcrypt hash. Now a refusal is one
// line: no SQL, no parameters, no hashes or tokens.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";

let stack: StackProcess;
const tmp = mkdtempSync(path.join(tmpdir(), "security-logs-"));

beforeAll(async () => {
  stack = await startStackProcess(tmp, undefined, { captureOutput: true });
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}${route}`, {
    method: "POST",
    headers: { apikey: stack.publishableKey, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("the stack's log", () => {
  it("holds one line per refused query, without SQL, parameters, hashes or e-mail addresses", async () => {
    const marker = "secret-marker-7f3a9c";
    const email = `log-${Date.now()}@example.test`;
    const signUp = await post("/auth/v1/signup", { email, password: "correct-horse-1" });
    const { access_token: token } = (await signUp.json()) as { access_token: string };
    const before = stack.output().length;

    // Refused by privileges/RLS (anon), by a constraint and by a trigger rule.
    await post("/rest/v1/user_blocks", { blocked_id: marker });
    await post(
      "/rest/v1/support_tickets",
      { subject: marker, message: marker },
      {
        authorization: `Bearer ${token}`,
      },
    );
    await post(
      "/rest/v1/rpc/promote_self",
      { secret: marker },
      { authorization: `Bearer ${token}` },
    );
    // Sign-ups the database cannot store (they logged the row, bcrypt hash included).
    await post("/auth/v1/signup", { email: `${"a".repeat(300)}@example.test`, password: marker });
    await post("/auth/v1/signup", { email: `a\u0000${email}`, password: marker });
    await post("/auth/v1/signup", { email, password: `${marker}-2` });
    await new Promise((r) => setTimeout(r, 300));

    const log = stack.output().slice(before);
    expect(log).not.toContain(marker);
    expect(log).not.toMatch(/\$2[aby]\$\d\d\$/);
    expect(log).not.toMatch(/insert into|select .* from/i);
    expect(log).not.toContain(token);
    for (const line of log.split("\n").filter(Boolean)) expect(line.length).toBeLessThan(300);
  });
});
