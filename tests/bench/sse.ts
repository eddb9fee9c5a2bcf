// /api/sse under load: BENCH_SSE_CLIENTS (default 500) concurrent server-sent-event clients of
// one window on the local stack while scans are ingested. Delivery is the time from just before
// a scan's ingest (ingest_scan → broadcast → the function's one shared Realtime channel → every
// stream) until each client has the scan's first entry; reported as p50/p95/max over clients ×
// rounds. Memory is the Deno functions host's RSS before the clients connect and with all of
// them connected (the api function holds one Realtime connection for all of them).
import { readFileSync, readdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import { percentile } from "./stats.ts";

const CLIENTS = Number(process.env.BENCH_SSE_CLIENTS ?? 500);
const ROUNDS = Number(process.env.BENCH_SSE_ROUNDS ?? 5);
const WINDOW = 15;

/** RSS (bytes) of this process's Deno functions host, found by its command line. */
export function denoHostRss(): number | null {
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      if (ppid === process.pid && cmd.includes("deno-host")) {
        return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0) * 1024;
      }
    } catch {
      // gone
    }
  }
  return null;
}

const mb = (b: number | null) => (b === null ? "n/a" : `${(b / 1024 / 1024).toFixed(0)} MB`);

interface Client {
  ac: AbortController;
  /** Receipt time of the first entry of the symbol this round waits for. */
  waiting: { symbol: string; resolve: (t: number) => void } | null;
}

async function connect(url: string, token: string): Promise<Client> {
  const ac = new AbortController();
  const client: Client = { ac, waiting: null };
  const res = await fetch(`${url}/api/sse?window=${WINDOW}`, {
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    signal: ac.signal,
  });
  if (res.status !== 200) throw new Error(`/api/sse answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let connected: () => void = () => {};
  const ready = new Promise<void>((r) => (connected = r));
  void (async () => {
    let buf = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += value;
        if (buf.includes("event: connected")) connected();
        const w = client.waiting;
        if (w && buf.includes(`"symbol":"${w.symbol}"`)) {
          client.waiting = null;
          w.resolve(performance.now());
        }
        const cut = buf.lastIndexOf("\n\n");
        if (cut >= 0) buf = buf.slice(cut + 2);
      }
    } catch {
      // aborted
    }
  })();
  await ready;
  return client;
}

/**
 * On PostgreSQL pass a database of its own (run.ts: `freshDatabase`): on the database the fan-out
 * and ingest parts had filled, the bench's one new symbol never entered the window's list of
 * movers, so no stream had anything to deliver (issue 30).
 */
export async function benchSse(label: string, databaseUrl?: string): Promise<string> {
  const tmp = mkdtempSync(path.join(tmpdir(), "bench-sse-"));
  const stack = await startStack({
    ...defaultOptions({}),
    apiPort: await freePort(),
    dataDir: path.join(tmp, "data"),
    envFile: path.join(tmp, ".env.local"),
    databaseUrl,
    cron: false,
    quiet: true,
  });
  const clients: Client[] = [];
  try {
    const login = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.secrets.publishableKey, "content-type": "application/json" },
      body: JSON.stringify({ email: "pro@demo.local", password: DEMO_PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    await fetch(`${stack.url}/rest/v1/profiles?id=eq.00000000-0000-4000-8000-000000000003`, {
      method: "PATCH",
      headers: {
        apikey: stack.secrets.publishableKey,
        authorization: `Bearer ${access_token}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ selected_window_minutes: WINDOW }),
    });
    // One stream first: the function is loaded, the channel joined.
    clients.push(await connect(stack.url, access_token));
    const rssBefore = denoHostRss();
    const t0 = performance.now();
    for (let i = 1; i < CLIENTS; i += 50) {
      const batch = Math.min(50, CLIENTS - i);
      clients.push(
        ...(await Promise.all(
          Array.from({ length: batch }, () => connect(stack.url, access_token)),
        )),
      );
    }
    const connectMs = performance.now() - t0;
    const rssConnected = denoHostRss();

    const latencies: number[] = [];
    let missed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const symbol = `SSEB${round}${Date.now().toString(36).toUpperCase()}/USDT`;
      const arrivals = clients.map(
        (c) =>
          new Promise<number | null>((resolve) => {
            const timer = setTimeout(() => resolve(null), 30_000);
            c.waiting = {
              symbol,
              resolve: (t) => {
                clearTimeout(timer);
                resolve(t);
              },
            };
          }),
      );
      const scannedAt = new Date().toISOString();
      const start = performance.now();
      const res = await fetch(`${stack.url}/rest/v1/rpc/ingest_scan`, {
        method: "POST",
        headers: {
          apikey: stack.secrets.secretKey,
          authorization: `Bearer ${stack.secrets.secretKey}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({
          scanned_at: scannedAt,
          quotes: [
            {
              symbol,
              exchange: "Binance",
              exchangeType: "cex",
              source: "simulated",
              price: 1,
              volume24h: 5_000_000,
              ts: scannedAt,
            },
          ],
        }),
      });
      if (!res.ok) throw new Error(`ingest_scan answered ${res.status}: ${await res.text()}`);
      for (const t of await Promise.all(arrivals)) {
        if (t === null) missed++;
        else latencies.push(t - start);
      }
    }
    latencies.sort((a, b) => a - b);
    // A part that delivered nothing cannot report a time: it fails, in words.
    if (latencies.length === 0) {
      return (
        `/api/sse ${label}: FAILED — ${CLIENTS} clients connected, but none of the ` +
        `${CLIENTS * ROUNDS} scan events reached them within 30 s (missed ${missed})`
      );
    }
    const line = (p: number) => `${percentile(latencies, p).toFixed(0)} ms`;
    return [
      ...(missed > 0
        ? [`/api/sse ${label}: FAILED — ${missed} of ${CLIENTS * ROUNDS} scan events never arrived`]
        : []),
      `/api/sse ${label}: ${CLIENTS} clients connected in ${(connectMs / 1000).toFixed(1)} s; ` +
        `${ROUNDS} scans delivered to ${latencies.length}/${CLIENTS * ROUNDS} (missed ${missed}): ` +
        `p50 ${line(50)}, p95 ${line(95)}, max ${(latencies.at(-1) ?? 0).toFixed(0)} ms`,
      `/api/sse ${label}: functions host RSS ${mb(rssBefore)} with 1 stream, ${mb(rssConnected)} with ${CLIENTS} ` +
        `(${rssBefore !== null && rssConnected !== null ? `${((rssConnected - rssBefore) / Math.max(1, CLIENTS - 1) / 1024).toFixed(0)} KB per stream` : "n/a"}); one Realtime connection`,
    ].join("\n");
  } finally {
    for (const c of clients) c.ac.abort();
    await stack.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchSse("PGlite"));
}
