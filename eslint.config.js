import { readdirSync } from "node:fs";
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import pluginQuery from "@tanstack/eslint-plugin-query";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Boundaries of the SPA (STYLE.md, as bulletproof-react keeps them with import zones): a feature
// imports no other feature and not the app (what two features share moves down into a shared
// folder, or is composed in app/routes); shared folders import no feature and not the app; and
// the files of the entry chunk take the Supabase client from loadSupabase() (@/lib/supabase-loader)
// so the landing page renders before supabase-js arrives (decision 0028).
const FEATURES = readdirSync(new URL("./web/src/features", import.meta.url), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const SHARED = ["components", "hooks", "lib", "utils", "config", "i18n"];
const TESTS = ["web/src/**/*.test.{ts,tsx}", "web/src/testing/**"];
/** Entry-chunk code that lives in features (the session, the landing page, theme, language). */
const ENTRY_FEATURES = [
  "auth/hooks",
  "auth/api/sign-out.ts",
  "landing",
  "theme",
  "language",
  "pwa",
];
/** Shared modules only pages loaded on demand import: they may import @/lib/supabase. */
const ON_DEMAND_LIB = [
  "web/src/lib/supabase.ts",
  "web/src/lib/market-queries.ts",
  "web/src/lib/functions.ts",
];

const crossFeature = (feature) => ({
  regex: `^@/features/(?!${feature}/)`,
  message: `A feature imports no other feature: compose them in app/routes, or move what they share into a shared folder (components, hooks, lib).`,
});
const intoApp = {
  regex: "^@/app(/|$)",
  message: "Only app/ composes the app: features and shared code do not import from it.",
};
const sharedIntoFeature = {
  regex: "^@/features/",
  message:
    "Shared code imports no feature: move what it needs into the shared folder, or compose in app/routes.",
};
const climbOut = {
  regex: "^\\.\\./\\.\\./",
  message: "Import other folders by their @/ path (a relative ../../ leaves the feature).",
};
const supabaseDirect = {
  name: "@/lib/supabase",
  allowTypeImports: true,
  message:
    "The entry chunk takes the client from loadSupabase() (@/lib/supabase-loader), so the landing page renders before supabase-js has loaded (decision 0028).",
};
const restrict = (patterns, paths = []) => ({
  "no-restricted-imports": "off",
  "@typescript-eslint/no-restricted-imports": ["error", { patterns, paths }],
});

const boundaries = [
  ...FEATURES.map((feature) => ({
    files: [`web/src/features/${feature}/**/*.{ts,tsx}`],
    ignores: TESTS,
    rules: restrict([crossFeature(feature), intoApp, climbOut]),
  })),
  ...FEATURES.flatMap((feature) => {
    const entry = ENTRY_FEATURES.filter((p) => p === feature || p.startsWith(`${feature}/`));
    if (!entry.length) return [];
    return [
      {
        files: entry.map((p) =>
          p.endsWith(".ts") ? `web/src/features/${p}` : `web/src/features/${p}/**/*.{ts,tsx}`,
        ),
        ignores: TESTS,
        rules: restrict([crossFeature(feature), intoApp, climbOut], [supabaseDirect]),
      },
    ];
  }),
  {
    files: SHARED.map((dir) => `web/src/${dir}/**/*.{ts,tsx}`),
    ignores: [...TESTS, ...ON_DEMAND_LIB],
    rules: restrict([sharedIntoFeature, intoApp], [supabaseDirect]),
  },
  {
    files: ON_DEMAND_LIB,
    rules: restrict([sharedIntoFeature, intoApp]),
  },
  {
    files: [
      "web/src/app/**/*.{ts,tsx}",
      "web/src/main.tsx",
      "web/src/prerender.tsx",
      "web/src/sw.ts",
    ],
    ignores: TESTS,
    rules: restrict([], [supabaseDirect]),
  },
];

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
    // Code that breaks a rule on purpose (tests/platform/lint-boundaries.test.ts lints it).
    "tests/fixtures/lint/**",
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
  ...boundaries,
);
