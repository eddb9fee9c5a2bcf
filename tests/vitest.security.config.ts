import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The hardening suite (tests/security): attacks on a running local stack, each pinned by a test.
export default defineConfig({
  resolve: {
    alias: {
      "@domain": fileURLToPath(new URL("../supabase/functions/_shared/domain", import.meta.url)),
      "@": fileURLToPath(new URL("../web/src", import.meta.url)),
    },
  },
  test: {
    include: ["tests/security/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
