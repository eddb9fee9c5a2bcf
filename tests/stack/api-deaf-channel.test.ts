// Live delivery that cannot go silent (issue 30): the /api function shares one Realtime channel
// per topic among its streams and probes it (API_REALTIME_PROBE_SECONDS). Here the Realtime
// stand-in forgets every subscription while the sockets stay up — the channel is deaf, with
// nothing closed and every heartbeat answered — and the chat stream must get its messages again
// without the client doing anything. The stack runs in a child process (steered over IPC) with
// a one-second probe, so the test can run SQL as the owner and deafen Realtime.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { type OpenStream, openStream } from "../support/api.ts";
import { freshDatabase } from "../support/postgres.ts";
import { startStackProcess, type StackProcess } from "../support/stack-process.ts";

// A seeded group the demo admin belongs to (supabase/seed.sql).
const GROUP = "10000000-0000-4000-8000-000000000003";
const ADMIN_ID = "00000000-0000-4000-8000-000000000005";

const tmp = mkdtempSync(path.join(tmpdir(), "api-deaf-"));
let stack: StackProcess;
let stream: OpenStream | undefined;

beforeAll(async () => {
  const databaseUrl = await freshDatabase(inject("stack").postgresUrl, "api_deaf_channel");
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  stack = await startStackProcess(tmp, databaseUrl, {
    functions: true,
    captureOutput: true,
    log: true,
    env: { API_REALTIME_PROBE_SECONDS: "1" },
  });
}, 240_000);
afterAll(async () => {
  stream?.close();
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function adminBearer(): Promise<string> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: stack.publishableKey, "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@demo.local", password: DEMO_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A chat message written by the owner, as the admin: the database broadcasts it to the group. */
async function post(content: string): Promise<string> {
  const [row] = await stack.sql<{ id: string }>(
    "insert into public.messages (group_id, sender_id, content) values ($1, $2, $3) returning id",
    [GROUP, ADMIN_ID, content],
  );
  return row!.id;
}

type Event = { type?: string; id?: string };

it("a deaf shared channel is noticed and rejoined: the stream gets messages again", async () => {
  stream = await openStream(`/chat/stream?groupId=${GROUP}`, {
    url: stack.url,
    auth: { bearer: await adminBearer() },
  });
  expect(stream.res.status).toBe(200);
  await stream.next((e) => (e.data as Event)?.type === "connected");

  const before = await post("heard before");
  const first = await stream.next((e) => (e.data as Event)?.type === "message", 30_000);
  expect((first.data as { id: string }).id).toBe(before);

  await stack.deafen();
  // Messages keep coming; once the hub has rejoined, one of them reaches the stream live.
  const sent: string[] = [];
  let heard: string | undefined;
  for (let i = 0; i < 30 && heard === undefined; i++) {
    sent.push(await post(`after the fault #${i}`));
    try {
      const e = await stream.next(
        (ev) => (ev.data as Event)?.type === "message" && sent.includes((ev.data as Event).id!),
        1_000,
      );
      heard = (e.data as Event).id;
    } catch {
      // Not yet: the channel is still deaf.
    }
  }
  expect(sent).toContain(heard);
  // The hub said why it rejoined (realtime-hub.ts), once per deaf topic.
  expect(stack.output()).toMatch(/went deaf \(probe \S+ not echoed within 2000 ms\)/);
}, 120_000);
