/**
 * Runs `run` when the browser is next idle (at the latest after `timeout` ms when given; where
 * there is no `requestIdleCallback`, on the next task). Returns the cancel.
 */
export function whenIdle(run: () => void, timeout?: number): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(run, timeout === undefined ? undefined : { timeout });
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(run, 1);
  return () => clearTimeout(timer);
}
