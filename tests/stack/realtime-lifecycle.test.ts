// The Realtime stand-in's life cycle on a stack of its own (started in this process, so the
// test can read its log, call private SQL and restart it): a scan's movers reach subscribers,
// a client survives a server restart, tokens expire, and malformed frames, unknown topics and
// silent clients are logged without harming anyone else.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient } from "@supabase/supabase-js";
import { SignJWT } from "jose";
import { freshDatabase } from "../support/postgres.ts";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import {
  moversTopic,
  type MoversBroadcast,
} from "../../supabase/functions/_shared/domain/realtime.ts";
import type { Database } from "../../web/src/lib/database.types.ts";
import { join, sleep, waitFor } from "../support/realtime.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "realtime-"));
const postgresUrl = inject("stack").postgresUrl;
const logs: string[] = [];
let options: Parameters<typeof startStack>[0];
let stack: Stack;

beforeAll(async () => {
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  options = {
    ...defaultOptions({}),
    databaseUrl: await freshDatabase(postgresUrl, "realtime_lifecycle"),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    functions: false,
    quiet: true,
    log: (l) => logs.push(l),
    realtimeIdleTimeoutMs: 1_500,
  };
  stack = await startStack(options);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

async function user(email: string) {
  const client = createClient<Database>(stack.url, stack.secrets.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: {
      transport: WebSocket as never,
      heartbeatIntervalMs: 500,
      reconnectAfterMs: () => 200,
    },
  });
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD });
  expect(error).toBeNull();
  return client;
}

const publishMovers = () =>
  stack.db.query<{ sent: number }>(
    `select private.broadcast_movers('-infinity'::timestamptz) as sent`,
  );

function rawSocket(): Promise<{ ws: WebSocket; frames: unknown[] }> {
  const url = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${stack.secrets.publishableKey}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(String(d))));
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve({ ws, frames }));
    ws.once("error", reject);
  });
}

describe("movers of a scan", () => {
  it("reach each subscriber on the windows its plan offers, once per window", async () => {
    const enterprise = await user("enterprise@demo.local");
    const basic = await user("basic@demo.local");
    const e0 = await join(enterprise, moversTopic(0));
    const e30 = await join(enterprise, moversTopic(30));
    const b30 = await join(basic, moversTopic(30));
    expect([e0.status, e30.status, b30.status]).toEqual(["SUBSCRIBED", "SUBSCRIBED", "SUBSCRIBED"]);

    const [{ sent }] = (await publishMovers()) as [{ sent: number }];
    expect(sent).toBe(7);
    for (const [j, w] of [
      [e0, 0],
      [e30, 30],
      [b30, 30],
    ] as const) {
      const got = await waitFor(() => j.events.find((e) => e.event === "movers"));
      const body = got.payload as unknown as MoversBroadcast;
      expect(body.window).toBe(w);
      expect(body.entries.length).toBeGreaterThan(0);
      expect(body.entries.every((m) => m.window_used === w)).toBe(true);
    }
    await sleep(200);
    expect(b30.events).toHaveLength(1);
    await enterprise.removeAllChannels();
    await basic.removeAllChannels();
  });
});

describe("tokens that expire", () => {
  it("close the channel with a system message when they run out", async () => {
    const pro = await user("pro@demo.local");
    const { data } = await pro.auth.getUser();
    const token = await new SignJWT({
      sub: data.user!.id,
      role: "authenticated",
      aud: "authenticated",
    })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(new TextEncoder().encode(stack.secrets.jwtSecret));
    await pro.realtime.setAuth(token);
    const ch = pro.channel(moversTopic(30), { config: { private: true } });
    const system: Record<string, unknown>[] = [];
    ch.on("system", {}, (p: Record<string, unknown>) => system.push(p));
    const statuses: string[] = [];
    await new Promise<void>((resolve) =>
      ch.subscribe((s) => {
        statuses.push(s);
        if (s === "SUBSCRIBED") resolve();
      }),
    );
    await waitFor(() => statuses.includes("CLOSED"), 6_000);
    expect(system[0]).toMatchObject({ status: "error", extension: "system" });
    expect(String(system[0]!.message)).toMatch(/Token has expired/);
    await pro.removeAllChannels();
  });
});

describe("robustness", () => {
  it("logs malformed frames and unknown topics, and keeps answering", async () => {
    const { ws, frames } = await rawSocket();
    ws.send("this is not a frame");
    ws.send("[1,2,3]");
    ws.send(Buffer.from([9, 0, 0, 0, 0, 0, 1]), { binary: true });
    ws.send(JSON.stringify([null, "1", "realtime:never-joined", "broadcast", { event: "x" }]));
    ws.send(JSON.stringify([null, "2", "phoenix", "heartbeat", {}]));
    await waitFor(() => frames.length >= 2);
    expect(frames).toEqual([
      [
        null,
        "1",
        "realtime:never-joined",
        "phx_reply",
        { status: "error", response: { reason: "unmatched topic" } },
      ],
      [null, "2", "phoenix", "phx_reply", { status: "ok", response: {} }],
    ]);
    expect(logs.filter((l) => l.includes("ignored a malformed frame"))).toHaveLength(3);
    expect(logs.some((l) => l.includes("realtime:never-joined, which it has not joined"))).toBe(
      true,
    );
    ws.close();
  });

  it("closes a client that stops heart-beating, and logs it", async () => {
    const { ws } = await rawSocket();
    const closed = new Promise<void>((r) => ws.once("close", () => r()));
    await closed;
    expect(logs.some((l) => /closing socket #\d+: no message or heartbeat/.test(l))).toBe(true);
  });

  it("refuses connections without a valid API key", async () => {
    const ws = new WebSocket(
      `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=nope&vsn=2.0.0`,
    );
    const status = await new Promise<number>((resolve) =>
      ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(401);
  });
});

describe("a server restart", () => {
  it("is survived: the client reconnects, rejoins and receives what follows", async () => {
    const enterprise = await user("enterprise@demo.local");
    await enterprise.realtime.setAuth();
    const statuses: string[] = [];
    const events: { event: string; payload: unknown }[] = [];
    const channel = enterprise
      .channel(moversTopic(5), { config: { private: true } })
      .on("broadcast", { event: "movers" }, (m) => events.push(m as never));
    channel.subscribe((status) => statuses.push(status));
    await waitFor(() => statuses.includes("SUBSCRIBED"));

    await stack.stop();
    await sleep(300);
    stack = await startStack(options);
    // realtime-js reconnects the socket and rejoins the channel on its own, and reports the
    // rejoin to the subscribe callback again: the SPA's hooks refetch on that second SUBSCRIBED.
    await waitFor(() => statuses.filter((s) => s === "SUBSCRIBED").length === 2, 15_000);
    expect(stack.realtime.stats().subscriptions).toBe(1);
    await publishMovers();
    const got = await waitFor(() => events[0], 5_000);
    expect((got.payload as MoversBroadcast).window).toBe(5);
    await enterprise.removeAllChannels();
  });
});
