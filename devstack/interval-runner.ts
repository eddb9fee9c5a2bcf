// The shape the local stand-ins for pg_cron's jobs share (retention, the candle rollup, the
// autovacuum stand-in): a run every interval, never two at once, and a stop that waits for the
// run in progress.

export interface IntervalRunner<T> {
  /** Runs now, or joins the run in progress; resolves with its result (`idle` once stopped). */
  tick(): Promise<T>;
  /** No run starts after this; resolves once the run in progress has ended. */
  stop(): Promise<void>;
  /** True once stop() was called: a run's failure from then on is the stop's, not news. */
  readonly stopped: boolean;
}

/** A seconds setting as milliseconds; anything but a number of at least 1 falls back. */
export function intervalMsFrom(value: string | undefined, fallbackSeconds: number): number {
  const n = Number(value);
  return (Number.isFinite(n) && n >= 1 ? n : fallbackSeconds) * 1000;
}

export function everyInterval<T>(opts: {
  run: () => Promise<T>;
  /** What tick() resolves with once stopped. */
  idle: T;
  intervalMs: number;
  /** Called first by stop(), before it waits (e.g. to abort requests in flight). */
  onStop?: () => void;
}): IntervalRunner<T> {
  let running: Promise<T> | null = null;
  let stopped = false;
  const tick = () => {
    if (stopped) return Promise.resolve(opts.idle);
    running ??= opts.run().finally(() => (running = null));
    return running;
  };
  const timer = setInterval(() => void tick(), opts.intervalMs);
  timer.unref?.();
  return {
    tick,
    get stopped() {
      return stopped;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      opts.onStop?.();
      await running?.catch(() => {});
    },
  };
}
