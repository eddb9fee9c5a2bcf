// What pg_cron + pg_net do for the outbox on a hosted project: POST deliver-alerts on a schedule
// (DELIVERY_INTERVAL_SECONDS, default 15), for retries and ticket e-mails; the scan and the
// stream's alert step wake the worker themselves right after they enqueued alerts. Locally the
// runner also LISTENs on `outbox` (the enqueue's NOTIFY, decision 0069): any enqueue wakes the
// worker at once, not at the next tick. Never two runs at once; a wake-up during a run makes one
// more run when it ends (that run may have looked for jobs before the new ones were committed).

export interface DeliveryCron {
  tick(): Promise<void>;
  /** A run now, or one more right after the run on its way. */
  wake(): void;
  stop(): Promise<void>;
}

/** LISTENs on a channel; resolves to a function that stops listening (the stack's `db.listen`). */
export type Listen = (
  channel: string,
  onPayload: (payload: string) => void,
) => Promise<() => Promise<void>>;

export function deliveryIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.DELIVERY_INTERVAL_SECONDS);
  return (Number.isFinite(n) && n >= 1 ? n : 15) * 1000;
}

export function startDeliveryCron(opts: {
  apiUrl: string;
  serviceKey: string;
  intervalMs: number;
  log?: (line: string) => void;
  /** Wakes the worker on the enqueue's NOTIFY on `outbox`. */
  listen?: Listen;
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
  let again = false;
  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) return running;
    running = run().finally(() => {
      running = null;
      if (again && !stopped) {
        again = false;
        void tick();
      }
    });
    return running;
  };
  const wake = () => {
    if (running) again = true;
    else void tick();
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref?.();
  let unlisten: Promise<(() => Promise<void>) | null> = Promise.resolve(null);
  if (opts.listen) {
    unlisten = opts
      .listen("outbox", () => wake())
      .catch((err: unknown) => {
        opts.log?.(
          `[cron] not listening for enqueued jobs (the schedule still delivers them): ${
            err instanceof Error ? err.message : String(err)
          }`,
        );
        return null;
      });
  }
  return {
    tick,
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await (await unlisten)?.().catch(() => {});
      controller.abort();
      await running?.catch(() => {});
    },
  };
}
