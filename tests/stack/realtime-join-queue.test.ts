// The Realtime stand-in's join authorisations under load (issue 30). Each private join is an
// RLS check in a database transaction, run maxConcurrentAuthorizations at a time. Here a second
// stand-in runs on the stack's database through a wrapper that counts every authorisation
// transaction by topic and can hold them back, as a busy database does; clients are the official
// supabase-js. Joins that queue behind a held check:
// - identical ones (same topic, role and claims) are answered by ONE check when it is released,
//   also when they arrive while that check holds the slot but waits for the database;
// - a refused identity still gets its refusal, an allowed one its join, each by its own check;
// - a join the client gave up on and left (realtime-js's timeout, then removeChannel, as the
//   api function's shared channel does before retrying) is never checked, so the retry is
//   answered by the first check, not queued behind a dead one.
// PGlite and PostgreSQL 15 (STACK_DB).
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, afterEach, beforeAll, expect, inject, it } from "vitest";
import { defaultOptions } from "../../devstack/config.ts";
import type { Db } from "../../devstack/database.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { RealtimeServer } from "../../devstack/realtime/server.ts";
import { freePort, startStack, type Stack } from "../../devstack/stack.ts";
import { moversTopic } from "../../supabase/functions/_shared/domain/realtime.ts";
import { freshDatabase } from "../support/postgres.ts";
import { join, waitFor } from "../support/realtime.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "realtime-join-queue-"));
const postgresUrl = inject("stack").postgresUrl;
let stack: Stack;
let rt: RealtimeServer;
let server: Server;
let rtUrl: string;
let enterpriseToken: string;
const clients: SupabaseClient[] = [];

/** Authorisation transactions begun against the database, by topic. */
const checked = new Map<string, number>();
/** While set, authorisations wait for it before they begin (a busy database). */
let held: { promise: Promise<void>; release: () => void } | null = null;

function hold() {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  held = { promise, release };
  return () => {
    held = null;
    release();
  };
}

function countingDb(db: Db): Db {
  return {
    ...db,
    query: (sql, params) => db.query(sql, params),
    async transaction(fn) {
      if (held) await held.promise;
      return db.transaction((tx) => {
        let first = true;
        return fn({
          query(sql, params) {
            if (first && sql.includes("realtime.messages")) {
              const topic = String(params?.[0]);
              checked.set(topic, (checked.get(topic) ?? 0) + 1);
            }
            first = false;
            return tx.query(sql, params);
          },
        });
      });
    },
  };
}

beforeAll(async () => {
  mkdirSync(path.join(tmp, "data"), { recursive: true });
  stack = await startStack({
    ...defaultOptions({}),
    databaseUrl: await freshDatabase(postgresUrl, "realtime_join_queue"),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    functions: false,
    cron: false,
    quiet: true,
  });
  rt = new RealtimeServer({
    db: countingDb(stack.db),
    jwtSecret: stack.secrets.jwtSecret,
    publishableKey: stack.secrets.publishableKey,
    secretKey: stack.secrets.secretKey,
    log: () => {},
    maxConcurrentAuthorizations: 1,
  });
  server = createServer((_, res) => res.writeHead(404).end());
  server.on("upgrade", (req, socket, head) => rt.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  rtUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;

  const auth = createClient(stack.url, stack.secrets.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { data, error } = await auth.auth.signInWithPassword({
    email: "enterprise@demo.local",
    password: DEMO_PASSWORD,
  });
  expect(error).toBeNull();
  enterpriseToken = data.session!.access_token;
});

afterEach(async () => {
  held?.release();
  held = null;
  checked.clear();
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
});

afterAll(async () => {
  await rt?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  await stack?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

/** A supabase-js client of its own (its own socket) on the counting stand-in. */
function realtimeClient(token?: string): SupabaseClient {
  const client = createClient(rtUrl, stack.secrets.publishableKey, {
    ...(token ? { accessToken: async () => token } : {}),
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never, heartbeatIntervalMs: 1_000 },
  });
  clients.push(client);
  return client;
}

/**
 * Holds the stand-in's only authorisation slot with a check of `topic` held at the database;
 * `since()` gives the authorisation figures since then.
 */
async function occupySlot(topic: string) {
  const release = hold();
  const blocker = join(realtimeClient(enterpriseToken), topic, { timeoutMs: 60_000 });
  await waitFor(() => rt.stats().authorizations.running === 1, 30_000);
  const before = rt.stats().authorizations;
  const since = () => {
    const now = rt.stats().authorizations;
    return {
      queued: now.queued,
      shared: now.shared - before.shared,
      skipped: now.skipped - before.skipped,
    };
  };
  return { release, blocker, since };
}

it("identical joins queued behind a busy database are answered by one authorisation", async () => {
  const { release, blocker, since } = await occupySlot(moversTopic(0));
  const JOINS = 8;
  const joins = Array.from({ length: JOINS }, () =>
    join(realtimeClient(enterpriseToken), moversTopic(30), { timeoutMs: 60_000 }),
  );
  // Every join has reached the stand-in and waits for the slot.
  await waitFor(() => since().queued + since().shared === JOINS, 30_000);
  release();
  expect((await blocker).status).toBe("SUBSCRIBED");
  const statuses = (await Promise.all(joins)).map((j) => j.status);
  expect(statuses).toEqual(Array.from({ length: JOINS }, () => "SUBSCRIBED"));
  expect(checked.get(moversTopic(30))).toBe(1);
  expect(rt.stats().subscriptions).toBe(JOINS + 1);
}, 120_000);

it("joins arriving while an identical check waits for the database share its verdict", async () => {
  // The held check is the subscriber's own join of the topic: it holds the slot, but its
  // queries have not begun, so what it decides is decided after the later joins arrived.
  const { release, blocker, since } = await occupySlot(moversTopic(30));
  const joins = Array.from({ length: 4 }, () =>
    join(realtimeClient(enterpriseToken), moversTopic(30), { timeoutMs: 60_000 }),
  );
  await waitFor(() => since().shared === 4, 30_000);
  release();
  expect((await blocker).status).toBe("SUBSCRIBED");
  expect((await Promise.all(joins)).map((j) => j.status)).toEqual([
    "SUBSCRIBED",
    "SUBSCRIBED",
    "SUBSCRIBED",
    "SUBSCRIBED",
  ]);
  expect(checked.get(moversTopic(30))).toBe(1);
}, 120_000);

it("a refused identity still gets its refusal when joins queue together; each identity is checked once", async () => {
  const { release, blocker, since } = await occupySlot(moversTopic(0));
  const refusedJoins = Array.from({ length: 4 }, () =>
    join(realtimeClient(), moversTopic(30), { timeoutMs: 60_000 }),
  );
  const allowed = join(realtimeClient(enterpriseToken), moversTopic(30), { timeoutMs: 60_000 });
  await waitFor(() => since().queued + since().shared === 5, 30_000);
  release();
  await blocker;
  for (const refused of await Promise.all(refusedJoins)) {
    expect(refused.status).toBe("CHANNEL_ERROR");
    expect(refused.error).toContain(
      `Unauthorized: You do not have permissions to read from this Channel topic: ${moversTopic(30)}`,
    );
  }
  expect((await allowed).status).toBe("SUBSCRIBED");
  // One check for the anonymous joins, one for the subscriber's.
  expect(checked.get(moversTopic(30))).toBe(2);
}, 120_000);

it("a join left after its timeout is never checked on its own: the retry shares its place in the queue", async () => {
  const { release, blocker, since } = await occupySlot(moversTopic(0));
  const client = realtimeClient(enterpriseToken);
  // realtime-js gives up on the join; join() then removes the channel, which sends phx_leave
  // with the join's ref and resolves once the stand-in has answered it.
  const first = await join(client, moversTopic(30), { timeoutMs: 200 });
  expect(first.status).toBe("TIMED_OUT");
  const retry = join(client, moversTopic(30), { timeoutMs: 60_000 });
  await waitFor(() => since().queued === 1 && since().shared === 1, 30_000);
  release();
  await blocker;
  expect((await retry).status).toBe("SUBSCRIBED");
  expect(checked.get(moversTopic(30))).toBe(1);
  expect(rt.stats().subscriptions).toBe(2);
}, 120_000);

it("a join left before its turn is not checked at all", async () => {
  const { release, blocker, since } = await occupySlot(moversTopic(0));
  // A public channel keeps the socket open once the private one is removed.
  const client = realtimeClient(enterpriseToken);
  expect((await join(client, "join-queue:first", { private: false })).status).toBe("SUBSCRIBED");
  const left = await join(client, moversTopic(30), { timeoutMs: 200 });
  expect(left.status).toBe("TIMED_OUT");
  expect(since().queued).toBe(1);
  // realtime-js answers the removal itself (the channel is not joined); a join on the same
  // socket, answered in order, shows the stand-in has read the leave.
  expect((await join(client, "join-queue:second", { private: false })).status).toBe("SUBSCRIBED");
  release();
  expect((await blocker).status).toBe("SUBSCRIBED");
  await waitFor(() => since().skipped === 1 && since().queued === 0, 30_000);
  expect(checked.get(moversTopic(30))).toBeUndefined();
  expect(checked.get(moversTopic(0))).toBe(1);
  expect(rt.stats().subscriptions).toBe(3);
}, 120_000);
