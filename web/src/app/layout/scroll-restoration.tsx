import { useLayoutEffect } from "react";
import { useLocation, useNavigationType } from "react-router-dom";

/** Scroll positions of the entries of this tab's history, by location key. */
const positions = new Map<string, number>();

/**
 * What the browser does for ordinary pages, for the SPA's client-side navigations: a new page
 * starts at the top (or at its `#anchor`), Back and Forward return to where the reader was.
 */
export function ScrollRestoration() {
  const location = useLocation();
  const navigationType = useNavigationType();

  useLayoutEffect(() => {
    if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";
  }, []);

  useLayoutEffect(() => {
    const { key, hash } = location;
    const saved = positions.get(key);
    if (navigationType === "POP" && saved !== undefined) {
      window.scrollTo(0, saved);
    } else if (hash) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    } else {
      window.scrollTo(0, 0);
    }
    return () => {
      positions.set(key, window.scrollY);
    };
  }, [location, navigationType]);

  return null;
}
