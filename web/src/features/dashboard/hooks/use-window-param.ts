import { effectiveWindow, isWindowAllowed, type PlanId } from "@domain/plans";
import { useCallback } from "react";
import { useUrlState } from "@/hooks/use-url-state";
import { readNumber } from "@/lib/url-state";

/** The dashboard's window in the address: `?window=15` (minutes; 0 is ten seconds). */
export const WINDOW_PARAM = "window";

/**
 * The window to show (decision 0045): the address's when the plan offers it, else the one stored
 * on the profile (`selected_window_minutes`, itself brought within the plan).
 */
export function shownWindow(
  params: Pick<URLSearchParams, "get">,
  plan: PlanId,
  storedMinutes: number,
): number {
  const fromUrl = readNumber(params, WINDOW_PARAM, { min: 0, max: 1440, integer: true }, -1);
  return fromUrl >= 0 && isWindowAllowed(plan, fromUrl)
    ? fromUrl
    : effectiveWindow(plan, storedMinutes);
}

/**
 * The address's parameters and a way to show another window: the entry being left keeps the
 * window it showed (so Back returns to it even after the stored window changed), and a new entry
 * is pushed with the chosen one.
 */
export function useWindowParam() {
  const [params, setUrl] = useUrlState();
  const showWindow = useCallback(
    (current: number, next: number) => {
      if (params.get(WINDOW_PARAM) !== String(current)) setUrl({ [WINDOW_PARAM]: current });
      setUrl({ [WINDOW_PARAM]: next }, { push: true });
    },
    [params, setUrl],
  );
  return [params, showWindow] as const;
}
