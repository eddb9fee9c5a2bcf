/** The p-th percentile (0–100) of an ascending list, nearest rank; NaN for an empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
