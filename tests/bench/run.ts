// `npm run bench`: start-up time of `npm start`'s stack (cold: empty data folder; warm: second
// start) until /rest/v1 answers 200, and on the cold start until the first dashboard has rows
// (the SPA is served and a subscriber's feed holds 5 movers above the default 10 % threshold);
// PostgREST read latency (p50/p95 over 1,000 requests); how old a quote is when a dashboard
// renders it (freshness.ts); Realtime fan-out of database broadcasts to 1,000 subscribed sockets
// (fanout.ts), scan ingest (ingest.ts), 500 /api/sse clients during scans (sse.ts), a busy group
// chat (chat.ts: 200 members online, 20 msg/s), the support desk (support.ts), the admins' user
// table with 100,000 users (admin-users.ts), alert enqueueing for 1,000-100,000 subscribers (alerts.ts),
// and the candle rollup and storage (history.ts), on PGlite and, when the binaries are installed, on a temporary PostgreSQL 15
// (`--backend=pglite|postgres` picks one).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT, readEnvFile, ENV_FILE } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort } from "../../devstack/stack.ts";
import {
  freshDatabase,
  postgresAvailable,
  startTempPostgres,
  type TempPostgres,
} from "../support/postgres.ts";
import { benchChat } from "./chat.ts";
import { benchAdminUsers } from "./admin-users.ts";
import { benchAlerts } from "./alerts.ts";
import { benchAlertsDelivery } from "./alerts-delivery.ts";
import { benchFanout } from "./fanout.ts";
import { benchCadenceLoad } from "./cadence-load.ts";
import { benchFreshness, benchVenueFreshness } from "./freshness.ts";
import { benchHistory } from "./history.ts";
import { benchIngest } from "./ingest.ts";
import { benchMonth } from "./month.ts";
import { benchSoak } from "./soak.ts";
import { benchSse } from "./sse.ts";
import { benchWeb } from "./web.ts";
import { percentile } from "./stats.ts";
import { benchSupportDesk } from "./support.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);

async function timeStart(
  env: Record<string, string>,
  apiPort: number,
): Promise<{
  ms: number;
  t0: number;
  child: ChildProcess;
  said: (marker: string) => string | null;
}> {
  // MailDev and the chat stand-ins on ports of their own: the defaults (54324-54326) belong to
  // the reader's own `npm start`, which a bench must neither take nor fail on.
  const ports: Record<string, string> = {};
  for (const name of ["MAIL_UI_PORT", "MAIL_SMTP_PORT", "CHAT_STANDIN_PORT"]) {
    ports[name] = env[name] ?? process.env[name] ?? String(await freePort());
  }
  const t0 = performance.now();
  const child = spawn(path.join(ROOT, "node_modules/.bin/tsx"), ["devstack/cli.ts", "start"], {
    cwd: ROOT,
    env: { ...process.env, ...ports, ...env, API_PORT: String(apiPort) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The stack's own lines are read (and dropped) as they come; the `[venues]` ones are kept.
  const kept: string[] = [];
  let partial = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.includes("[venues]")) kept.push(line.trim());
  });
  const said = (marker: string) => kept.find((l) => l.includes(marker)) ?? null;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    const key = readEnvFile(ENV_FILE).SUPABASE_PUBLISHABLE_KEY ?? "";
    try {
      const res = await fetch(`http://127.0.0.1:${apiPort}/rest/v1/profiles?select=id&limit=1`, {
        headers: { apikey: key },
      });
      if (res.status === 200) return { ms: performance.now() - t0, t0, child, said };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * From `npm start` until a subscriber's dashboard has rows: the SPA answers, and the feed of
 * the window new accounts start with (30 minutes) holds at least 5 movers of 10 % or more.
 */
async function timeFirstRows(
  t0: number,
  apiPort: number,
  webPort: number,
  waitMs = 180_000,
): Promise<number> {
  const key = readEnvFile(ENV_FILE).SUPABASE_PUBLISHABLE_KEY!;
  const base = `http://127.0.0.1:${apiPort}`;
  const deadline = t0 + waitMs;
  let token: string | null = null;
  while (performance.now() < deadline) {
    try {
      const web = await fetch(`http://127.0.0.1:${webPort}/dashboard`);
      await web.text();
      if (!token) {
        const login = await fetch(`${base}/auth/v1/token?grant_type=password`, {
          method: "POST",
          headers: { apikey: key, "content-type": "application/json" },
          body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
        });
        token = login.ok ? ((await login.json()) as { access_token: string }).access_token : null;
      }
      if (web.ok && token) {
        const res = await fetch(`${base}/rest/v1/rpc/movers_feed`, {
          method: "POST",
          headers: {
            apikey: key,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ window_minutes: 30 }),
        });
        const rows = res.ok ? ((await res.json()) as { pct: number }[]) : [];
        if (rows.filter((r) => Math.abs(Number(r.pct)) >= 10).length >= 5) {
          return performance.now() - t0;
        }
      }
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no dashboard rows within ${waitMs / 1000} s of npm start`);
}

async function readLatency(apiPort: number): Promise<{ p50: number; p95: number; rps: number }> {
  const key = readEnvFile(ENV_FILE).SUPABASE_PUBLISHABLE_KEY!;
  const base = `http://127.0.0.1:${apiPort}`;
  const login = await fetch(`${base}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: key, "content-type": "application/json" },
    body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const headers = { apikey: key, authorization: `Bearer ${access_token}` };
  for (let i = 0; i < 50; i++)
    await (await fetch(`${base}/rest/v1/profiles?select=*`, { headers })).text();
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const s = performance.now();
    const res = await fetch(`${base}/rest/v1/profiles?select=*`, { headers });
    await res.text();
    if (res.status !== 200) throw new Error(`read failed with ${res.status}`);
    times.push(performance.now() - s);
  }
  const total = performance.now() - t0;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), rps: (REQUESTS / total) * 1000 };
}

async function bench(label: string, env: Record<string, string>) {
  const apiPort = await freePort();
  const webPort = await freePort();
  const common = { ...env, WEB_PORT: String(webPort) };
  const cold = await timeStart(common, apiPort);
  let firstRows: number;
  try {
    firstRows = await timeFirstRows(cold.t0, apiPort, webPort);
  } finally {
    await stop(cold.child);
  }
  const warm = await timeStart(common, apiPort);
  try {
    const lat = await readLatency(apiPort);
    console.log(
      `${label.padEnd(14)} cold start ${(cold.ms / 1000).toFixed(2)} s · first dashboard rows ${(firstRows / 1000).toFixed(2)} s · warm start ${(warm.ms / 1000).toFixed(2)} s · ` +
        `PostgREST read (${REQUESTS} sequential, authenticated, RLS) p50 ${lat.p50.toFixed(2)} ms · p95 ${lat.p95.toFixed(2)} ms · ${lat.rps.toFixed(0)} req/s`,
    );
    console.log(await benchFreshness(label, `http://127.0.0.1:${webPort}`));
  } finally {
    await stop(warm.child);
  }
}

/**
 * `npm run bench -- web`: the SPA's weight and Lighthouse's median of 5 for `/`, `/pricing` and
 * a signed-in `/dashboard` (web.ts), on a stack of its own that scans as `npm start` does, once
 * its first dashboard has rows. The SPA does not depend on the database: PGlite only.
 */
async function webPart(env: Record<string, string>) {
  const apiPort = await freePort();
  const webPort = await freePort();
  const started = await timeStart({ ...env, WEB_PORT: String(webPort) }, apiPort);
  try {
    await timeFirstRows(started.t0, apiPort, webPort, 420_000);
    console.log(await benchWeb(`http://127.0.0.1:${webPort}`, `http://127.0.0.1:${apiPort}`));
  } finally {
    await stop(started.child);
  }
}

// `npm run bench -- alerts ingest` runs only the named parts (startup, freshness, venues,
// cadence-load, web, fanout, ingest, sse, chat, support, admin-users, alerts, history, soak, month);
// no name runs them all. `freshness` ends with the cadence load, which `cadence-load` runs alone. `--full`
// makes the soak the 30 minutes (3 by default) and the month the simulated market's volume.
// `--backend=pglite` or `--backend=postgres` runs every part on that backend only (both by default;
// `web` runs on PGlite only, so `--backend=postgres` skips it).
const BACKENDS = ["pglite", "postgres"] as const;
type Backend = (typeof BACKENDS)[number];
function parseBackends(argv: string[]): Backend[] {
  const picked: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith("--backend=")) picked.push(arg.slice("--backend=".length));
    else if (arg === "--backend") {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("-")) {
        console.error(`--backend needs a value: ${BACKENDS.join(" or ")}.`);
        process.exit(2);
      }
      picked.push(next);
      i++;
    }
  }
  if (picked.length === 0) return [...BACKENDS];
  const bad = picked.filter((b) => !(BACKENDS as readonly string[]).includes(b));
  if (bad.length > 0) {
    console.error(`Unknown backend(s): ${bad.join(", ")}. Backends: ${BACKENDS.join(", ")}.`);
    process.exit(2);
  }
  return BACKENDS.filter((b) => picked.includes(b));
}
const argv = process.argv.slice(2);
const backends = parseBackends(argv);
// The value of a spaced `--backend postgres` is not a part name.
const parts = argv.filter((a, i) => !a.startsWith("-") && !(i > 0 && argv[i - 1] === "--backend"));
const PARTS = [
  "startup",
  "freshness",
  "venues",
  "cadence-load",
  "web",
  "fanout",
  "ingest",
  "sse",
  "chat",
  "support",
  "admin-users",
  "alerts",
  "history",
  "soak",
  "month",
];
const unknown = parts.filter((p) => !PARTS.includes(p));
if (unknown.length > 0) {
  console.error(`Unknown bench part(s): ${unknown.join(", ")}. Parts: ${PARTS.join(", ")}.`);
  process.exit(2);
}
const want = (part: string) => parts.length === 0 || parts.includes(part);
const section = async (part: string, fn: () => Promise<string>) => {
  if (want(part)) console.log(await fn());
};

/**
 * `npm run bench -- freshness` (issue 25): the dashboard's freshness per venue and backend, and
 * the ingest at the venues' cadences, without the other parts.
 */
async function freshnessPart(label: string, env: Record<string, string>) {
  const apiPort = await freePort();
  const webPort = await freePort();
  const started = await timeStart({ ...env, WEB_PORT: String(webPort) }, apiPort);
  try {
    // Freshness is measured once the dashboard has rows; the wait is not a figure here, and a
    // shared machine can take longer than the full bench's 180 s to get there.
    await timeFirstRows(started.t0, apiPort, webPort, 420_000);
    console.log(await benchFreshness(label, `http://127.0.0.1:${webPort}`));
  } finally {
    await stop(started.child);
  }
}

/**
 * The real venues' freshness (issue 25): a stack of its own with FAKE_VENUES=1 scanning the fake
 * Binance, Coinbase and GeckoTerminal servers at their cadences, on an empty database.
 */
async function venueFreshnessPart(label: string, env: Record<string, string>, pg?: TempPostgres) {
  const apiPort = await freePort();
  const webPort = await freePort();
  const databaseUrl = pg ? await freshDatabase(pg.url, "bench_venues") : undefined;
  const started = await timeStart(
    {
      ...env,
      DATA_DIR: `${env.DATA_DIR}-venues`,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      FAKE_VENUES: "1",
      MARKET_SOURCES: "binance,coinbase,dex",
      WEB_PORT: String(webPort),
    },
    apiPort,
  );
  try {
    // The SPA is built and served after the API answers: wait for it (not a figure here).
    const deadline = performance.now() + 300_000;
    while (performance.now() < deadline) {
      const ok = await fetch(`http://127.0.0.1:${webPort}/dashboard`)
        .then(async (r) => (await r.text(), r.ok))
        .catch(() => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // The stack stored the fake pools' past before it answered (decision 0086), or said why not.
    const replay = started.said("replayed the fake GeckoTerminal pools");
    console.log(
      await benchVenueFreshness(
        label,
        `http://127.0.0.1:${webPort}`,
        60,
        started.t0 + started.ms,
        replay,
      ),
    );
  } finally {
    await stop(started.child);
  }
}

/**
 * Start-up (with first rows, freshness and the web figures), or freshness alone, then the ingest
 * at the venues' cadences (alone: `cadence-load`).
 */
async function startupAndFreshness(label: string, env: Record<string, string>, pg?: TempPostgres) {
  if (want("startup")) await bench(label, env);
  else if (want("freshness")) await freshnessPart(label, env);
  // `venues` alone: only the real venues' freshness against the fake servers.
  if (want("startup") || want("freshness") || want("venues")) {
    await venueFreshnessPart(label, env, pg);
  }
  if (want("freshness") || want("cadence-load")) console.log(await benchCadenceLoad(label, pg));
}

console.log(`bench on ${process.platform}/${process.arch}, node ${process.version}\n`);
const tmp = mkdtempSync(path.join(tmpdir(), "bench-"));
try {
  if (backends.includes("pglite")) {
    await startupAndFreshness("PGlite", { DATA_DIR: path.join(tmp, "pglite") });
    if (want("web")) await webPart({ DATA_DIR: path.join(tmp, "pglite-web") });
    await section("fanout", () => benchFanout("PGlite"));
    await section("ingest", () => benchIngest("PGlite"));
    await section("sse", () => benchSse("PGlite"));
    await section("chat", () => benchChat("PGlite"));
    await section("support", () => benchSupportDesk("PGlite"));
    await section("admin-users", () => benchAdminUsers("PGlite"));
    await section("alerts", () => benchAlerts("PGlite"));
    await section("alerts", () => benchAlertsDelivery("PGlite"));
    await section("history", () => benchHistory("PGlite"));
    await section("soak", () => benchSoak("PGlite"));
    await section("month", () => benchMonth("PGlite"));
  } else if (want("web")) {
    console.log("web            skipped: it runs on PGlite only, and --backend=postgres was given");
  }
  // `web` alone runs nothing on PostgreSQL: no temporary cluster for it.
  if (backends.includes("postgres") && PARTS.some((p) => p !== "web" && want(p))) {
    if (postgresAvailable()) {
      const pg = await startTempPostgres();
      try {
        // Cold on Postgres means an empty database (a fresh cluster); warm reuses it.
        await startupAndFreshness(
          "PostgreSQL 15",
          { DATA_DIR: path.join(tmp, "pg"), DATABASE_URL: pg.url },
          pg,
        );
        await section("fanout", () => benchFanout("PostgreSQL 15", pg.url));
        await section("ingest", () => benchIngest("PostgreSQL 15", pg.url));
        // Each part from a known state: the SSE part on a database of its own, not the one the
        // fan-out and ingest parts filled with movers that crowd its symbol out (issue 30).
        await section("sse", async () =>
          benchSse("PostgreSQL 15", await freshDatabase(pg.url, "bench_sse")),
        );
        await section("chat", () => benchChat("PostgreSQL 15", pg.url));
        await section("support", () => benchSupportDesk("PostgreSQL 15", pg.url));
        await section("admin-users", () => benchAdminUsers("PostgreSQL 15", pg.url));
        await section("alerts", () => benchAlerts("PostgreSQL 15", pg.url));
        await section("alerts", () => benchAlertsDelivery("PostgreSQL 15", pg.url));
        await section("history", () => benchHistory("PostgreSQL 15", pg.url));
        await section("soak", async () =>
          benchSoak("PostgreSQL 15", await freshDatabase(pg.url, "bench_soak")),
        );
        await section("month", async () =>
          benchMonth("PostgreSQL 15", await freshDatabase(pg.url, "bench_month")),
        );
      } finally {
        await pg.stop();
      }
    } else if (backends.includes("pglite")) {
      console.log("PostgreSQL 15  skipped: binaries not found");
    } else {
      console.error(
        "PostgreSQL 15  cannot run: --backend=postgres was given, but the PostgreSQL 15 binaries were not found",
      );
      process.exitCode = 1;
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
