import { useSyncExternalStore } from "react";

const noSubscription = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

/**
 * False in a build-time render (src/prerender.tsx) and while React hydrates such a page (the
 * server snapshot), true from then on and in every client render. A part that shows data the
 * served page did not have (a query that answered while hydration was under way, a browser-only
 * widget) renders what was served until it is hydrated, so hydration always matches.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, inBrowser, onServer);
}
