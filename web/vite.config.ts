import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { languagePreload } from "./language-preload.config.ts";
import { modulePreload } from "./module-preload.config.ts";
import { prerender } from "./prerender.config.ts";
import { pwa } from "./pwa.config.ts";

const webRoot = fileURLToPath(new URL(".", import.meta.url));
const repoRoot = fileURLToPath(new URL("..", import.meta.url));

function devPort(): number {
  const raw = process.env.WEB_PORT;
  if (raw === undefined || raw === "") return 5173;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`WEB_PORT must be an integer between 1 and 65535, got "${raw}"`);
  }
  return port;
}

// The SPA lives in web/; `.env*` files are read from the repository root so
// the SPA and the local stack share one set of VITE_* variables.
export default defineConfig(({ isSsrBuild }) => {
  const preloads = modulePreload();
  return {
    root: webRoot,
    envDir: repoRoot,
    // The server-side build (prerender.config.ts) needs the app's code only.
    plugins: isSsrBuild
      ? [react()]
      : [react(), tailwindcss(), languagePreload(), preloads.plugin, ...pwa(), prerender()],
    resolve: {
      alias: {
        "@domain": fileURLToPath(new URL("../supabase/functions/_shared/domain", import.meta.url)),
        // The alert and ticket messages' texts, one set for the SPA and the edge functions (0059).
        "@messages": fileURLToPath(new URL("../supabase/functions/_shared/i18n", import.meta.url)),
        "@": fileURLToPath(new URL("./src", import.meta.url)),
      },
    },
    server: {
      port: devPort(),
      strictPort: true,
    },
    preview: {
      port: devPort(),
      strictPort: true,
    },
    build: {
      outDir: fileURLToPath(new URL("./dist", import.meta.url)),
      emptyOutDir: true,
      // dist/.vite/manifest.json: which chunks each route loads (scripts/route-bundles.ts).
      manifest: true,
      // A dynamic import preloads none of the entry's own chunks (module-preload.config.ts).
      modulePreload: preloads.config,
    },
  };
});
