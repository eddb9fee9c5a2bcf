import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The SPA's aliases, for the suites that drive its hooks against the stack.
  resolve: {
    alias: {
      "@domain": fileURLToPath(new URL("../supabase/functions/_shared/domain", import.meta.url)),
      "@": fileURLToPath(new URL("../web/src", import.meta.url)),
    },
  },
  test: {
    include: ["tests/stack/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
