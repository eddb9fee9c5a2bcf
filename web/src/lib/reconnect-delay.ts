/** Delays before the 1st, 2nd, … resubscription of a channel the server closed; the last repeats. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

/** Each delay is spread by up to ±20 % so many tabs do not rejoin in lockstep. */
export const RECONNECT_JITTER = 0.2;

/**
 * The wait before resubscription number `attempt` (0-based): 1 s, 2 s, 5 s, 10 s, then 30 s,
 * each multiplied by a random factor in [0.8, 1.2). `random` is injectable for tests.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const index = Math.min(Math.max(0, Math.floor(attempt)), RECONNECT_DELAYS_MS.length - 1);
  const base = RECONNECT_DELAYS_MS[index];
  const factor = 1 + (random() * 2 - 1) * RECONNECT_JITTER;
  return Math.round(base * factor);
}
