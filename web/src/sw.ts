/// <reference lib="webworker" />
// The service worker served at /sw.js (built by vite-plugin-pwa, strategy injectManifest).
// - Precaches the app shell: index.html, the hashed chunks and styles, icons, the manifest and
//   the offline page; a new build gets a new precache and `cleanupOutdatedCaches` drops the old.
// - Never answers API traffic: requests to /api, /auth, /rest, /functions, /realtime and
//   /storage (and anything on another origin, such as the Supabase URL) are not handled here,
//   so the browser sends them to the network as if there were no worker.
// - Page loads (navigations) always go to the network, so a deploy is seen at once; when the
//   network is gone the precached offline page answers instead.
// - A new version waits until the page asks it to take over (the "new version — reload" prompt
//   posts SKIP_WAITING), so an open tab never mixes two builds.
import { clientsClaim } from "workbox-core";
import {
  cleanupOutdatedCaches,
  matchPrecache,
  precacheAndRoute,
  type PrecacheEntry,
} from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NetworkOnly } from "workbox-strategies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

/**
 * The API surface: never precached, never answered by this worker, not even page loads of it
 * (a page load of /auth/login is the SPA's and goes through the navigation route below, network
 * only; /auth/v1 is Supabase Auth's).
 */
export const API_PATHS = /^\/(api|auth\/v1|rest|functions|realtime|storage)(\/|$)/;

const OFFLINE_PAGE = "/offline.html";

self.addEventListener("message", (event) => {
  if ((event.data as { type?: string } | null)?.type === "SKIP_WAITING") void self.skipWaiting();
});

// Page loads: the network, else the offline page. Registered first, so it wins over the precache.
const network = new NetworkOnly();
registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await network.handle(options);
      } catch {
        return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
      }
    },
    { denylist: [API_PATHS] },
  ),
);

// The first install takes control at once (there is no older build to mix with).
clientsClaim();
cleanupOutdatedCaches();
// After the navigation route: page loads never come from the precache, only files do.
precacheAndRoute(self.__WB_MANIFEST);
