// Join storm: REST latency while sockets flood the Realtime stand-in with private joins (each a
// database transaction). Run: npx tsx tests/bench/join-storm.ts [pglite|postgres]. Prints the
// REST latency (p50/p95/max) before and during the storm and how the joins were answered.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import WebSocket from "ws";
import { defaultOptions } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { startTempPostgres } from "../support/postgres.ts";
import { percentile } from "./stats.ts";

const SOCKETS = Number(process.env.STORM_SOCKETS ?? 10);
const JOINS = Number(process.env.STORM_JOINS ?? 100);
const kind = process.argv[2] ?? "pglite";

const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `n=${s.length} p50=${percentile(s, 50).toFixed(1)} ms p95=${percentile(s, 95).toFixed(1)} ms max=${(s.at(-1) ?? NaN).toFixed(1)} ms`;
};

const pg = kind === "postgres" ? await startTempPostgres() : undefined;
const tmp = mkdtempSync(path.join(tmpdir(), "join-storm-"));
const stack = await startStack({
  ...defaultOptions({}),
  apiPort: await freePort(),
  dataDir: path.join(tmp, "data"),
  envFile: path.join(tmp, ".env.local"),
  databaseUrl: pg?.url,
  functions: false,
  cron: false,
  quiet: true,
});
try {
  const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
    body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
  });
  const token = ((await login.json()) as { access_token: string }).access_token;
  const rest = async () => {
    const t = performance.now();
    const res = await fetch(`${stack.url}/rest/v1/profiles?select=id,plan&limit=1`, {
      headers: { apikey: stack.secrets.publishableKey, authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    return performance.now() - t;
  };
  const sample = async (ms: number) => {
    const out: number[] = [];
    const until = Date.now() + ms;
    while (Date.now() < until) {
      out.push(await rest());
      await new Promise((r) => setTimeout(r, 10));
    }
    return out;
  };
  for (let i = 0; i < 20; i++) await rest(); // warm up
  const before = await sample(2_000);

  const url = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${stack.secrets.publishableKey}&vsn=2.0.0`;
  const replies = new Map<string, number>();
  let answered = 0;
  let refusedSockets = 0;
  const started = performance.now();
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      () =>
        new Promise<WebSocket | null>((resolve) => {
          const ws = new WebSocket(url);
          ws.on("open", () => resolve(ws));
          ws.on("unexpected-response", (_req, res) => {
            refusedSockets++;
            res.resume();
            resolve(null);
          });
          ws.on("error", () => resolve(null));
          ws.on("message", (data) => {
            const [, , , event, payload] = JSON.parse(String(data)) as [
              unknown,
              unknown,
              string,
              string,
              { status?: string; response?: { reason?: string } },
            ];
            if (event !== "phx_reply") return;
            answered++;
            const reason = payload.response?.reason?.split(":")[0] ?? payload.status ?? "?";
            replies.set(reason, (replies.get(reason) ?? 0) + 1);
          });
        }),
    ),
  );
  for (const ws of sockets) {
    if (!ws) continue;
    for (let j = 0; j < JOINS; j++) {
      const ref = String(j + 1);
      ws.send(
        JSON.stringify([
          ref,
          ref,
          `realtime:group:${randomUUID()}`,
          "phx_join",
          { config: { private: true, broadcast: {}, presence: {} }, access_token: token },
        ]),
      );
    }
  }
  const expected = sockets.filter(Boolean).length * JOINS;
  const during: number[] = [];
  while (answered < expected && performance.now() - started < 60_000) {
    during.push(await rest());
    await new Promise((r) => setTimeout(r, 10));
  }
  const stormMs = performance.now() - started;
  for (const ws of sockets) ws?.terminate();
  console.log(`stack: ${kind}; storm: ${SOCKETS} sockets x ${JOINS} private joins`);
  console.log(`REST before the storm: ${fmt(before)}`);
  console.log(`REST during the storm: ${fmt(during)}`);
  console.log(
    `joins answered: ${answered}/${expected} in ${stormMs.toFixed(0)} ms; sockets refused: ${refusedSockets}; replies: ${JSON.stringify(Object.fromEntries(replies))}`,
  );
} finally {
  await stack.stop();
  await pg?.stop();
  rmSync(tmp, { recursive: true, force: true });
}
