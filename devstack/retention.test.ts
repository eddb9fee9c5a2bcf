import { afterEach, describe, expect, it } from "vitest";
import type { Tx } from "./database.ts";
import { retentionIntervalMs, startRetention, type RetentionRunner } from "./retention.ts";

/** A database that answers the runner's three questions and records what it was asked. */
function fakeDb(opts: { pgCronJob: boolean | null; removed?: Record<string, number> | Error }) {
  const asked: string[] = [];
  const db: Tx = {
    async query<T>(sql: string) {
      asked.push(sql);
      if (sql.includes("to_regclass"))
        return [{ job: opts.pgCronJob === null ? null : "cron.job" }] as T[];
      if (sql.includes("from cron.job")) return [{ n: opts.pgCronJob ? 1 : 0 }] as T[];
      if (opts.removed instanceof Error) throw opts.removed;
      return [{ removed: opts.removed ?? {} }] as T[];
    },
  };
  return { db, asked };
}

describe("local retention runner", () => {
  let runner: RetentionRunner | undefined;
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
  });

  it("runs private.run_retention() and logs what it removed", async () => {
    const { db, asked } = fakeDb({
      pgCronJob: null,
      removed: { strategy_signals: 12, activity_logs: 0 },
    });
    const lines: string[] = [];
    runner = startRetention({ db, intervalMs: 3_600_000, log: (l) => lines.push(l) });
    expect(await runner.tick()).toEqual({ strategy_signals: 12, activity_logs: 0 });
    expect(asked.at(-1)).toBe("select private.run_retention() as removed");
    expect(lines).toEqual(["[retention] removed 12 strategy_signals"]);
  });

  it("stays quiet when nothing was due", async () => {
    const { db } = fakeDb({ pgCronJob: false, removed: { strategy_signals: 0 } });
    const lines: string[] = [];
    runner = startRetention({ db, intervalMs: 3_600_000, log: (l) => lines.push(l) });
    expect(await runner.tick()).toEqual({ strategy_signals: 0 });
    expect(lines).toEqual([]);
  });

  it("leaves the job to pg_cron where pg_cron schedules it", async () => {
    const { db, asked } = fakeDb({ pgCronJob: true, removed: { strategy_signals: 5 } });
    runner = startRetention({ db, intervalMs: 3_600_000, log: () => {} });
    expect(await runner.tick()).toBeNull();
    expect(asked.some((q) => q.includes("run_retention"))).toBe(false);
  });

  it("logs a failure in words", async () => {
    const { db } = fakeDb({ pgCronJob: null, removed: new Error("database is gone") });
    const lines: string[] = [];
    runner = startRetention({ db, intervalMs: 3_600_000, log: (l) => lines.push(l) });
    expect(await runner.tick()).toEqual({});
    expect(lines).toEqual(["[retention] failed: database is gone"]);
  });

  it("reads RETENTION_INTERVAL_SECONDS, falling back to an hour", () => {
    expect(retentionIntervalMs({ RETENTION_INTERVAL_SECONDS: "60" })).toBe(60_000);
    expect(retentionIntervalMs({ RETENTION_INTERVAL_SECONDS: "soon" })).toBe(3_600_000);
    expect(retentionIntervalMs({})).toBe(3_600_000);
  });
});
