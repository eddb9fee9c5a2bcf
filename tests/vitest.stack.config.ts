import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/stack/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
