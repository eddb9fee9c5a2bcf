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

/** Waits until the log stops growing (the stack writes a refusal's line after answering). */
async function settledLog(): Promise<string> {
  let last = -1;
  for (let i = 0; i < 40 && stack.output().length !== last; i++) {
    last = stack.output().length;
    await new Promise((r) => setTimeout(r, 100));
  }
  return stack.output();
}

/** Runs one refused call and returns its answer and the log lines it added. */
async function refused(call: () => Promise<Response>) {
  const before = (await settledLog()).length;
  const res = await call();
  const body = (await res.json()) as Record<string, unknown>;
  const lines = (await settledLog()).slice(before).split("\n").filter(Boolean);
  return { status: res.status, body, lines };
}

describe("the stack's log", () => {
  it("holds one line per refused query, without SQL, parameters, hashes or e-mail addresses", async () => {
    const marker = "secret-marker-7f3a9c";
    const email = `log-${Date.now()}@example.test`;
    const signUp = await post("/auth/v1/signup", { email, password: "correct-horse-1" });
    const { access_token: token } = (await signUp.json()) as { access_token: string };
    const start = (await settledLog()).length;
    const auth = { authorization: `Bearer ${token}` };

    // Refused by the database: a value of the wrong type, a check constraint, a trigger rule.
    const badValue = await refused(() => post("/rest/v1/user_blocks", { blocked_id: marker }));
    expect(badValue.status).toBe(400);
    expect(badValue.body.code).toBe("22P02");
    expect(badValue.lines).toEqual(['refused 22P02: invalid input syntax for type uuid: "…"']);

    const ticket = await refused(() =>
      post("/rest/v1/support_tickets", { subject: marker, content: "too short" }, auth),
    );
    expect(ticket.status).toBe(400);
    expect(ticket.body.code).toBe("23514");
    expect(ticket.lines).toHaveLength(1);
    expect(ticket.lines[0]).toMatch(/^refused 23514: .*support_tickets_content_check/);

    const promote = await refused(() =>
      post("/rest/v1/rpc/promote_self", { secret: marker }, auth),
    );
    expect(promote.status).toBe(403);
    expect(promote.body.code).toBe("PT403");
    expect(promote.lines).toEqual(["refused PT403: Admin self-promotion is disabled"]);

    // Nothing of the refused ticket was stored.
    const tickets = await fetch(`${stack.url}/rest/v1/support_tickets?select=id`, {
      headers: { apikey: stack.publishableKey, ...auth },
    });
    expect(await tickets.json()).toEqual([]);

    // Sign-ups refused before the database (they logged the row, bcrypt hash included): the
    // caller hears why, the log stays quiet.
    const long = await refused(() =>
      post("/auth/v1/signup", { email: `${"a".repeat(300)}@example.test`, password: marker }),
    );
    expect([long.status, long.body.error_code]).toEqual([400, "validation_failed"]);
    const nul = await refused(() =>
      post("/auth/v1/signup", { email: `a\u0000${email}`, password: marker }),
    );
    expect([nul.status, nul.body.error_code]).toEqual([400, "validation_failed"]);
    const again = await refused(() => post("/auth/v1/signup", { email, password: `${marker}-2` }));
    expect([again.status, again.body.error_code]).toEqual([422, "user_already_exists"]);
    expect([...long.lines, ...nul.lines, ...again.lines]).toEqual([]);

    const log = stack.output().slice(start);
    expect(log).not.toContain(marker);
    expect(log).not.toMatch(/\$2[aby]\$\d\d\$/);
    expect(log).not.toMatch(/insert into|select .* from/i);
    expect(log).not.toContain(token);
    expect(log).not.toContain(email);
    for (const line of log.split("\n").filter(Boolean)) expect(line.length).toBeLessThan(300);
  });
});
