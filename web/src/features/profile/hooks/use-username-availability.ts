import { useQuery } from "@tanstack/react-query";
import { profileQueries } from "../api/queries";
import { usernameSchema } from "../api/update-username";
import { useDebouncedValue } from "./use-debounced-value";

/** The pause after the last keystroke before a name is checked. */
export const USERNAME_CHECK_DELAY_MS = 500;

export type UsernameAvailability = "unknown" | "checking" | "available" | "taken";

/**
 * Whether `candidate` is free. Only a valid name (3-30 letters, digits, underscores) that
 * differs from the current one is checked, after a 500 ms pause; the pause already counts as
 * "checking". A failed check stays "unknown": the save then decides.
 */
export function useUsernameAvailability(
  candidate: string,
  currentName: string | null,
): UsernameAvailability {
  const wanted = candidate !== currentName && usernameSchema.safeParse(candidate).success;
  const settled = useDebouncedValue(candidate, USERNAME_CHECK_DELAY_MS);
  const ready = wanted && settled === candidate;
  const query = useQuery({
    ...profileQueries.usernameAvailability(settled),
    enabled: ready,
  });

  if (!wanted) return "unknown";
  if (!ready || query.isFetching) return "checking";
  if (query.data === true) return "available";
  if (query.data === false) return "taken";
  return "unknown";
}
