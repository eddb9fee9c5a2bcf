// One Realtime connection for every stream of an instance: streams of a topic share a channel,
// the channel is left with its last stream, a refused join fails only that topic, and a channel
// the server closes ends its streams.
import { deepStrictEqual, rejects, strictEqual as assertEquals } from "node:assert/strict";
import type { SupabaseClient } from "@supabase/supabase-js";
import { HttpError } from "../_shared/http.ts";
import { createHub, type HubMessage } from "./realtime-hub.ts";

type Status = "SUBSCRIBED" | "CHANNEL_ERROR" | "CLOSED" | "TIMED_OUT";

/** A fake supabase-js client: records channels; the test decides how joins answer. */
function fakeClient(answer: (topic: string) => Status) {
  const channels = new Map<
    string,
    { emit(m: HubMessage): void; status(s: Status): void; removed: boolean }
  >();
  let created = 0;
  const client = {
    channel(topic: string) {
      let handler: (m: unknown) => void = () => {};
      let onStatus: (s: Status, err?: Error) => void = () => {};
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
      };
      channels.set(topic, {
        emit: (m) => handler({ type: "broadcast", event: m.event, payload: m.payload }),
        status: (s) => onStatus(s),
        removed: false,
      });
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

Deno.test("a refused join rejects with 403; a timeout with 503; the topic can be tried again", async () => {
  let answer: Status = "CHANNEL_ERROR";
  const hub = createHub(fakeClient(() => answer).make);
  const noop = { onMessage() {}, onEnd() {} };
  await rejects(
    hub.subscribe("group:x", noop, 1000),
    (e) => e instanceof HttpError && e.status === 403,
  );
  answer = "TIMED_OUT";
  await rejects(
    hub.subscribe("group:x", noop, 1000),
    (e) => e instanceof HttpError && e.status === 503,
  );
  answer = "SUBSCRIBED";
  await hub.subscribe("group:x", noop, 1000);
  assertEquals(hub.stats().listeners, 1);
});

Deno.test("a channel the server closes ends its streams", async () => {
  const fake = fakeClient(() => "SUBSCRIBED");
  const hub = createHub(fake.make);
  const ended: string[] = [];
  await hub.subscribe("group:1", { onMessage() {}, onEnd: (r) => ended.push(r) }, 1000);
  fake.channels.get("group:1")!.status("CLOSED");
  assertEquals(ended.length, 1);
  deepStrictEqual(hub.stats(), { connections: 1, channels: 0, listeners: 0 });
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
