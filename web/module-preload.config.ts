// What Vite's preload helper preloads before a dynamic import (decision 0101). For every
// `import()` in the app, Vite lists the imported chunk's whole static graph, and the helper
// (`__vitePreload`) appends a `<link rel="modulepreload">` for each chunk of it not already linked
// in the document. Most of those chunks belong to the entry's own static graph (React, the router,
// TanStack Query, the UI kit): loaded before any of the app's code runs, so preloading them again
// fetches nothing, yet each one costs a URL resolution and, while the loader is still appending
// its own links in steps (prerender.config.ts), a DOM insertion: about 200 ms of the dashboard's
// start on a phone's CPU. Here the lists leave out the entry's graph.
import type { Plugin, UserConfig } from "vite";

type Chunk = { type: "chunk"; fileName: string; isEntry: boolean; imports: readonly string[] };
type Bundle = Record<string, { type: string } | Chunk>;

/** Every chunk an entry chunk of `bundle` imports statically, directly or not, with the entries. */
export function entryGraph(bundle: Bundle): Set<string> {
  const chunks = new Map<string, Chunk>();
  for (const item of Object.values(bundle)) {
    if (item.type === "chunk") chunks.set((item as Chunk).fileName, item as Chunk);
  }
  const graph = new Set<string>();
  const visit = (fileName: string) => {
    if (graph.has(fileName)) return;
    graph.add(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  for (const chunk of chunks.values()) if (chunk.isEntry) visit(chunk.fileName);
  return graph;
}

/**
 * `build.modulePreload` and the plugin that feeds it: before Vite writes the helper's lists
 * (its import analysis, in `generateBundle`), the plugin reads the entry's static graph from the
 * bundle; `resolveDependencies` then drops those chunks from every dynamic import's list. The
 * document's own list (`hostType` "html": the entry's preloads) is left as it is.
 */
export function modulePreload(): {
  plugin: Plugin;
  config: NonNullable<NonNullable<UserConfig["build"]>["modulePreload"]>;
} {
  let loaded: Set<string> | undefined;
  return {
    plugin: {
      name: "moverscan-module-preload",
      apply: "build",
      generateBundle: {
        order: "pre",
        handler(_options, bundle) {
          loaded = entryGraph(bundle as unknown as Bundle);
        },
      },
    },
    config: {
      resolveDependencies(_file, deps, { hostType }) {
        if (hostType !== "js" || !loaded) return deps;
        const inEntryGraph = loaded;
        return deps.filter((dep) => !inEntryGraph.has(dep));
      },
    },
  };
}
