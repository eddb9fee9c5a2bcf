import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { scanIntervalMs, startCron, startMarketCron, type CronRunner } from "./cron.ts";

const OK_BODY = JSON.stringify({
  sources: { simulated: { quotes: 324, skipped: 0 } },
  ingest: { instruments: 324, movers: 324, pruned: 0, broadcasts: 8 },
  durationMs: 40,
});

/** A fetch whose answers the test releases one by one. */
function controlledFetch() {
  const calls: { url: string; init: RequestInit; release: (res: Response | Error) => void }[] = [];
  const fetch = ((url: string, init: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const release = (res: Response | Error) =>
        res instanceof Error ? reject(res) : resolve(res);
      calls.push({ url, init, release });
      init.signal?.addEventListener("abort", () => reject(init.signal!.reason));
    })) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

describe("local cron runner", () => {
  let cron: CronRunner | undefined;
  beforeEach(() => vi.useFakeTimers({ now: Date.parse("2026-03-02T12:00:00Z") }));
  afterEach(async () => {
    await cron?.stop();
    cron = undefined;
    vi.useRealTimers();
  });

  it("POSTs the scan with the service key on every interval", async () => {
    const f = controlledFetch();
    cron = startCron({
      apiUrl: "http://127.0.0.1:54321/",
      serviceKey: "sb_secret_local",
      intervalMs: 10_000,
      fetch: f.fetch,
      log: () => {},
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(f.calls).toHaveLength(1);
    const [call] = f.calls;
    expect(call!.url).toBe("http://127.0.0.1:54321/functions/v1/scan");
    expect(call!.init.method).toBe("POST");
    expect(new Headers(call!.init.headers).get("authorization")).toBe("Bearer sb_secret_local");
    call!.release(new Response(OK_BODY));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(f.calls).toHaveLength(2);
    f.calls[1]!.release(new Response(OK_BODY));
    await vi.advanceTimersByTimeAsync(0);
    expect(cron.stats).toEqual({ ok: 2, failed: 0, skipped: 0 });
  });

  it("never overlaps: ticks while a scan runs are skipped", async () => {
    const f = controlledFetch();
    cron = startCron({
      apiUrl: "http://x",
      serviceKey: "k",
      intervalMs: 10_000,
      fetch: f.fetch,
      log: () => {},
    });
    await vi.advanceTimersByTimeAsync(35_000); // the first scan hangs for 35 s
    expect(f.calls).toHaveLength(1);
    expect(cron.stats.skipped).toBe(3);
    f.calls[0]!.release(new Response(OK_BODY));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(f.calls).toHaveLength(2);
    expect(cron.stats.ok).toBe(1);
  });

  it("logs a failure once while it repeats, the recovery, and a summary per minute", async () => {
    const lines: string[] = [];
    let status = 500;
    const fetch = (() =>
      Promise.resolve(
        status === 200
          ? new Response(OK_BODY)
          : new Response('{"error":"internal_error"}', { status }),
      )) as unknown as typeof globalThis.fetch;
    cron = startCron({
      apiUrl: "http://x",
      serviceKey: "k",
      intervalMs: 10_000,
      fetch,
      log: (l) => lines.push(l),
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(lines).toEqual(['[cron] scan failed: HTTP 500: {"error":"internal_error"}']);
    status = 200;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lines[1]).toBe("[cron] scan works again: 324 instruments, 324 movers");
    await vi.advanceTimersByTimeAsync(30_000);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(
      /^\[cron\] scan: 3 ok, 4 failed, 0 skipped \(still running\) in the last minute; last: 324 instruments/,
    );
    expect(cron.stats).toEqual({ ok: 4, failed: 4, skipped: 0 });
  });

  it("stop() ends the schedule and aborts the running scan without logging it as a failure", async () => {
    const f = controlledFetch();
    const lines: string[] = [];
    cron = startCron({
      apiUrl: "http://x",
      serviceKey: "k",
      intervalMs: 10_000,
      fetch: f.fetch,
      log: (l) => lines.push(l),
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(f.calls).toHaveLength(1);
    await cron.stop();
    expect(f.calls[0]!.init.signal!.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.calls).toHaveLength(1);
    expect(lines).toEqual([]);
    expect(cron.stats).toEqual({ ok: 0, failed: 0, skipped: 0 });
  });

  it("reads SCAN_INTERVAL_SECONDS", () => {
    expect(scanIntervalMs({})).toBe(10_000);
    expect(scanIntervalMs({ SCAN_INTERVAL_SECONDS: "30" })).toBe(30_000);
    expect(scanIntervalMs({ SCAN_INTERVAL_SECONDS: "0" })).toBe(10_000);
    expect(scanIntervalMs({ SCAN_INTERVAL_SECONDS: "soon" })).toBe(10_000);
  });

  it("runs one schedule per market source at its cadence; a stalled venue does not hold back another", async () => {
    const f = controlledFetch();
    const lines: string[] = [];
    cron = startMarketCron({
      apiUrl: "http://127.0.0.1:54321",
      serviceKey: "sb_secret_local",
      fetch: f.fetch,
      log: (l) => lines.push(l),
      env: { MARKET_SOURCES: "binance,dex", MARKET_CADENCE_SECONDS: "binance=2,dex=3" },
    });
    expect(lines[0]).toBe(
      "[cron] market sources: binance every 2 s; dex every 3 s (GeckoTerminal's free tier takes 30 calls/min; 5 networks × 1 page at 20 calls/min: every pool every 15 s)",
    );
    await vi.advanceTimersByTimeAsync(0);
    const bodies = () => f.calls.map((c) => JSON.parse(String(c.init.body)).sources[0]);
    expect(bodies().sort()).toEqual(["binance", "dex"]);
    // The DEX call hangs; Binance answers and is called again every 2 s regardless.
    for (const c of f.calls.filter((c) => String(c.init.body).includes("binance"))) {
      c.release(new Response(OK_BODY));
    }
    for (let t = 2_000; t <= 6_000; t += 2_000) {
      await vi.advanceTimersByTimeAsync(2_000);
      for (const c of f.calls.filter((c) => String(c.init.body).includes("binance"))) {
        c.release(new Response(OK_BODY));
      }
    }
    expect(bodies().filter((b) => b === "binance")).toHaveLength(4);
    // The hung DEX scan is still running: its ticks at 3 s and 6 s were skipped.
    expect(bodies().filter((b) => b === "dex")).toHaveLength(1);
    expect(cron.stats.skipped).toBe(2);
  });
});
