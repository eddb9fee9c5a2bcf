// The stream's alert step (decision 0069): the stream writes the movers about once a second per
// venue; the alerts of those writes are enqueued beside the writes, never in their way. At most
// one enqueue runs at a time; the writes that land while it runs are enqueued together by the
// next one, as one range (`public.enqueue_alerts_between(since, through)`: every write in the
// range that no enqueue took yet, each once). So a slow enqueue costs the alerts a little
// latency, never the quotes, and never builds a queue. When jobs were written the delivery
// worker is woken at once; a wake-up asked for while one is on its way is made when that one
// returns (the worker may have looked for jobs before these were committed).
// Runtime-agnostic: the enqueue and the wake-up are passed in.

/** What one enqueue wrote. */
export interface AlertStepResult {
  jobs: number;
  writes: number;
}

export interface AlertStepOptions {
  /** Enqueues the alerts of the writes in [since, through] (ISO times, inclusive). */
  enqueue(since: string, through: string): Promise<AlertStepResult>;
  /** Wakes the outbox worker; its answer comes when that worker has drained. */
  wakeDelivery?: () => Promise<void>;
  log?: (line: string) => void;
  /** The pause before a failed enqueue is tried again (1 s). */
  retryMs?: number;
}

export interface AlertStep {
  /** A write with this time committed: its alerts go with the next enqueue. */
  wrote(scannedAt: string): void;
  /** Enqueues finished, writes they covered and jobs they wrote (tests, logs). */
  readonly stats: { runs: number; writes: number; jobs: number; failures: number; wakes: number };
  /** Settles when no write waits and no enqueue runs. */
  idle(): Promise<void>;
  /** Enqueues what is waiting, once more, then stops. */
  stop(): Promise<void>;
}

/** A range of writes reaches back at most this far (`enqueue_alerts_between` refuses a day). */
const LONGEST_RANGE_MS = 23 * 3_600_000;

export function startAlertStep(opts: AlertStepOptions): AlertStep {
  const log = opts.log ?? (() => {});
  const retryMs = opts.retryMs ?? 1_000;
  const stats = { runs: 0, writes: 0, jobs: 0, failures: 0, wakes: 0 };
  let pending: { since: number; through: number } | null = null;
  let running: Promise<void> | null = null;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let waking = false;
  let wakeAgain = false;
  let idleWaiters: (() => void)[] = [];

  const merge = (since: number, through: number) => {
    pending = pending
      ? { since: Math.min(pending.since, since), through: Math.max(pending.through, through) }
      : { since, through };
  };

  const settleIdle = () => {
    if (running || pending) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  };

  const wake = () => {
    if (!opts.wakeDelivery) return;
    if (waking) {
      wakeAgain = true;
      return;
    }
    waking = true;
    stats.wakes++;
    opts.wakeDelivery()
      .catch((err: unknown) => log(`[alerts] delivery not woken: ${(err as Error).message}`))
      .finally(() => {
        waking = false;
        if (wakeAgain && !stopped) {
          wakeAgain = false;
          wake();
        }
      });
  };

  const run = async (range: { since: number; through: number }) => {
    let since = range.since;
    if (range.through - since > LONGEST_RANGE_MS) {
      since = range.through - LONGEST_RANGE_MS;
      log(
        `[alerts] writes from ${new Date(range.since).toISOString()} waited more than 23 h; ` +
          `their alerts are enqueued from ${new Date(since).toISOString()} on`,
      );
    }
    try {
      const r = await opts.enqueue(
        new Date(since).toISOString(),
        new Date(range.through).toISOString(),
      );
      stats.runs++;
      stats.writes += r.writes;
      stats.jobs += r.jobs;
      if (r.jobs > 0) wake();
    } catch (err) {
      stats.failures++;
      // Nothing is lost: the range waits for the next run (each write is still taken once).
      merge(since, range.through);
      log(
        `[alerts] enqueue failed, trying again in ${retryMs / 1000} s: ${(err as Error).message}`,
      );
      if (!stopped && !retry) {
        retry = setTimeout(() => {
          retry = null;
          kick();
        }, retryMs);
      }
    }
  };

  function kick(): void {
    if (running || !pending || retry) return;
    const range = pending;
    pending = null;
    running = run(range).finally(() => {
      running = null;
      if (!stopped) kick();
      settleIdle();
    });
  }

  return {
    stats,
    wrote(scannedAt) {
      const t = Date.parse(scannedAt);
      if (!Number.isFinite(t)) throw new Error(`not a write time: ${scannedAt}`);
      merge(t, t);
      if (!stopped) kick();
    },
    idle() {
      if (!running && !pending) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      if (retry) {
        clearTimeout(retry);
        retry = null;
      }
      while (running) await running;
      if (pending) {
        const range = pending;
        pending = null;
        await run(range);
        // A failure here is given up (logged above): those writes' alerts are not enqueued, as
        // when a worker stopped between a write and its enqueue before.
        pending = null;
      }
      settleIdle();
    },
  };
}
