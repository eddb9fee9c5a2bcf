import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { rollupIntervalMs, startHistoryCron, type HistoryCron } from "./history-cron.ts";

describe("local candle rollup cron", () => {
  let cron: HistoryCron | undefined;
  beforeEach(() => vi.useFakeTimers({ now: Date.parse("2026-03-02T12:00:00Z") }));
  afterEach(async () => {
    await cron?.stop();
    cron = undefined;
    vi.useRealTimers();
  });

  it("calls the rollup, then the escalation, with the service key on every interval, one run at a time", async () => {
    const calls: { url: string; init: RequestInit; release: () => void }[] = [];
    const fetch = ((url: string, init: RequestInit) =>
      new Promise<Response>((resolve) => {
        calls.push({ url, init, release: () => resolve(new Response("[]")) });
      })) as unknown as typeof globalThis.fetch;
    cron = startHistoryCron({
      apiUrl: "http://127.0.0.1:54321/",
      serviceKey: "sb_secret_local",
      intervalMs: 60_000,
      fetch,
    });
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe("http://127.0.0.1:54321/rest/v1/rpc/run_candle_rollup");
    expect(calls[0]!.init.method).toBe("POST");
    expect(new Headers(calls[0]!.init.headers).get("authorization")).toBe("Bearer sb_secret_local");
    // Still running at the next beat: no second call.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    calls[0]!.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.url).toBe("http://127.0.0.1:54321/rest/v1/rpc/run_support_escalation");
    calls[1]!.release();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(3);
    expect(calls[2]!.url).toBe("http://127.0.0.1:54321/rest/v1/rpc/run_candle_rollup");
    calls[2]!.release();
    await vi.advanceTimersByTimeAsync(0);
    calls[3]!.release();
  });

  it("logs a failure once, and when it works again", async () => {
    const lines: string[] = [];
    let status = 500;
    const fetch = (async () =>
      new Response("boom", { status })) as unknown as typeof globalThis.fetch;
    cron = startHistoryCron({
      apiUrl: "http://x",
      serviceKey: "k",
      intervalMs: 1000,
      fetch,
      log: (l) => lines.push(l),
    });
    await cron.tick();
    await cron.tick();
    expect(lines).toEqual([
      "[cron] candle rollup failed: HTTP 500: boom",
      "[cron] support escalation failed: HTTP 500: boom",
    ]);
    status = 200;
    await cron.tick();
    expect(lines.slice(2)).toEqual([
      "[cron] candle rollup works again",
      "[cron] support escalation works again",
    ]);
  });

  it("reads HISTORY_ROLLUP_INTERVAL_SECONDS, falling back to a minute", () => {
    expect(rollupIntervalMs({ HISTORY_ROLLUP_INTERVAL_SECONDS: "5" })).toBe(5000);
    expect(rollupIntervalMs({ HISTORY_ROLLUP_INTERVAL_SECONDS: "zero" })).toBe(60_000);
    expect(rollupIntervalMs({})).toBe(60_000);
  });
});
