import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

// Unit tests for the SPA and for the runtime-agnostic domain module.
// Run from the repository root: `npx vitest run --config web/vitest.config.ts`.
export default defineConfig((env) =>
  mergeConfig(
    viteConfig(env),
    defineConfig({
      test: {
        root: repoRoot,
        environment: "jsdom",
        // See asyncUtilTimeout in src/testing/setup.ts: outcomes, not deadlines.
        testTimeout: 30_000,
        // Vitest leaves one core to itself by default: one test file at a time on a 2-core
        // machine, where its own process is mostly idle once the files are transformed.
        maxWorkers: Math.max(2, availableParallelism() - 1),
        include: [
          "web/src/**/*.test.{ts,tsx}",
          "web/*.test.ts",
          "supabase/functions/_shared/domain/**/*.test.ts",
        ],
        setupFiles: [fileURLToPath(new URL("./src/testing/setup.ts", import.meta.url))],
        env: {
          VITE_SUPABASE_URL: "http://127.0.0.1:54321",
          VITE_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_test",
        },
      },
    }),
  ),
);
