/**
 * Query keys of the dashboard. Keys run generic → specific. The live movers stream
 * (`hooks/use-movers-stream.ts`) writes into the same keys the screens fetch with, so a scan lands
 * in the list on screen.
 */

/** The live movers list of one window (`movers_feed(window)`): `['movers', window]`. */
export const moversKeys = {
  all: ["movers"] as const,
  feed: (windowMinutes: number) => [...moversKeys.all, windowMinutes] as const,
};
