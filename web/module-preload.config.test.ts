import { describe, expect, it } from "vitest";
import { entryGraph, modulePreload } from "./module-preload.config.ts";

const chunk = (fileName: string, imports: string[], isEntry = false) => ({
  type: "chunk" as const,
  fileName,
  isEntry,
  imports,
});

// The entry imports react and the router (which imports react); the dashboard's chunk, loaded on
// demand, imports react, the router and a chunk of its own (cards).
const bundle = {
  "assets/index.js": chunk("assets/index.js", ["assets/react.js", "assets/router.js"], true),
  "assets/react.js": chunk("assets/react.js", []),
  "assets/router.js": chunk("assets/router.js", ["assets/react.js"]),
  "assets/dashboard.js": chunk("assets/dashboard.js", ["assets/react.js", "assets/cards.js"]),
  "assets/cards.js": chunk("assets/cards.js", ["assets/router.js"]),
  "assets/index.css": { type: "asset" },
};

describe("module preloads", () => {
  it("finds the entries' static graph, not the chunks loaded on demand", () => {
    expect([...entryGraph(bundle)].sort()).toEqual([
      "assets/index.js",
      "assets/react.js",
      "assets/router.js",
    ]);
  });

  it("leaves the entry's graph out of a dynamic import's preloads once the bundle is read", () => {
    const { plugin, config } = modulePreload();
    const resolve = (config as Exclude<typeof config, boolean>).resolveDependencies!;
    const deps = ["assets/react.js", "assets/cards.js", "assets/router.js"];
    // Before the bundle is read nothing is known: the list stays whole.
    expect(
      resolve("assets/dashboard.js", deps, { hostId: "assets/index.js", hostType: "js" }),
    ).toEqual(deps);
    const generate = plugin.generateBundle as { handler: (o: unknown, b: unknown) => void };
    generate.handler({}, bundle);
    expect(
      resolve("assets/dashboard.js", deps, { hostId: "assets/index.js", hostType: "js" }),
    ).toEqual(["assets/cards.js"]);
    // The document's own preloads (the entry's graph) are kept.
    expect(resolve("assets/index.js", deps, { hostId: "index.html", hostType: "html" })).toEqual(
      deps,
    );
  });
});
