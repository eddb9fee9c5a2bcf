import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { envFrom } from "../_shared/env.ts";
import { createSimulatedAdapter } from "../_shared/market/simulated.ts";
import { createScanApp, type IngestResult, type ScanDb } from "./app.ts";

const KEY = "sb_secret_test_service_key_0123456789";

Deno.test("scan: enqueues alerts after the ingest and wakes the worker only when there are jobs", async () => {
  for (const jobs of [0, 3]) {
    const woken: string[] = [];
    const db: ScanDb = {
      ingest: (quotes): Promise<IngestResult> =>
        Promise.resolve({
          instruments: quotes.length,
          movers: quotes.length,
          stale: 0,
          pruned: 0,
          broadcasts: 1,
          skipped: 0,
        }),
      enqueueAlerts: (scannedAt) => {
        woken.push(`enqueue ${scannedAt}`);
        return Promise.resolve({ alerts: jobs, jobs });
      },
    };
    const app = createScanApp({
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
        woken.push("deliver");
        return Promise.resolve();
      },
    });
    const res = await app.fetch(
      new Request("http://local/scan", {
        method: "POST",
        headers: { authorization: `Bearer ${KEY}` },
      }),
    );
    assertEquals(res.status, 200);
    deepStrictEqual((await res.json()).alerts, { alerts: jobs, jobs });
    deepStrictEqual(
      woken,
      jobs ? ["enqueue 2026-11-24T10:00:00.000Z", "deliver"] : ["enqueue 2026-11-24T10:00:00.000Z"],
    );
  }
});
