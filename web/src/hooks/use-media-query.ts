import { useCallback, useSyncExternalStore } from "react";

/** Tailwind's breakpoints (its defaults, which the app's classes use), as media queries. */
export const BREAKPOINTS = {
  md: "(min-width: 48rem)",
  lg: "(min-width: 64rem)",
} as const;

/**
 * Whether a media query matches now, kept current as the window changes. Read during render
 * (`useSyncExternalStore`), so the first render already has the right answer and a width crossing
 * the breakpoint re-renders before the next frame: a component rendered for one width only never
 * shows the other one first. Without `matchMedia` (a server render), `serverValue`.
 */
export function useMediaQuery(query: string, serverValue = false): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = globalThis.matchMedia?.(query);
      list?.addEventListener?.("change", onChange);
      return () => list?.removeEventListener?.("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => globalThis.matchMedia?.(query).matches ?? serverValue,
    () => serverValue,
  );
}
