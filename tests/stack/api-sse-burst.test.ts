// A burst of /api/sse clients (issue 30): 100 streams connecting in the same instant all wait
// on the one join of their window's shared Realtime channel (realtime-hub.ts). A join the busy
// database does not answer in time is tried again while they wait, so every one of them gets
// its 200 and its `connected` event, and none a 503. Runs on PGlite and on PostgreSQL 15
// (STACK_DB).
import { expect, it } from "vitest";
import { demoUser, stackInfo } from "../support/clients.ts";

const CLIENTS = 100;

it(`${CLIENTS} simultaneous /api/sse connects all get 200 and their connected event`, async () => {
  const { client } = await demoUser("pro@demo.local");
  const token = (await client.auth.getSession()).data.session!.access_token;
  const { url, publishableKey } = stackInfo();
  const aborts = Array.from({ length: CLIENTS }, () => new AbortController());
  const outcomes = await Promise.all(
    aborts.map(async (ac) => {
      const res = await fetch(`${url}/api/sse`, {
        headers: { apikey: publishableKey, authorization: `Bearer ${token}` },
        signal: ac.signal,
      });
      if (res.status !== 200) {
        return { status: res.status, body: await res.text(), connected: false };
      }
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      const deadline = Date.now() + 60_000;
      while (!text.includes("event: connected") && Date.now() < deadline) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
      }
      return { status: 200, body: "", connected: text.includes("event: connected") };
    }),
  ).finally(() => {
    for (const ac of aborts) ac.abort();
  });
  const refused = outcomes.filter((o) => o.status !== 200);
  // On failure, the statuses and bodies say what went wrong (e.g. 503 realtime_unavailable).
  expect(refused).toEqual([]);
  expect(outcomes.filter((o) => o.connected)).toHaveLength(CLIENTS);
}, 180_000);
