// One Realtime connection for every stream of an instance: streams of a topic share a channel,
// the channel is left with its last stream, a refused join fails only that topic, a channel the
// server closes or that stops hearing (its probe is not echoed) is rejoined with its streams, and
// only a refused rejoin ends them.
import { deepStrictEqual, rejects, strictEqual as assertEquals } from "node:assert/strict";
import type { SupabaseClient } from "@supabase/supabase-js";
import { HttpError } from "../_shared/http.ts";
import { createHub, type HubMessage, PROBE_EVENT } from "./realtime-hub.ts";

type Status = "SUBSCRIBED" | "CHANNEL_ERROR" | "CLOSED" | "TIMED_OUT";

/** A fake supabase-js client: records channels; the test decides how joins answer. */
function fakeClient(answer: (topic: string) => Status) {
  const channels = new Map<
    string,
    {
      emit(m: HubMessage): void;
      status(s: Status): void;
      removed: boolean;
      /** A deaf channel hears nothing: not the server's broadcasts, not its own probes. */
      deaf: boolean;
      /** Broadcasts the hub sent on it (its probes). */
      sent: HubMessage[];
    }
  >();
  let created = 0;
  const client = {
    channel(topic: string) {
      let handler: (m: unknown) => void = () => {};
      let onStatus: (s: Status, err?: Error) => void = () => {};
      const fake = {
        emit: (m: HubMessage) => {
          if (!fake.deaf) handler({ type: "broadcast", event: m.event, payload: m.payload });
        },
        status: (s: Status) => onStatus(s),
        removed: false,
        deaf: false,
        sent: [] as HubMessage[],
      };
      const ch = {
        on(_type: string, _filter: unknown, cb: (m: unknown) => void) {
          handler = cb;
          return ch;
        },
        subscribe(cb: (s: Status, err?: Error) => void) {
          onStatus = cb;
          queueMicrotask(() => cb(answer(topic)));
          return ch;
        },
        // `broadcast.self`: the server echoes the sender's own broadcast back to it.
        send(m: { event: string; payload: unknown }) {
          fake.sent.push({ event: m.event, payload: m.payload });
          queueMicrotask(() => fake.emit({ event: m.event, payload: m.payload }));
          return Promise.resolve("ok");
        },
      };
      channels.set(topic, fake);
      return ch;
    },
    removeChannel(ch: unknown) {
      for (const entry of channels.values()) if (ch) entry.removed = true;
      return Promise.resolve("ok");
    },
  };
  return {
    make: () => {
      created++;
      return client as unknown as SupabaseClient;
    },
    channels,
    created: () => created,
  };
}

Deno.test("streams of one topic share one channel on one connection", async () => {
  const fake = fakeClient(() => "SUBSCRIBED");
  const hub = createHub(fake.make);
  const got: string[] = [];
  const listener = (name: string) => ({
    onMessage: (m: HubMessage) => got.push(`${name}:${m.event}`),
    onEnd: () => got.push(`${name}:end`),
  });
  const a = await hub.subscribe("group:1", listener("a"), 1000);
  const b = await hub.subscribe("group:1", listener("b"), 1000);
  await hub.subscribe("ticket:2", listener("c"), 1000);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 2, listeners: 3 });
  assertEquals(fake.created(), 1);
  fake.channels.get("group:1")!.emit({ event: "INSERT", payload: {} });
  deepStrictEqual(got, ["a:INSERT", "b:INSERT"]);
  a.close();
  a.close();
  deepStrictEqual(hub.stats().channels, 2);
  b.close();
  deepStrictEqual(hub.stats(), { connections: 1, channels: 1, listeners: 1 });
});

Deno.test("a refused join rejects with 403 at once; a join that keeps timing out with 503 and Retry-After; the topic can be tried again", async () => {
  let answer: Status = "CHANNEL_ERROR";
  let joins = 0;
  const hub = createHub(
    fakeClient(() => {
      joins++;
      return answer;
    }).make,
    { joinWaitMs: 60, joinBackoffMs: 10, joinBackoffMaxMs: 20, log: () => {} },
  );
  const noop = { onMessage() {}, onEnd() {} };
  await rejects(
    hub.subscribe("group:x", noop, 10),
    (e) => e instanceof HttpError && e.status === 403 && e.code === "stream_refused",
  );
  assertEquals(joins, 1);
  answer = "TIMED_OUT";
  joins = 0;
  const started = Date.now();
  await rejects(
    hub.subscribe("group:x", noop, 10),
    (e) =>
      e instanceof HttpError && e.status === 503 && e.code === "realtime_unavailable" &&
      e.headers["Retry-After"] === "5",
  );
  // Tried more than once, and gave up within the bound (60 ms plus at most one last pause).
  assertEquals(joins >= 2, true);
  assertEquals(Date.now() - started < 1000, true);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 0, listeners: 0 });
  answer = "SUBSCRIBED";
  await hub.subscribe("group:x", noop, 1000);
  assertEquals(hub.stats().listeners, 1);
});

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("a channel the server closes is rejoined with its streams; a refused rejoin ends them", async () => {
  let answer: Status = "SUBSCRIBED";
  const fake = fakeClient(() => answer);
  const logged: string[] = [];
  const hub = createHub(fake.make, { log: (line) => logged.push(line) });
  const got: string[] = [];
  const ended: string[] = [];
  await hub.subscribe("group:1", {
    onMessage: (m) => got.push(m.event),
    onEnd: (r) => ended.push(r),
  }, 1000);
  const first = fake.channels.get("group:1")!;
  first.status("CLOSED");
  await tick(5);
  const second = fake.channels.get("group:1")!;
  assertEquals(second === first, false);
  second.emit({ event: "INSERT", payload: {} });
  deepStrictEqual(got, ["INSERT"]);
  assertEquals(ended.length, 0);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 1, listeners: 1 });
  deepStrictEqual(logged, [
    "[api] realtime channel group:1 was closed; rejoining with 1 stream(s)",
  ]);

  answer = "CHANNEL_ERROR";
  second.status("CLOSED");
  await tick(5);
  assertEquals(ended.length, 1);
  assertEquals(ended[0]!.startsWith("The live stream was refused"), true);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 0, listeners: 0 });
});

/**
 * A probe clock the test turns by hand: `turn()` runs one probe round now, as the interval would,
 * so the test does not depend on how fast timers fire on a busy machine.
 */
function manualClock() {
  const runs = new Set<() => void>();
  return {
    every: (run: () => void) => {
      runs.add(run);
      return () => runs.delete(run);
    },
    running: () => runs.size,
    turn: () => {
      for (const run of [...runs]) run();
    },
  };
}

/** Lets every pending promise reaction (joins, echoes, leaves) run; no real time passes. */
const settle = () => new Promise((r) => setTimeout(r, 0));

Deno.test("a channel that stops hearing its own probes is rejoined, and its streams hear again", async () => {
  const fake = fakeClient(() => "SUBSCRIBED");
  const logged: string[] = [];
  const clock = manualClock();
  const hub = createHub(fake.make, {
    probeMs: 20,
    every: clock.every,
    log: (line) => logged.push(line),
  });
  const got: string[] = [];
  const ended: string[] = [];
  const sub = await hub.subscribe("market:movers:15", {
    onMessage: (m) => got.push(m.event),
    onEnd: (r) => ended.push(r),
  }, 1000);
  const first = fake.channels.get("market:movers:15")!;
  assertEquals(clock.running(), 1);
  // Three rounds: each probe goes out and comes back before the next, so the channel stays and
  // no probe reaches the stream.
  for (let round = 0; round < 3; round++) {
    clock.turn();
    await settle();
  }
  assertEquals(fake.channels.get("market:movers:15"), first);
  assertEquals(first.sent.length, 3);
  assertEquals(first.sent.every((m) => m.event === PROBE_EVENT), true);
  deepStrictEqual(got, []);
  assertEquals(logged.length, 0);

  first.deaf = true;
  first.emit({ event: "movers", payload: {} });
  deepStrictEqual(got, []);
  // The unanswered probe goes out, gets one round of grace, and the next round rejoins.
  clock.turn();
  await settle();
  clock.turn();
  await settle();
  assertEquals(fake.channels.get("market:movers:15"), first);
  assertEquals(first.removed, false);
  clock.turn();
  await settle();
  await settle();
  const second = fake.channels.get("market:movers:15")!;
  assertEquals(second === first, false);
  assertEquals(first.removed, true);
  second.emit({ event: "movers", payload: {} });
  deepStrictEqual(got, ["movers"]);
  assertEquals(ended.length, 0);
  assertEquals(logged.length, 1);
  assertEquals(
    /^\[api\] realtime channel market:movers:15 went deaf \(probe \S+ not echoed within 40 ms\); rejoining with 1 stream\(s\)$/
      .test(logged[0]!),
    true,
  );
  // The rejoined channel is probed like the first, and its echo keeps it.
  clock.turn();
  await settle();
  clock.turn();
  await settle();
  clock.turn();
  await settle();
  assertEquals(fake.channels.get("market:movers:15"), second);
  sub.close();
  deepStrictEqual(hub.stats(), { connections: 1, channels: 0, listeners: 0 });
  assertEquals(clock.running(), 0);
});

Deno.test("a stream arriving while its topic's channel is being left waits for a fresh channel", async () => {
  const fake = fakeClient(() => "SUBSCRIBED");
  let release: () => void = () => {};
  const client = fake.make() as unknown as { removeChannel(ch: unknown): Promise<string> };
  const removed: unknown[] = [];
  client.removeChannel = (ch) => {
    removed.push(ch);
    return new Promise((r) => (release = () => r("ok")));
  };
  const hub = createHub(() => client as unknown as SupabaseClient);
  const noop = { onMessage() {}, onEnd() {} };
  (await hub.subscribe("group:1", noop, 1000)).close();
  let joined = false;
  const next = hub.subscribe("group:1", noop, 1000).then(() => (joined = true));
  await new Promise((r) => setTimeout(r, 10));
  assertEquals(joined, false);
  release();
  await next;
  assertEquals(joined, true);
  assertEquals(removed.length, 1);
});

Deno.test("a join that times out is tried again with backoff; the streams waiting on it stay and hear once joined", async () => {
  let timeouts = 3;
  let joins = 0;
  const fake = fakeClient(() => {
    joins++;
    return timeouts-- > 0 ? "TIMED_OUT" : "SUBSCRIBED";
  });
  const logged: string[] = [];
  const hub = createHub(fake.make, {
    joinWaitMs: 5_000,
    joinBackoffMs: 5,
    joinBackoffMaxMs: 20,
    log: (line) => logged.push(line),
  });
  const got: string[] = [];
  const ended: string[] = [];
  const listener = (name: string) => ({
    onMessage: (m: HubMessage) => got.push(`${name}:${m.event}`),
    onEnd: (r: string) => ended.push(`${name}:${r}`),
  });
  // A burst: every stream arrives before the first join has answered.
  const subs = await Promise.all(
    ["a", "b", "c"].map((name) => hub.subscribe("market:movers:15", listener(name), 50)),
  );
  // One channel at a time: three timed-out attempts and the one that joined, shared by all.
  assertEquals(joins, 4);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 1, listeners: 3 });
  fake.channels.get("market:movers:15")!.emit({ event: "movers", payload: {} });
  deepStrictEqual(got, ["a:movers", "b:movers", "c:movers"]);
  deepStrictEqual(ended, []);
  assertEquals(logged.length, 4);
  assertEquals(
    /^\[api\] realtime channel market:movers:15 join timed_out \(attempt 1\); trying again in \d+ ms with 3 stream\(s\) waiting$/
      .test(logged[0]!),
    true,
  );
  assertEquals(
    /^\[api\] realtime channel market:movers:15 joined on attempt 4 after \d+ ms$/.test(logged[3]!),
    true,
  );
  for (const s of subs) s.close();
  deepStrictEqual(hub.stats(), { connections: 1, channels: 0, listeners: 0 });
});

Deno.test("a stream arriving while a join is being retried waits for the same join", async () => {
  let timeouts = 2;
  let joins = 0;
  const hub = createHub(
    fakeClient(() => {
      joins++;
      return timeouts-- > 0 ? "TIMED_OUT" : "SUBSCRIBED";
    }).make,
    { joinWaitMs: 5_000, joinBackoffMs: 20, joinBackoffMaxMs: 20, log: () => {} },
  );
  const first = hub.subscribe("group:1", { onMessage() {}, onEnd() {} }, 50);
  await tick(10);
  const second = hub.subscribe("group:1", { onMessage() {}, onEnd() {} }, 50);
  await Promise.all([first, second]);
  assertEquals(joins, 3);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 1, listeners: 2 });
});
