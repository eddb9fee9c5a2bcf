// The core of the reader's language (src/i18n/bundles/<lng>-core.ts) is needed before the first render;
// without a hint the browser only asks for it once the entry script has run (one round trip
// more). This build plugin adds a tiny inline script to index.html that preloads the chunk of
// the saved language (else the browser's, else English) in parallel with the entry.
import type { Plugin } from "vite";

export function languagePreload(): Plugin {
  return {
    name: "moverscan-language-preload",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, ctx) {
        const files: Record<string, string> = {};
        for (const chunk of Object.values(ctx.bundle ?? {})) {
          if (chunk.type !== "chunk" || !chunk.facadeModuleId) continue;
          const match = /\/src\/i18n\/bundles\/(de|en|fr|es)-core\.ts$/.exec(chunk.facadeModuleId);
          if (match) files[match[1]!] = `/${chunk.fileName}`;
        }
        if (!files.en)
          throw new Error("language-preload: no chunk for src/i18n/bundles/en-core.ts");
        const script =
          `(function(){var f=${JSON.stringify(files)},l;try{l=localStorage.getItem("language")}catch(e){}` +
          // No saved choice: the first of the browser's languages the app speaks (languages.ts).
          `if(!f[l]){var n=navigator.languages||[navigator.language];` +
          `for(var i=0;n[i];i++){var p=String(n[i]).split(/[-_]/)[0].toLowerCase();if(f[p]){l=p;break}}}` +
          `var k=document.createElement("link");k.rel="modulepreload";k.crossOrigin="anonymous";` +
          `k.href=f[l]||f.en;document.head.appendChild(k)})()`;
        return [{ tag: "script", children: script, injectTo: "head" }];
      },
    },
  };
}
