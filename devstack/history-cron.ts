// What pg_cron does for the candle history on a hosted project (migration 20261125400000): call
// the rollup every HISTORY_ROLLUP_INTERVAL_SECONDS (default 60) through PostgREST with the
// service key (`rpc/run_candle_rollup`, service role only). Never two runs at once; failures are
// logged when they start or change.

export const DEFAULT_ROLLUP_INTERVAL_SECONDS = 60;

export interface HistoryCron {
  /** Runs the rollup now (or joins the run in progress); resolves when it is done. */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

/** HISTORY_ROLLUP_INTERVAL_SECONDS as milliseconds; a bad value falls back to 60 s. */
export function rollupIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.HISTORY_ROLLUP_INTERVAL_SECONDS);
  return (Number.isFinite(n) && n >= 1 ? n : DEFAULT_ROLLUP_INTERVAL_SECONDS) * 1000;
}

export function startHistoryCron(opts: {
  apiUrl: string;
  serviceKey: string;
  intervalMs: number;
  fetch?: typeof fetch;
  log?: (line: string) => void;
}): HistoryCron {
  const url = `${opts.apiUrl.replace(/\/+$/, "")}/rest/v1/rpc/run_candle_rollup`;
  const doFetch = opts.fetch ?? fetch;
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  let stopped = false;
  let lastError: string | null = null;
  const run = async () => {
    try {
      const res = await doFetch(url, {
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
      if (lastError !== null) opts.log?.("[cron] candle rollup works again");
      lastError = null;
    } catch (err) {
      if (stopped) return;
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) opts.log?.(`[cron] candle rollup failed: ${message}`);
      lastError = message;
    }
  };
  const tick = () => {
    if (stopped) return Promise.resolve();
    if (running) return running;
    running = run().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref?.();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      controller.abort();
      await running?.catch(() => {});
    },
  };
}
