// What pg_cron + pg_net do for the outbox on a hosted project: POST deliver-alerts on a schedule
// (DELIVERY_INTERVAL_SECONDS, default 15), for retries and ticket e-mails; the scan wakes the
// worker itself right after it enqueued alerts. Never two runs at once.

export interface DeliveryCron {
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function deliveryIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.DELIVERY_INTERVAL_SECONDS);
  return (Number.isFinite(n) && n >= 1 ? n : 15) * 1000;
}

export function startDeliveryCron(opts: {
  apiUrl: string;
  serviceKey: string;
  intervalMs: number;
  log?: (line: string) => void;
}): DeliveryCron {
  const url = `${opts.apiUrl.replace(/\/+$/, "")}/functions/v1/deliver-alerts`;
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  let stopped = false;
  let lastError: string | null = null;
  const run = async () => {
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${opts.serviceKey}`, "content-type": "application/json" },
        body: "{}",
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(60_000)]),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`HTTP ${res.status}: ${text.slice(0, 200)}`);
      if (lastError !== null) opts.log?.("[cron] deliver-alerts works again");
      lastError = null;
    } catch (err) {
      if (stopped) return;
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) opts.log?.(`[cron] deliver-alerts failed: ${message}`);
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
