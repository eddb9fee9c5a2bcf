import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { createSimulatedAdapter } from "../_shared/market/simulated.ts";
import { type AlertsResult, createScanApp, type IngestResult, type ScanDb } from "./app.ts";

const KEY = "sb_secret_test_service_key_0123456789";

function scanApp(
  enqueueAlerts: ScanDb["enqueueAlerts"],
  log: string[],
  onAlerts: (r: AlertsResult) => void,
) {
  const db: ScanDb = {
    ingest: (quotes): Promise<IngestResult> => {
      log.push("ingest");
      return Promise.resolve({
        instruments: quotes.length,
        movers: quotes.length,
        stale: 0,
        pruned: 0,
        broadcasts: 1,
        skipped: 0,
      });
    },
    enqueueAlerts,
  };
  return createScanApp({
    env: envFrom({
      SUPABASE_URL: "http://127.0.0.1:1",
      SUPABASE_SERVICE_ROLE_KEY: KEY,
      MARKET_SOURCES: "simulated",
    }),
    now: () => new Date("2026-11-24T10:00:00Z"),
    db: () => db,
    adapters: { simulated: createSimulatedAdapter() },
    signals: () => Promise.resolve(0),
    deliver: () => {
      log.push("deliver");
      return Promise.resolve();
    },
    onAlerts,
  });
}

function post(app: ReturnType<typeof createScanApp>) {
  return app.fetch(
    new Request("http://local/scan", {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}` },
    }),
  );
}

Deno.test("scan: answers before enqueueing alerts, then wakes the worker only when there are jobs", async () => {
  for (const jobs of [0, 3]) {
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let finished!: (r: AlertsResult) => void;
    const done = new Promise<AlertsResult>((r) => (finished = r));
    const app = scanApp(
      async (scannedAt) => {
        log.push(`enqueue ${scannedAt}`);
        await held;
        log.push("enqueued");
        return { alerts: jobs, jobs };
      },
      log,
      finished,
    );
    const res = await post(app);
    assertEquals(res.status, 200);
    deepStrictEqual((await res.json()).alerts, { queued: true });
    // The answer is out while the enqueue is still running.
    deepStrictEqual(log, ["ingest", "enqueue 2026-11-24T10:00:00.000Z"]);
    release();
    deepStrictEqual(await done, { alerts: jobs, jobs });
    deepStrictEqual(
      log,
      jobs
        ? ["ingest", "enqueue 2026-11-24T10:00:00.000Z", "enqueued", "deliver"]
        : ["ingest", "enqueue 2026-11-24T10:00:00.000Z", "enqueued"],
    );
  }
});

Deno.test("scan: a failed enqueue is retried once for the same scan, and never fails the scan", async () => {
  const log: string[] = [];
  let calls = 0;
  let finished!: (r: AlertsResult) => void;
  const done = new Promise<AlertsResult>((r) => (finished = r));
  const app = scanApp(
    (scannedAt) => {
      calls += 1;
      log.push(`enqueue ${scannedAt}`);
      return calls === 1
        ? Promise.reject(new Error("connection reset"))
        : Promise.resolve({ alerts: 2, jobs: 2 });
    },
    log,
    finished,
  );
  const res = await post(app);
  assertEquals(res.status, 200);
  deepStrictEqual(await done, { alerts: 2, jobs: 2 });
  deepStrictEqual(log, [
    "ingest",
    "enqueue 2026-11-24T10:00:00.000Z",
    "enqueue 2026-11-24T10:00:00.000Z",
    "deliver",
  ]);
});
