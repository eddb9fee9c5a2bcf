// What pg_cron does every minute on a hosted project for the candle history (migration
// 20261125400000) and the support desk's escalation (20261125400200): call each job through
// PostgREST with the service key (`rpc/run_candle_rollup`, `rpc/run_support_escalation`, service
// role only) every HISTORY_ROLLUP_INTERVAL_SECONDS (default 60). Never two runs at once; failures
// are logged when they start or change.

import { everyInterval, intervalMsFrom, type IntervalRunner } from "./interval-runner.ts";

export const DEFAULT_ROLLUP_INTERVAL_SECONDS = 60;

/** tick() runs the jobs now (or joins the run in progress) and resolves when it is done. */
export type HistoryCron = IntervalRunner<void>;

/** HISTORY_ROLLUP_INTERVAL_SECONDS as milliseconds; a bad value falls back to 60 s. */
export function rollupIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  return intervalMsFrom(env.HISTORY_ROLLUP_INTERVAL_SECONDS, DEFAULT_ROLLUP_INTERVAL_SECONDS);
}

export function startHistoryCron(opts: {
  apiUrl: string;
  serviceKey: string;
  intervalMs: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}): HistoryCron {
  const base = `${opts.apiUrl.replace(/\/+$/, "")}/rest/v1/rpc`;
  const jobs = [
    { name: "candle rollup", url: `${base}/run_candle_rollup` },
    { name: "support escalation", url: `${base}/run_support_escalation` },
  ];
  const doFetch = opts.fetch ?? fetch;
  const controller = new AbortController();
  const lastError = new Map<string, string>();
  const runOne = async (job: { name: string; url: string }) => {
    try {
      const res = await doFetch(job.url, {
        method: "POST",
        headers: {
          apikey: opts.serviceKey,
          authorization: `Bearer ${opts.serviceKey}`,
          "content-type": "application/json",
        },
        body: "{}",
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(120_000)]),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      if (lastError.has(job.name)) opts.log?.(`[cron] ${job.name} works again`);
      lastError.delete(job.name);
    } catch (err) {
      if (runner.stopped) return;
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError.get(job.name)) opts.log?.(`[cron] ${job.name} failed: ${message}`);
      lastError.set(job.name, message);
    }
  };
  const run = async () => {
    for (const job of jobs) await runOne(job);
  };
  const runner = everyInterval<void>({
    run,
    idle: undefined,
    intervalMs: opts.intervalMs,
    onStop: () => controller.abort(),
  });
  return runner;
}
