// The local stand-in for the hourly pg_cron job `retention` (migration 20261125600000,
// docs/retention.md): calls private.run_retention() on the stack's database every
// RETENTION_INTERVAL_SECONDS (default 3600), unless pg_cron already runs the job there. Logs a
// line when it removed something or failed, never when there was nothing to do.
import type { Tx } from "./database.ts";
import { everyInterval, intervalMsFrom, type IntervalRunner } from "./interval-runner.ts";

export const DEFAULT_RETENTION_INTERVAL_SECONDS = 3600;

/**
 * tick() runs the job once now and resolves with the rows removed per rule (null when pg_cron
 * runs it).
 */
export type RetentionRunner = IntervalRunner<Record<string, number> | null>;

/** RETENTION_INTERVAL_SECONDS as milliseconds (default one hour); a bad value falls back. */
export function retentionIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  return intervalMsFrom(env.RETENTION_INTERVAL_SECONDS, DEFAULT_RETENTION_INTERVAL_SECONDS);
}

export function startRetention(opts: {
  db: Tx;
  intervalMs?: number;
  log?: (line: string) => void;
}): RetentionRunner {
  const log = opts.log ?? ((l: string) => console.log(l));

  const scheduledByPgCron = async () => {
    const [row] = await opts.db.query<{ job: string | null }>(
      "select to_regclass('cron.job')::text as job",
    );
    if (!row?.job) return false;
    const jobs = await opts.db.query<{ n: number }>(
      "select count(*)::int as n from cron.job where jobname = 'retention'",
    );
    return (jobs[0]?.n ?? 0) > 0;
  };

  const run = async (): Promise<Record<string, number> | null> => {
    try {
      if (await scheduledByPgCron()) return null;
      const [row] = await opts.db.query<{ removed: Record<string, number> | string }>(
        "select private.run_retention() as removed",
      );
      const removed =
        typeof row?.removed === "string"
          ? (JSON.parse(row.removed) as Record<string, number>)
          : (row?.removed ?? {});
      const parts = Object.entries(removed).filter(([, n]) => n > 0);
      if (parts.length) log(`[retention] removed ${parts.map(([t, n]) => `${n} ${t}`).join(", ")}`);
      return removed;
    } catch (err) {
      if (!runner.stopped) log(`[retention] failed: ${(err as Error).message}`);
      return {};
    }
  };

  const runner = everyInterval({
    run,
    idle: null,
    intervalMs: opts.intervalMs ?? retentionIntervalMs(),
  });
  return runner;
}
