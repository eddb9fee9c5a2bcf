import { deepStrictEqual, strictEqual as assertEquals } from "node:assert/strict";
import { startAlertStep } from "./alert-step.ts";

/** A promise the test settles by hand. */
function gate<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const at = (s: number) => new Date(Date.UTC(2026, 10, 28, 12, 0, s)).toISOString();
const tick = () => new Promise((r) => setTimeout(r, 5));

Deno.test("alert step: writes that land while an enqueue runs go in the next one, as one range", async () => {
  const calls: [string, string][] = [];
  const first = gate<void>();
  const step = startAlertStep({
    enqueue: async (since, through) => {
      calls.push([since, through]);
      if (calls.length === 1) await first.promise;
      return { jobs: 0, writes: 1 };
    },
  });
  step.wrote(at(1));
  // The writes go on while the first enqueue hangs; the writer never waits for it.
  step.wrote(at(3));
  step.wrote(at(2));
  step.wrote(at(4));
  await tick();
  deepStrictEqual(calls, [[at(1), at(1)]]);
  first.resolve();
  await step.idle();
  deepStrictEqual(calls, [[at(1), at(1)], [at(2), at(4)]]);
  assertEquals(step.stats.runs, 2);
  await step.stop();
});

Deno.test("alert step: a failed enqueue keeps its range and is tried again with the writes since", async () => {
  const calls: [string, string][] = [];
  const lines: string[] = [];
  const step = startAlertStep({
    enqueue: (since, through) => {
      calls.push([since, through]);
      if (calls.length === 1) return Promise.reject(new Error("connection reset"));
      return Promise.resolve({ jobs: 3, writes: 2 });
    },
    retryMs: 30,
    log: (line) => lines.push(line),
  });
  step.wrote(at(1));
  await tick();
  step.wrote(at(2));
  await step.idle();
  deepStrictEqual(calls, [[at(1), at(1)], [at(1), at(2)]]);
  assertEquals(step.stats.failures, 1);
  assertEquals(step.stats.jobs, 3);
  assertEquals(lines.length, 1);
  assertEquals(lines[0]!.includes("connection reset"), true);
  await step.stop();
});

Deno.test("alert step: jobs wake the delivery worker at once; a wake-up asked for meanwhile follows the one on its way", async () => {
  let enqueues = 0;
  const wakes: ReturnType<typeof gate<void>>[] = [];
  const step = startAlertStep({
    enqueue: () => Promise.resolve({ jobs: ++enqueues === 3 ? 0 : 5, writes: 1 }),
    wakeDelivery: () => {
      const g = gate<void>();
      wakes.push(g);
      return g.promise;
    },
  });
  step.wrote(at(1));
  await step.idle();
  // Woken as soon as the jobs were written, without waiting for the worker's drain.
  assertEquals(wakes.length, 1);
  step.wrote(at(2));
  await step.idle();
  step.wrote(at(3)); // no jobs: no wake-up asked for
  await step.idle();
  // The second enqueue's wake-up waits for the first (which may have looked before its jobs).
  assertEquals(wakes.length, 1);
  wakes[0]!.resolve();
  await tick();
  assertEquals(wakes.length, 2);
  wakes[1]!.resolve();
  await tick();
  assertEquals(wakes.length, 2);
  assertEquals(step.stats.wakes, 2);
  await step.stop();
});

Deno.test("alert step: stopping enqueues what is waiting once more", async () => {
  const calls: [string, string][] = [];
  const first = gate<void>();
  const step = startAlertStep({
    enqueue: async (since, through) => {
      calls.push([since, through]);
      if (calls.length === 1) await first.promise;
      return { jobs: 0, writes: 1 };
    },
  });
  step.wrote(at(1));
  step.wrote(at(2));
  const stopped = step.stop();
  first.resolve();
  await stopped;
  deepStrictEqual(calls, [[at(1), at(1)], [at(2), at(2)]]);
  // After the stop, writes are not enqueued any more.
  step.wrote(at(3));
  await tick();
  assertEquals(calls.length, 2);
});
