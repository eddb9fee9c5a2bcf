/** The p-th percentile (0–100) of an ascending list, nearest rank; NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * Times `runs` sequential calls of a supabase-js request after `warmUp` untimed ones; a call
 * that answers with an error stops the bench part with that error (never a time).
 */
export async function timeRequests(
  what: string,
  runs: number,
  warmUp: number,
  run: () => PromiseLike<{ error: unknown }>,
): Promise<{ p50: number; p95: number; count: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs + warmUp; i++) {
    const t0 = performance.now();
    const { error } = await run();
    if (error) throw new Error(`${what} failed: ${JSON.stringify(error)}`);
    if (i >= warmUp) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), count: times.length };
}

/** Bytes as megabytes with `digits` decimals ("n/a" for an unknown size). */
export function mb(bytes: number | null, digits = 0): string {
  return bytes === null ? "n/a" : `${(bytes / 1024 / 1024).toFixed(digits)} MB`;
}
