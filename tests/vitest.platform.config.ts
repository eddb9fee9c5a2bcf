import { defineConfig } from "vitest/config";

// The platform suite: the pinned Supabase CLI, the generated types and schemas, Vault and the
// deploy script, on temporary PostgreSQL 15 clusters (and PGlite where the stack runs on it).
export default defineConfig({
  test: {
    include: ["tests/platform/**/*.test.ts"],
    environment: "node",
    testTimeout: 240_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
