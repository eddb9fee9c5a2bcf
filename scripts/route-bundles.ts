// What each route of the SPA makes the browser download before it can render: the entry chunk,
// the route's page chunk and everything they import statically, gzipped, as `vite build` wrote it
// (web/dist, with its manifest). Chunks loaded on demand (charts, the analysis, menus, the toaster,
// other languages) are not counted: they arrive only when used. Used by the budget test
// (tests/e2e/budget.spec.ts) and by `npm run bench`.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const KB = 1024;

/**
 * Budgets in gzipped bytes of JavaScript (decision 0027): issue 19's 150 KB for the landing page
 * and 300 KB for the dashboard and every other route. The ticket page's own ceiling (310 KB, then
 * 304 KB) is gone: its reply form and the desk's controls load after the thread (169 KB).
 */
export const LANDING_TARGET = 150 * KB;
export const JS_BUDGETS: Record<string, number> = {
  "/": LANDING_TARGET,
};
export const DEFAULT_JS_BUDGET = 300 * KB;

export type Route = { path: string; component: string; module: string | null };
export type RouteBundle = Route & { js: number; css: number; files: string[]; budget: number };

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

/**
 * The routes of web/src/app/router.tsx, one per `{ path: "…", element: <Page /> }` (or
 * `index: true`) line, with the module of each page declared with `lazyPage(() => import(…))`;
 * a page imported statically has no module of its own (it is in the entry chunk).
 */
export function readRouteTable(source: string): Route[] {
  const modules = new Map<string, string>();
  for (const m of source.matchAll(/const (\w+) = lazyPage\(\s*\(\) => import\("([^"]+)"\)/g)) {
    modules.set(m[1]!, m[2]!);
  }
  const routes: Route[] = [];
  for (const m of source.matchAll(
    /\{\s*(?:index: true|path: "([^"]+)"),\s*element: <(\w+)\s*\/>\s*\}/g,
  )) {
    const routePath = m[1] === undefined ? "/" : `/${m[1]}`;
    routes.push({ path: routePath, component: m[2]!, module: modules.get(m[2]!) ?? null });
  }
  return routes;
}

function chunkKey(manifest: Manifest, specifier: string): string {
  // "@/…" is src/…; a relative import is relative to src/app (where router.tsx is).
  const base = specifier.replace(/^@\//, "src/").replace(/^\.\//, "src/app/");
  const key = Object.keys(manifest).find(
    (k) => /\.(tsx?|jsx?)$/.test(k) && k.replace(/\.\w+$/, "") === base,
  );
  if (!key) throw new Error(`${specifier} is not a chunk of the build (is it lazy-loaded?)`);
  return key;
}

function closure(manifest: Manifest, key: string, seen: Set<string>): void {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(manifest, dep, seen);
}

/** Every route's gzipped JavaScript and CSS, from a build made with `build.manifest`. */
export function measureRoutes(webRoot: string): RouteBundle[] {
  const dist = path.join(webRoot, "dist");
  const manifestFile = path.join(dist, ".vite", "manifest.json");
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run npm run build`);
  const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest;
  const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entry) throw new Error("the build manifest has no entry");
  const core = Object.keys(manifest).find((k) => k.endsWith("src/i18n/bundles/en-core.ts"));
  const later = Object.keys(manifest).find((k) => k.endsWith("src/i18n/bundles/en.ts"));
  const routes = readRouteTable(readFileSync(path.join(webRoot, "src/app/router.tsx"), "utf8"));
  const gz = new Map<string, number>();
  const size = (file: string) => {
    if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file))).length);
    return gz.get(file)!;
  };
  return routes.map((route) => {
    const keys = new Set<string>();
    closure(manifest, entry, keys);
    if (route.module) closure(manifest, chunkKey(manifest, route.module), keys);
    // The core of the reader's language (English here) is loaded before the first render; every
    // page but the landing page also waits for the other namespaces.
    if (core) closure(manifest, core, keys);
    if (later && route.path !== "/") closure(manifest, later, keys);
    const js = [...keys].map((k) => manifest[k]!.file);
    const css = [...new Set([...keys].flatMap((k) => manifest[k]!.css ?? []))];
    return {
      ...route,
      js: js.reduce((sum, f) => sum + size(f), 0),
      css: css.reduce((sum, f) => sum + size(f), 0),
      files: [...js, ...css],
      budget: JS_BUDGETS[route.path] ?? DEFAULT_JS_BUDGET,
    };
  });
}

export function formatRoutes(bundles: RouteBundle[]): string {
  const kb = (n: number) => `${(n / KB).toFixed(1)} KB`;
  return bundles
    .map(
      (b) =>
        `${b.path.padEnd(26)} JS ${kb(b.js).padStart(9)} gz (budget ${kb(b.budget)}) · CSS ${kb(b.css).padStart(8)} gz` +
        (b.js > b.budget ? "  OVER BUDGET" : ""),
    )
    .join("\n");
}
