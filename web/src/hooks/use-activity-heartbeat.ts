import { useEffect } from "react";
import { loadSupabase } from "@/lib/supabase-loader";

/** touch_activity records at most one write a minute; the SPA calls it as often. */
export const ACTIVITY_INTERVAL_MS = 60_000;

/**
 * Records the signed-in user's activity (feeds "Online Now" and Live Visitors): once when a tab
 * becomes visible, then every minute while it stays visible. A hidden tab records nothing.
 */
export function useActivityHeartbeat(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let last = 0;
    const touch = () => {
      if (document.visibilityState !== "visible") return;
      const now = Date.now();
      if (now - last < ACTIVITY_INTERVAL_MS) return;
      last = now;
      void loadSupabase()
        .then((supabase) => supabase.rpc("touch_activity"))
        .then(({ error }) => {
          if (error) console.warn("[activity] touch_activity failed", error.message);
        })
        .catch((error: unknown) => console.warn("[activity] touch_activity failed", error));
    };
    touch();
    const timer = setInterval(touch, ACTIVITY_INTERVAL_MS);
    document.addEventListener("visibilitychange", touch);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", touch);
    };
  }, [enabled]);
}
