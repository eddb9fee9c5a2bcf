import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));

const include = [
  "web/src/**/*.test.{ts,tsx}",
  "web/*.test.ts",
  "supabase/functions/_shared/domain/**/*.test.ts",
];

// Most files share one module registry per worker (`isolate: false`): a fresh registry per file
// re-imported React, Radix and the app for each of the 90-odd files, three quarters of the
// suite's time. A file that mocks a module of its own (`vi.mock` beyond the set-up's mocks, which
// every file shares) would hand its stand-in to the files after it, and be handed the real
// module by the files before it, so those files run isolated, each with a registry of its own.
const ownMocks = ["web", "supabase/functions/_shared/domain"]
  .flatMap((dir) =>
    readdirSync(`${repoRoot}/${dir}`, { recursive: true, encoding: "utf8" })
      .filter((file) => /\.test\.tsx?$/.test(file) && !file.includes("node_modules"))
      .map((file) => `${dir}/${file}`),
  )
  .filter((file) => /\bvi\.mock\(/.test(readFileSync(`${repoRoot}/${file}`, "utf8")));

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
        setupFiles: [fileURLToPath(new URL("./src/testing/setup.ts", import.meta.url))],
        env: {
          VITE_SUPABASE_URL: "http://127.0.0.1:54321",
          VITE_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_test",
        },
        projects: [
          { extends: true, test: { name: "shared", include, exclude: ownMocks, isolate: false } },
          { extends: true, test: { name: "own-mocks", include: ownMocks, isolate: true } },
        ],
      },
    }),
  ),
);
