// Group chat under load on the local stack: one group with 200 members online (one socket per
// member, each with its own token and its own RLS-authorised join of group:<id>), and a member
// sending 20 messages per second for 10 s through the database (insert → trigger →
// Broadcast from Database → every socket). Reports the delivery latency from just before each
// insert to each member's receipt (p50, p95, max) and the rate achieved.
import { createHmac, randomUUID } from "node:crypto";
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { percentile } from "./stats.ts";

const MEMBERS = Number(process.env.BENCH_CHAT_MEMBERS ?? 200);
const RATE = Number(process.env.BENCH_CHAT_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_CHAT_SECONDS ?? 10);

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** An access token for `sub`, signed like Auth signs them (HS256 with the stack's secret). */
export function accessToken(secret: string, sub: string): string {
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64url(
    JSON.stringify({ sub, role: "authenticated", aud: "authenticated", iat: now, exp: now + 3600 }),
  );
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

type ChildMsg = { type: "ready" } | { type: "done"; arrivals: number[][] };

export async function benchChat(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-chat-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    quiet: true,
    realtimeLimits: { maxConnectionsPerClient: MEMBERS + 100, maxJoinsPerSecond: MEMBERS + 100 },
  });
  let proc: ReturnType<typeof fork> | null = null;
  try {
    // The members: auth users (their profiles come from the sign-up trigger) in one group.
    const ids = Array.from({ length: MEMBERS }, () => randomUUID());
    await stack.db.query(
      `insert into auth.users (id, email)
       select id, 'chat-bench-' || ord || '@bench.test'
       from unnest($1::uuid[]) with ordinality as u(id, ord)`,
      [ids],
    );
    const [group] = await stack.db.query<{ id: string }>(
      `insert into public.groups (name, created_by) values ('Bench chat', $1) returning id`,
      [ids[0]],
    );
    await stack.db.query(
      `insert into public.group_members (group_id, user_id)
       select $1, id from unnest($2::uuid[]) as u(id) on conflict do nothing`,
      [group!.id, ids],
    );
    const tokens = ids.map((id) => accessToken(stack.secrets.jwtSecret, id));
    const ws = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${stack.secrets.publishableKey}&vsn=2.0.0`;

    const child = fork(
      path.join(ROOT, "tests/bench/chat-clients.ts"),
      [ws, `group:${group!.id}`, JSON.stringify(tokens)],
      { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    proc = child;
    const next = () =>
      new Promise<ChildMsg>((resolve, reject) => {
        const onExit = (code: number | null) =>
          reject(new Error(`the chat clients exited with ${code}`));
        child.once("exit", onExit);
        child.once("message", (m) => {
          child.off("exit", onExit);
          resolve(m as ChildMsg);
        });
      });
    const joinStart = performance.now();
    if ((await next()).type !== "ready") throw new Error("the chat clients did not join");
    const joinMs = performance.now() - joinStart;

    // One sender, RATE messages per second, in order (each insert awaited, the next one due at
    // its slot or at once when late).
    const total = RATE * SECONDS;
    const done = next();
    done.catch(() => {});
    child.send({ type: "collect", expected: total });
    const sentAt: number[] = [];
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sentAt.push(performance.timeOrigin + performance.now());
      await stack.db.query(
        `insert into public.messages (group_id, sender_id, content) values ($1, $2, $3)`,
        [group!.id, ids[1], `bench message ${i + 1}`],
      );
    }
    const sendSeconds = (performance.now() - start) / 1000;
    const result = await Promise.race([
      done,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error("not every member received every message in 60 s")),
          60_000,
        ),
      ),
    ]);
    if (result.type !== "done") throw new Error("the chat clients are out of step");
    const latencies: number[] = [];
    for (const times of result.arrivals) {
      times.slice(0, total).forEach((t, i) => latencies.push(t - sentAt[i]!));
    }
    latencies.sort((a, b) => a - b);
    return (
      `${label.padEnd(14)} Group chat, ${MEMBERS} members online, ${total} messages at ${RATE}/s ` +
      `(achieved ${(total / sendSeconds).toFixed(1)}/s): delivery p50 ${percentile(latencies, 50).toFixed(1)} ms · ` +
      `p95 ${percentile(latencies, 95).toFixed(1)} ms · max ${latencies.at(-1)!.toFixed(1)} ms · ` +
      `${(latencies.length / 1000).toFixed(0)}k deliveries · ${MEMBERS} joins in ${(joinMs / 1000).toFixed(2)} s`
    );
  } finally {
    proc?.send({ type: "close" });
    proc?.kill();
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// `npx tsx tests/bench/chat.ts`: this bench alone, on PGlite.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchChat("PGlite"));
}
