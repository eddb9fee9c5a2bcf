// Fan-out of database broadcasts to many subscribed sockets on the local stack. The stack runs
// in this process (so its memory can be read); the sockets live in a child process. Each
// round commits one change whose trigger broadcasts it (Broadcast from Database: trigger →
// realtime.send → NOTIFY → the stand-in), and the latency is the time from just before the
// commit to each socket's receipt.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
// Seeded: pro@demo.local (…0003) is a member of the "DEX hunters" group.
const GROUP = "10000000-0000-4000-8000-000000000002";
const SENDER = "00000000-0000-4000-8000-000000000003";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Memory after full collections (the bench runs with --expose-gc). */
async function memory() {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 100));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
}

type ChildMsg = { type: "ready" } | { type: "armed" } | { type: "round"; times: number[] };

export async function benchFanout(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-fanout-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    functions: false,
    quiet: true,
  });
  let child: ReturnType<typeof fork> | undefined;
  try {
    const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const ws = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${stack.secrets.publishableKey}&vsn=2.0.0`;

    const before = await memory();
    const joinStart = performance.now();
    const proc = fork(
      path.join(ROOT, "tests/bench/fanout-clients.ts"),
      [ws, `group:${GROUP}`, access_token, String(SOCKETS)],
      { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
    );
    child = proc;
    const next = () =>
      new Promise<ChildMsg>((resolve, reject) => {
        const onExit = (code: number | null) =>
          reject(new Error(`the fan-out clients exited with ${code}`));
        proc.once("exit", onExit);
        proc.once("message", (m) => {
          proc.off("exit", onExit);
          resolve(m as ChildMsg);
        });
      });
    if ((await next()).type !== "ready") throw new Error("the fan-out clients did not join");
    const joinMs = performance.now() - joinStart;
    const after = await memory();
    const subs = stack.realtime.stats().subscriptions;
    if (subs !== SOCKETS) throw new Error(`expected ${SOCKETS} subscriptions, found ${subs}`);

    const latencies: number[] = [];
    const lastArrivals: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      proc.send({ type: "round" });
      if ((await next()).type !== "armed") throw new Error("the fan-out clients are out of step");
      const result = next();
      const sentAt = performance.timeOrigin + performance.now();
      await stack.db.query(
        `insert into public.messages (group_id, sender_id, content) values ($1, $2, $3)`,
        [GROUP, SENDER, `fan-out round ${r + 1}`],
      );
      const msg = await result;
      if (msg.type !== "round") throw new Error("the fan-out clients are out of step");
      const times = msg.times.map((t) => t - sentAt);
      latencies.push(...times);
      lastArrivals.push(Math.max(...times));
    }
    latencies.sort((a, b) => a - b);
    lastArrivals.sort((a, b) => a - b);
    const kb = (n: number) => (n / 1024).toFixed(1);
    return (
      `${label.padEnd(14)} Realtime fan-out, ${SOCKETS} sockets on one private topic, ${ROUNDS} database broadcasts: ` +
      `delivery p50 ${percentile(latencies, 50).toFixed(1)} ms · p95 ${percentile(latencies, 95).toFixed(1)} ms · ` +
      `last socket (median round) ${percentile(lastArrivals, 50).toFixed(1)} ms · ` +
      `${SOCKETS} joins (RLS-authorised) in ${(joinMs / 1000).toFixed(2)} s · ` +
      `memory per socket ${kb((after.rss - before.rss) / SOCKETS)} KiB RSS, ${kb((after.heap - before.heap) / SOCKETS)} KiB JS heap`
    );
  } finally {
    child?.send({ type: "close" });
    child?.kill();
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
