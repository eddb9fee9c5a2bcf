import { describe, expect, it } from "vitest";
import { i18n } from "@/i18n/i18n";
import { rowFormatSteps, runStepsWhenIdle } from "./warm-formats";

/** A stand-in idle queue: each `schedule` queues one callback, `idle()` runs the oldest. */
function idleQueue() {
  const queue: (() => void)[] = [];
  return {
    schedule: (run: () => void) => {
      queue.push(run);
      return () => void queue.splice(queue.indexOf(run), 1);
    },
    idle: () => queue.shift()?.(),
    get pending() {
      return queue.length;
    },
  };
}

describe("runStepsWhenIdle", () => {
  it("runs one step per idle moment, in order", () => {
    const done: number[] = [];
    const q = idleQueue();
    runStepsWhenIdle(
      [1, 2, 3].map((n) => () => done.push(n)),
      q.schedule,
    );
    expect(done).toEqual([]);
    q.idle();
    expect(done).toEqual([1]);
    q.idle();
    q.idle();
    expect(done).toEqual([1, 2, 3]);
    expect(q.pending).toBe(0);
  });

  it("stops when cancelled", () => {
    const done: number[] = [];
    const q = idleQueue();
    const cancel = runStepsWhenIdle(
      [1, 2, 3].map((n) => () => done.push(n)),
      q.schedule,
    );
    q.idle();
    cancel();
    expect(q.pending).toBe(0);
    expect(done).toEqual([1]);
  });
});

describe("rowFormatSteps", () => {
  it("makes the rows' formats in the reader's language without throwing", () => {
    const results = rowFormatSteps("de", i18n.getFixedT("de", "dashboard")).map((step) => step());
    expect(results[0]).toMatch(/^\+1,50\s%$/);
    expect(results.at(-1)).toMatch(/2/);
  });
});
