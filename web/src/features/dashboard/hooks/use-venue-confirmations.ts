import { type VenueConfirmation, venueConfirmation } from "@domain/quote-age";
import { useMemo } from "react";
import { useTransitionQuery } from "@/hooks/use-transition-query";
import { dashboardQueries, type SourceHealthRow, type StreamHealthRow } from "../api/queries";

/** Each venue's confirmation by source name (decision 0079); venues that confirm nothing are absent. */
export type VenueConfirmations = ReadonlyMap<string, VenueConfirmation>;

/** The venues' confirmations from the rows the Sources line reads (`source_health`, `stream_health`). */
export function venueConfirmations(
  polls: readonly SourceHealthRow[] | undefined,
  streams: readonly StreamHealthRow[] | undefined,
): VenueConfirmations {
  const pollOf = new Map((polls ?? []).map((row) => [row.source, row]));
  const out = new Map<string, VenueConfirmation>();
  for (const stream of streams ?? []) {
    const confirmation = venueConfirmation(stream, pollOf.get(stream.source));
    if (confirmation) out.set(stream.source, confirmation);
  }
  return out;
}

/**
 * The venues' confirmations, re-read with the Sources line (the same queries, shared): a row
 * whose quote is unchanged shows its venue's confirmed-through age.
 */
export function useVenueConfirmations(): VenueConfirmations {
  const polls = useTransitionQuery(dashboardQueries.sourceHealth());
  const streams = useTransitionQuery(dashboardQueries.streamHealth());
  return useMemo(() => venueConfirmations(polls.data, streams.data), [polls.data, streams.data]);
}
