import { useEffect, useState } from "react";

/** The time display refreshes every 5 s (spec section 9). */
export const AGE_REFRESH_MS = 5000;
/** The dashboard's data-age column counts seconds. */
export const QUOTE_AGE_REFRESH_MS = 1000;

/** The current time in ms, updated every `intervalMs`, so relative times stay current. */
export function useNow(intervalMs: number = AGE_REFRESH_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
