import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["devstack/**/*.test.ts"], environment: "node" },
});
