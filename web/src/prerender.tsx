// Build-time rendering of the pages most visits start on (web/prerender.config.ts): their HTML
// is in index.html before any script has run, so the first paint does not wait for the app.
// Rendered as a first-time visitor sees the page (English, dark, logged out, before any data has
// arrived); for them the app hydrates it, for others it renders over it (main.tsx).
import { text } from "node:stream/consumers";
import WebSocketClass from "ws";
import { prerenderToNodeStream } from "react-dom/static";
import { StaticRouter } from "react-router-dom";
import { AppShell } from "@/app/layout/app-shell";
import { pageKey } from "@/app/layout/document-meta";
import { AppProvider } from "@/app/provider";
import { AppRoutes } from "@/app/router";
import { i18n, i18nReady, loadLaterNamespaces } from "@/i18n/i18n";

// Pages import the Supabase client, whose Realtime part wants a WebSocket class to exist (Node 20
// has none). Nothing connects while rendering.
globalThis.WebSocket ??= WebSocketClass as unknown as typeof WebSocket;

export type PrerenderedPage = { html: string; title: string; description: string };

/** The markup of `pathname` (all lazy parts resolved) with its English title and description. */
export async function prerenderPage(pathname: string): Promise<PrerenderedPage> {
  await i18nReady;
  // A first-time visitor's page in English (a browser's other language is the app's to render).
  if (i18n.language !== "en") await i18n.changeLanguage("en");
  await loadLaterNamespaces();
  // The same tree as App (app.tsx), with the static router: the browser hydrates this markup.
  const page = () => (
    <AppProvider>
      <StaticRouter location={pathname}>
        <AppRoutes />
      </StaticRouter>
    </AppProvider>
  );
  // The first pass loads the lazy parts (the page, the header's menus); the second renders them
  // in place, so the HTML has no suspended segments to be moved into place by script.
  // Large boundaries would also be moved into place by script (progressive chunks): not here.
  const options = { progressiveChunkSize: Number.POSITIVE_INFINITY };
  await text((await prerenderToNodeStream(page(), options)).prelude);
  const html = await text((await prerenderToNodeStream(page(), options)).prelude);
  if (html.includes("<template") || html.includes("$RC")) {
    throw new Error(`prerender: ${pathname} still suspends after its lazy parts were loaded`);
  }
  const key = pageKey(pathname);
  const title = i18n.t(`shell:pages.${key}.title`);
  return {
    html,
    title: key === "landing" ? title : `${title} · ${i18n.t("shell:titleSuffix")}`,
    description: i18n.t(`shell:pages.${key}.description`),
  };
}

/** The app shell's markup (app-shell.tsx), for app.html: what other addresses show first. */
export async function prerenderShell(): Promise<string> {
  await i18nReady;
  if (i18n.language !== "en") await i18n.changeLanguage("en");
  return text((await prerenderToNodeStream(<AppShell />)).prelude);
}

/**
 * The pages whose frame (drawn before the session, the profile and the data are read) is written
 * into the app shell at build time, for app.html's scripts to render over (not hydrated).
 */
const FRAMES = {
  "/dashboard": () => import("@/app/routes/dashboard-route").then((m) => m.DashboardRoute),
} as const;
export const FRAME_PATHS = Object.keys(FRAMES) as (keyof typeof FRAMES)[];

/** The app shell with the frame of `pathname` in its main, as a first-time reader sees it. */
export async function prerenderFrame(pathname: keyof typeof FRAMES): Promise<string> {
  await i18nReady;
  if (i18n.language !== "en") await i18n.changeLanguage("en");
  await loadLaterNamespaces();
  const Page = await FRAMES[pathname]();
  const frame = () => (
    <AppProvider>
      <StaticRouter location={pathname}>
        <AppShell>
          <Page />
        </AppShell>
      </StaticRouter>
    </AppProvider>
  );
  const options = { progressiveChunkSize: Number.POSITIVE_INFINITY };
  await text((await prerenderToNodeStream(frame(), options)).prelude);
  const html = await text((await prerenderToNodeStream(frame(), options)).prelude);
  if (html.includes("<template") || html.includes("$RC")) {
    throw new Error(`prerender: the frame of ${pathname} still suspends`);
  }
  return html;
}
