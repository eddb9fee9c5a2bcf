// Pre-rendered pages, for vite.config.ts: after the app's build, the pages most visits start on
// (the landing and pricing pages) are rendered once with React's static renderer
// (src/prerender.tsx, built for Node) and written into copies of index.html: dist/index.html
// for /, dist/pricing/index.html for /pricing. Every other address is answered with
// dist/app.html, the app shell (the header's bar, src/app/layout/app-shell.tsx). The first paint then needs only the HTML and the CSS (mobile
// Lighthouse: first contentful paint from about 3.5 s to about 1 s); the app renders over it.
//
// Returning visitors who read another language or are signed in would see the English,
// logged-out page for a moment: index.html's first script hides the pre-rendered markup for
// them (`data-prerender="stale"`), and they wait for the app as before.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin, ResolvedConfig } from "vite";

export const PRERENDERED_PATHS = ["/", "/pricing"] as const;
/** Answers every address that has no file of its own (the SPA's fallback). */
export const SHELL_FILE = "app.html";
/** Set on the nested server-side build, which must not pre-render (or build a worker) itself. */
export const PRERENDER_SSR_ENV = "MOVERSCAN_PRERENDER_SSR";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The file a pre-rendered path is written to, relative to dist. */
export function prerenderedFile(pathname: string): string {
  return pathname === "/" ? "index.html" : path.join(pathname.slice(1), "index.html");
}

type Page = { html: string; title: string; description: string };

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
/** The language-preload plugin's inline script (language-preload.config.ts). */
const LANGUAGE_PRELOAD = /\s*<script>(\(function\(\)\{var f=[^<]*)<\/script>/;

/**
 * How long the loader waits at most for the browser to report the first and the largest paint
 * before it starts the app anyway (a browser that reports neither starts after one frame).
 */
export const PAINT_WAIT_MS = 2000;

/**
 * Moves the app's scripts behind the first paint: the entry script, its module preloads and the
 * language preload are requested once the browser has reported the pre-rendered page's first
 * contentful paint and its largest one (`PerformanceObserver`, buffered), so on a slow network
 * they do not compete with the HTML and the CSS that paint it. Waiting one animation frame was
 * not enough (decision 0080): on a busy CPU the content was painted frames later, after the app's
 * 40-odd requests had started, and Lighthouse's simulated slow network then counted them before
 * the first paint (FCP 0.8 s in one run, 2.6 s in the next on the same build). A browser without
 * the largest-paint entry waits for the first paint only; one without either, for one frame;
 * every browser starts after PAINT_WAIT_MS at the latest. (A hidden tab, which paints nothing,
 * starts at once.)
 */
/** The loader's module preloads appended per task (then it yields to the browser). */
export const PRELOADS_PER_TASK = 6;

export function startScriptsAfterPaint(html: string): string {
  const entry = ENTRY_SCRIPT.exec(html)?.[1];
  if (!entry) throw new Error("prerender: index.html has no module entry script");
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((m) => m[1]!);
  const language = LANGUAGE_PRELOAD.exec(html)?.[1] ?? "";
  const loader =
    // The entry first, then its modules' preloads PRELOADS_PER_TASK at a time, a task each:
    // appending the forty-odd links in one task was one long task (decision 0095).
    `<script>(function(){function start(){${language};` +
    `var s=document.createElement("script");s.type="module";s.crossOrigin="anonymous";` +
    `s.src=${JSON.stringify(entry)};document.head.appendChild(s);` +
    `var p=${JSON.stringify(preloads)};(function next(i){` +
    `p.slice(i,i+${PRELOADS_PER_TASK}).forEach(function(h){var l=document.createElement("link");` +
    `l.rel="modulepreload";l.crossOrigin="anonymous";l.href=h;document.head.appendChild(l)});` +
    `if(p.length>i+${PRELOADS_PER_TASK})setTimeout(function(){next(i+${PRELOADS_PER_TASK})},0)})(0)}` +
    `var started=false;function go(){if(!started){started=true;start()}}` +
    `if(document.visibilityState==="hidden")go();else{` +
    `setTimeout(go,${PAINT_WAIT_MS});` +
    `var P=window.PerformanceObserver,t=(P&&P.supportedEntryTypes)||[],` +
    `want={},seen={};` +
    `if(t.indexOf("paint")>=0)want.fcp=1;if(t.indexOf("largest-contentful-paint")>=0)want.lcp=1;` +
    `if(!want.fcp&&!want.lcp)requestAnimationFrame(function(){setTimeout(go,0)});` +
    `else{var o=new P(function(list){list.getEntries().forEach(function(e){` +
    `if(e.name==="first-contentful-paint")seen.fcp=1;` +
    `if(e.entryType==="largest-contentful-paint")seen.lcp=1});` +
    `if((!want.fcp||seen.fcp)&&(!want.lcp||seen.lcp)){o.disconnect();setTimeout(go,0)}});` +
    `if(want.fcp)o.observe({type:"paint",buffered:true});` +
    `if(want.lcp)o.observe({type:"largest-contentful-paint",buffered:true})}}` +
    `})()</script>`;
  return html
    .replace(ENTRY_SCRIPT, "")
    .replace(MODULE_PRELOAD, "")
    .replace(LANGUAGE_PRELOAD, "")
    .replace("</body>", `  ${loader}\n  </body>`);
}

/** index.html with the page's markup in #root and its title and description in the head. */
export function fillShell(shell: string, page: Page): string {
  const root = '<div id="root"></div>';
  if (!shell.includes(root)) throw new Error(`prerender: index.html has no ${root}`);
  return startScriptsAfterPaint(shell)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace(root, `<div id="root"><div data-prerendered="">${page.html}</div></div>`);
}

/**
 * app.html: index.html with the app shell's markup in #root (app-shell.tsx), which the app's first
 * render replaces, and the scripts started after its paint as on the pre-rendered pages.
 */
export function fillAppShell(shell: string, markup: string): string {
  const root = '<div id="root"></div>';
  if (!shell.includes(root)) throw new Error(`prerender: index.html has no ${root}`);
  return startScriptsAfterPaint(shell).replace(root, `<div id="root">${markup}</div>`);
}

export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "moverscan-prerender",
    apply: (_config, env) => env.command === "build" && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        if (process.env[PRERENDER_SSR_ENV]) return;
        const dist = config.build.outDir;
        // Inside the repository, so the bundle resolves React and the rest from node_modules.
        const ssrOut = path.join(
          config.root,
          "..",
          "node_modules",
          ".cache",
          "moverscan-prerender",
        );
        const { build } = await import("vite");
        process.env[PRERENDER_SSR_ENV] = "1";
        try {
          await build({
            configFile: config.configFile,
            mode: config.mode,
            logLevel: "warn",
            build: {
              ssr: "src/prerender.tsx",
              outDir: ssrOut,
              emptyOutDir: true,
              manifest: false,
              copyPublicDir: false,
              rollupOptions: { output: { entryFileNames: "prerender.mjs" } },
            },
          });
        } finally {
          delete process.env[PRERENDER_SSR_ENV];
        }
        const entry = pathToFileURL(path.join(ssrOut, "prerender.mjs")).href;
        const { prerenderPage, prerenderShell, prerenderFrame, FRAME_PATHS } = (await import(
          /* @vite-ignore */ `${entry}?t=${Date.now()}`
        )) as {
          prerenderPage: (pathname: string) => Promise<Page>;
          prerenderShell: () => Promise<string>;
          prerenderFrame: (pathname: string) => Promise<string>;
          FRAME_PATHS: string[];
        };
        const shell = readFileSync(path.join(dist, "index.html"), "utf8");
        writeFileSync(path.join(dist, SHELL_FILE), fillAppShell(shell, await prerenderShell()));
        for (const pathname of PRERENDERED_PATHS) {
          const file = path.join(dist, prerenderedFile(pathname));
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, fillShell(shell, await prerenderPage(pathname)));
        }
        // Pages that draw their frame before their data: the frame in the app shell, shown to
        // readers of English only (index.html's style), rendered over by the app.
        for (const pathname of FRAME_PATHS) {
          const file = path.join(dist, prerenderedFile(pathname));
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, fillAppShell(shell, await prerenderFrame(pathname)));
        }
        rmSync(ssrOut, { recursive: true, force: true });
      },
    },
  };
}
