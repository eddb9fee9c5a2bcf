import { useEffect, useState } from "react";

/** How often an open tab asks whether a new version was deployed (besides page loads). */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

export type ServiceWorkerState = {
  /** A new version is installed and waiting; calling `reload` switches to it and reloads. */
  updateReady: boolean;
  reload: () => void;
};

/**
 * Registers /sw.js (production builds only) with workbox-window, loaded after the first
 * render so it is not part of any page's first download. When a deploy brings a new service
 * worker it waits (it does not take over by itself); `updateReady` turns true and `reload`
 * asks it to take over, then reloads the page once it controls it. In development any worker
 * left by an earlier `npm start` on the same origin is removed, so it cannot serve old files.
 */
export function useServiceWorker(): ServiceWorkerState {
  const [waiting, setWaiting] = useState<(() => void) | null>(null);

  useEffect(() => {
    if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
    if (!import.meta.env.PROD) {
      void navigator.serviceWorker
        .getRegistrations()
        .then((registrations) => registrations.forEach((r) => void r.unregister()));
      return;
    }
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const onVisible = () => document.visibilityState === "visible" && check?.();
    let check: (() => void) | undefined;
    void import("workbox-window").then(({ Workbox }) => {
      if (cancelled) return;
      const wb = new Workbox("/sw.js", { scope: "/" });
      wb.addEventListener("waiting", () => {
        setWaiting(() => () => {
          wb.addEventListener("controlling", () => window.location.reload());
          wb.messageSkipWaiting();
        });
      });
      check = () => void wb.update().catch(() => undefined);
      timer = setInterval(check, UPDATE_CHECK_MS);
      document.addEventListener("visibilitychange", onVisible);
      void wb.register().catch((err: unknown) => console.warn("[pwa] no service worker:", err));
    });
    return () => {
      cancelled = true;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);

  return { updateReady: waiting !== null, reload: () => waiting?.() };
}
