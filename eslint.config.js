import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import pluginQuery from "@tanstack/eslint-plugin-query";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  // Deno code under supabase/functions is linted by `deno lint`.
  globalIgnores([
    "**/node_modules/**",
    "**/dist/**",
    "web/dist/**",
    ".data/**",
    ".deno/**",
    "supabase/functions/**",
    "scratch/**",
    "tests/fixtures/functions/**",
    "tests/artifacts/**",
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ["web/**/*.{ts,tsx}"],
    extends: [reactHooks.configs.flat.recommended, pluginQuery.configs["flat/recommended"]],
    languageOptions: {
      ecmaVersion: 2023,
      globals: globals.browser,
    },
  },
  {
    files: [
      "web/*.config.ts",
      "*.config.{js,ts}",
      "devstack/**/*.ts",
      "scripts/**/*.ts",
      "tests/**/*.ts",
    ],
    languageOptions: {
      globals: globals.node,
    },
  },
  {
    rules: {
      "@typescript-eslint/consistent-type-imports": [
        "error",
        { prefer: "type-imports", fixStyle: "inline-type-imports" },
      ],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
);
