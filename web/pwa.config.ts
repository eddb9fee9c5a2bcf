// The installable app: web manifest, service worker (/sw.js, from src/sw.ts) and the offline
// page, for vite.config.ts. The offline page is static HTML (the app cannot run without a
// network) written at build time from the `shell` namespace of the locale files, in the
// reader's language and theme.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const LANGUAGES = ["de", "en", "fr", "es"] as const;
/** Page background of each theme (index.css `--background`), for the browser's UI. */
export const THEME_COLORS = { light: "#ffffff", dark: "#0a0a0a" } as const;

type Shell = {
  appDescription: string;
  offline: { title: string; text: string; retry: string };
};

function shell(language: string): Shell {
  const file = new URL(`./src/i18n/locales/${language}/shell.json`, import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(file), "utf8")) as Shell;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function offlinePageHtml(): string {
  const texts = Object.fromEntries(LANGUAGES.map((l) => [l, shell(l).offline]));
  const en = texts.en!;
  return `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta charset="UTF-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta name="color-scheme" content="dark light" />
    <meta name="description" content="${escapeHtml(en.text)}" />
    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
    <title>${escapeHtml(en.title)} · MoverScan</title>
    <style>
      :root { color-scheme: light; --bg: ${THEME_COLORS.light}; --fg: #111827; --muted: #4b5563; --accent: #047857; }
      .dark { color-scheme: dark; --bg: ${THEME_COLORS.dark}; --fg: #f9fafb; --muted: #a3a3a3; --accent: #34d399; }
      body { margin: 0; min-height: 100svh; display: grid; place-items: center; background: var(--bg);
        color: var(--fg); font-family: system-ui, sans-serif; padding: 1.5rem; box-sizing: border-box; }
      main { max-width: 28rem; text-align: center; }
      h1 { font-size: 1.5rem; margin: 0 0 0.75rem; }
      p { color: var(--muted); line-height: 1.5; margin: 0 0 1.5rem; }
      button { font: inherit; font-weight: 600; padding: 0.6rem 1.2rem; border-radius: 0.5rem;
        border: 2px solid var(--accent); background: transparent; color: var(--fg); cursor: pointer; }
      button:focus-visible { outline: 3px solid var(--accent); outline-offset: 3px; }
    </style>
  </head>
  <body>
    <main>
      <h1 id="title">${escapeHtml(en.title)}</h1>
      <p id="text">${escapeHtml(en.text)}</p>
      <button id="retry" type="button">${escapeHtml(en.retry)}</button>
    </main>
    <script>
      var texts = ${JSON.stringify(texts)};
      try {
        if (localStorage.getItem("theme") === "light") document.documentElement.classList.remove("dark");
        var t = texts[localStorage.getItem("language")];
        if (t) {
          document.documentElement.lang = localStorage.getItem("language");
          document.title = t.title + " · MoverScan";
          document.getElementById("title").textContent = t.title;
          document.getElementById("text").textContent = t.text;
          document.getElementById("retry").textContent = t.retry;
        }
      } catch (e) {}
      document.getElementById("retry").addEventListener("click", function () { location.reload(); });
      window.addEventListener("online", function () { location.reload(); });
    </script>
  </body>
</html>
`;
}

/** Emits dist/offline.html (before the service worker's precache list is made). */
function offlinePage(): Plugin {
  return {
    name: "moverscan-offline-page",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "offline.html", source: offlinePageHtml() });
    },
  };
}

export function pwa(): Plugin[] {
  return [
    offlinePage(),
    ...VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      // The app registers /sw.js itself (features/pwa) and asks before updating.
      injectRegister: false,
      registerType: "prompt",
      manifestFilename: "manifest.webmanifest",
      includeAssets: ["favicon.svg", "robots.txt", "icons/apple-touch-icon.png"],
      injectManifest: {
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest,txt}"],
        // Pages are never served from a cache (page loads go to the network), so not precached:
        // the pre-rendered pages (index.html, pricing/index.html) and the shell (app.html).
        globIgnores: ["**/.vite/**", "sw.js", "**/index.html", "app.html"],
        // The SPA's largest chunk (charts) is above Workbox's 2 MiB default only if it grows a lot.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      manifest: {
        id: "/",
        name: "MoverScan",
        short_name: "MoverScan",
        description: shell("en").appDescription,
        lang: "en",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: THEME_COLORS.dark,
        theme_color: THEME_COLORS.dark,
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          {
            src: "/icons/maskable-512.png",
            sizes: "512x512",
            type: "image/png",
            purpose: "maskable",
          },
        ],
      },
      devOptions: { enabled: false },
    }),
  ];
}
