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
import { percentile } from "./stats.ts";

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
// Seeded: pro@demo.local (…0003) is a member of the "DEX hunters" group.
const GROUP = "10000000-0000-4000-8000-000000000002";
const SENDER = "00000000-0000-4000-8000-000000000003";

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

interface Scenario {
  what: string;
  topic: string;
  /** Commits one change whose triggers or functions broadcast to the topic. */
  trigger: (round: number) => Promise<unknown>;
}

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
    // Every socket comes from this machine: lift the per-client limits for the bench.
    realtimeLimits: { maxConnectionsPerClient: SOCKETS + 100, maxJoinsPerSecond: SOCKETS + 100 },
  });
  try {
    const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const ws = `${stack.url.replace("http", "ws")}/realtime/v1/websocket?apikey=${stack.secrets.publishableKey}&vsn=2.0.0`;

    // 100 more movers, so a scan's broadcast carries a full list of 100 entries.
    await stack.db.query(
      `with i as (
         insert into public.instruments (symbol, exchange, exchange_type, source)
         select 'BENCH' || g || '/USDT', 'Binance', 'cex', 'simulated' from generate_series(1, 100) g
         returning id, symbol, exchange)
       insert into public.movers (instrument_id, symbol, exchange, exchange_type, price, pct, pct_30min)
       select id, symbol, exchange, 'cex', 1.2345, random() * 20 - 10, random() * 20 - 10 from i`,
    );
    const scenarios: Scenario[] = [
      {
        what: "chat message (group topic, trigger on insert)",
        topic: `group:${GROUP}`,
        trigger: (r) =>
          stack.db.query(
            `insert into public.messages (group_id, sender_id, content) values ($1, $2, $3)`,
            [GROUP, SENDER, `fan-out round ${r + 1}`],
          ),
      },
      {
        what: "scan of 100 movers (market:movers:30, broadcast_movers)",
        topic: "market:movers:30",
        trigger: () =>
          stack.db.transaction(async (tx) => {
            await tx.query(`update public.movers set ts = now(), pct_30min = random() * 20 - 10`);
            await tx.query(`select private.broadcast_movers(now() - interval '1 second')`);
          }),
      },
    ];
    const lines: string[] = [];
    for (const scenario of scenarios) {
      lines.push(await runScenario(stack, ws, access_token, scenario, label));
    }
    const [size] = await stack.db.query<{ bytes: number }>(
      `select octet_length(payload::text) as bytes from realtime.messages
        where topic = 'market:movers:30' order by inserted_at desc limit 1`,
    );
    lines[1] += ` · payload ${((size?.bytes ?? 0) / 1024).toFixed(1)} KiB`;
    return lines.join("\n");
  } finally {
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function runScenario(
  stack: Awaited<ReturnType<typeof startStack>>,
  ws: string,
  token: string,
  scenario: Scenario,
  label: string,
): Promise<string> {
  const before = await memory();
  const joinStart = performance.now();
  const proc = fork(
    path.join(ROOT, "tests/bench/fanout-clients.ts"),
    [ws, scenario.topic, token, String(SOCKETS)],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  try {
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
    // Every join was answered with ok before "ready", and the stand-in registers a subscription
    // before it answers, so anything short of SOCKETS here is a socket the stand-in closed since.
    const { subscriptions: subs, sockets } = stack.realtime.stats();
    if (subs !== SOCKETS) {
      throw new Error(
        `expected ${SOCKETS} subscriptions, found ${subs} on ${sockets} open sockets ` +
          `(the joins took ${(joinMs / 1000).toFixed(1)} s)`,
      );
    }

    const latencies: number[] = [];
    const lastArrivals: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      proc.send({ type: "round" });
      if ((await next()).type !== "armed") throw new Error("the fan-out clients are out of step");
      const result = next();
      result.catch(() => {}); // awaited below; a failing trigger must not leave it unhandled
      const sentAt = performance.timeOrigin + performance.now();
      await scenario.trigger(r);
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
      `${label.padEnd(14)} Realtime fan-out to ${SOCKETS} sockets, ${ROUNDS} rounds of a ${scenario.what}: ` +
      `delivery p50 ${percentile(latencies, 50).toFixed(1)} ms · p95 ${percentile(latencies, 95).toFixed(1)} ms · ` +
      `last socket (median round) ${percentile(lastArrivals, 50).toFixed(1)} ms · ` +
      `${SOCKETS} RLS-authorised joins in ${(joinMs / 1000).toFixed(2)} s · ` +
      `memory per socket ${kb((after.heap - before.heap) / SOCKETS)} KiB JS heap, ` +
      (after.rss > before.rss
        ? `${kb((after.rss - before.rss) / SOCKETS)} KiB RSS`
        : `RSS not measurable (the previous run's memory was returned meanwhile)`)
    );
  } finally {
    proc.send({ type: "close" });
    proc.kill();
    await new Promise((r) => setTimeout(r, 200));
  }
}
