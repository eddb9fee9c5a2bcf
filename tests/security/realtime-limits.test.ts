// Issue 12, item 7: join storms. Each private join is a database transaction, and there was no
// limit per client: 10 sockets x 100 joins took REST latency from 10 ms to seconds. The
// stand-in now applies hosted Realtime's limits and messages: channel joins per second per
// client (ClientJoinRateLimitReached), channels per connection (ChannelRateLimitReached) and
// connections per client (ConnectionRateLimitReached); authorisations run one or a few at a
// time so REST keeps its share of the database. Figures: decision 0016 (no timing asserted).
import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { demoUser, signedInUser, stackInfo, type Client } from "../support/clients.ts";
import { join, sleep } from "../support/realtime.ts";

const CHANNELS_PER_CONNECTION = 100;
const CONNECTIONS_PER_CLIENT = 200;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.removeAllChannels()));
  // Let the client's join bucket refill before the next test.
  await sleep(1_500);
});

describe("Realtime limits per client", () => {
  it("refuses joins beyond the per-second rate with ClientJoinRateLimitReached, and REST still answers", async () => {
    const users = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    clients.push(...users.map((u) => u.client));
    // The stand-in authorises joins a few at a time, so the last of 240 waits behind the others:
    // on a busy machine longer than supabase-js's default 10 s, which is not what this test is about.
    const storm = users.flatMap((u) =>
      Array.from({ length: 80 }, () =>
        join(u.client, `group:${randomUUID()}`, { timeoutMs: 45_000 }),
      ),
    );
    const { client: rest } = await demoUser("basic@demo.local");
    const during = rest.from("profiles").select("id").limit(1);
    const [results, answer] = await Promise.all([Promise.all(storm), during]);

    expect(answer.error).toBeNull();
    const reasons = results.map((r) => r.error?.split(":")[0]);
    const limited = results.filter((r) => r.error?.startsWith("ClientJoinRateLimitReached"));
    expect(limited.length).toBeGreaterThan(0);
    for (const r of limited) {
      expect(r.status).toBe("CHANNEL_ERROR");
      expect(r.error).toBe("ClientJoinRateLimitReached: Too many joins per second");
    }
    // The others were authorised (and refused: nobody is a member of a random group).
    expect(new Set(reasons)).toEqual(new Set(["ClientJoinRateLimitReached", "Unauthorized"]));
    // Every one of the 240 joins got exactly one of the two answers (none timed out or vanished).
    const unauthorized = results.filter((r) => r.error?.startsWith("Unauthorized"));
    for (const r of unauthorized) expect(r.status).toBe("CHANNEL_ERROR");
    expect(limited.length + unauthorized.length).toBe(3 * 80);
    expect(unauthorized.length).toBeGreaterThan(0);
  }, 120_000);

  it(`refuses a channel beyond ${CHANNELS_PER_CONNECTION} on one connection with ChannelRateLimitReached`, async () => {
    const { client } = await signedInUser();
    clients.push(client);
    for (let batch = 0; batch < 2; batch++) {
      const half = await Promise.all(
        Array.from({ length: CHANNELS_PER_CONNECTION / 2 }, (_, i) =>
          join(client, `lobby-${batch}-${i}`, { private: false }),
        ),
      );
      expect(half.every((j) => j.status === "SUBSCRIBED")).toBe(true);
      await sleep(1_100);
    }
    const extra = await join(client, "lobby-one-too-many", { private: false });
    expect(extra.status).toBe("CHANNEL_ERROR");
    expect(extra.error).toBe("ChannelRateLimitReached: Too many channels");
  });

  it(`refuses a connection beyond ${CONNECTIONS_PER_CLIENT} from one client with ConnectionRateLimitReached`, async () => {
    const { url, publishableKey } = stackInfo();
    const address = `${url.replace("http", "ws")}/realtime/v1/websocket?apikey=${publishableKey}&vsn=2.0.0`;
    const open: WebSocket[] = [];
    let refused: { status: number; body: string } | null = null;
    try {
      while (!refused && open.length <= CONNECTIONS_PER_CLIENT + 10) {
        refused = await new Promise<{ status: number; body: string } | null>((resolve, reject) => {
          const ws = new WebSocket(address);
          ws.on("open", () => {
            open.push(ws);
            resolve(null);
          });
          ws.on("unexpected-response", (_req, res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += chunk.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          });
          ws.on("error", reject);
        });
      }
    } finally {
      for (const ws of open) ws.terminate();
    }
    expect(refused).not.toBeNull();
    expect(open.length).toBeLessThanOrEqual(CONNECTIONS_PER_CLIENT);
    expect(refused!.status).toBe(429);
    expect(JSON.parse(refused!.body)).toEqual({
      message: "ConnectionRateLimitReached: Too many connected users",
    });
  });
});
