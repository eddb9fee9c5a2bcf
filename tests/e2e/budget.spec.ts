// The performance budget: every route of the route table, measured on the build `npm start`
// serves (web/dist and its manifest), stays within its gzipped JavaScript budget, and the heavy
// parts load on demand only.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { KB, measureRoutes, readRouteTable } from "../../scripts/route-bundles.ts";

const WEB = path.resolve(import.meta.dirname, "../../web");

test("every route's JavaScript is within its gzipped budget", async ({ page }) => {
  // The stack is up, so its build is the one on disk.
  await page.goto("/");
  const routes = measureRoutes(WEB);
  const table = readRouteTable(readFileSync(path.join(WEB, "src/app/router.tsx"), "utf8"));
  expect(routes.map((r) => r.path)).toEqual(table.map((r) => r.path));
  expect(routes.length).toBeGreaterThan(10);
  const over = routes
    .filter((r) => r.js > r.budget)
    .map((r) => `${r.path}: ${(r.js / KB).toFixed(1)} KB > ${(r.budget / KB).toFixed(0)} KB`);
  expect(over).toEqual([]);
  // Pages are split: the dashboard's code is not part of the landing page's download.
  const landing = routes.find((r) => r.path === "/")!;
  const dashboard = routes.find((r) => r.path === "/dashboard")!;
  expect(dashboard.files.filter((f) => !landing.files.includes(f)).length).toBeGreaterThan(0);
  // supabase-js is not needed before the landing page renders (loadSupabase), pages do need it.
  const manifest = JSON.parse(
    readFileSync(path.join(WEB, "dist/.vite/manifest.json"), "utf8"),
  ) as Record<string, { file: string; imports?: string[] }>;
  // src/lib/supabase.ts is loaded on demand; supabase-js itself is in the chunks it imports.
  const client = (manifest["src/lib/supabase.ts"]!.imports ?? []).map((k) => manifest[k]!.file);
  expect(client.length).toBeGreaterThan(0);
  for (const file of client) {
    expect(landing.files).not.toContain(file);
    expect(dashboard.files).toContain(file);
  }
  for (const r of routes) expect(r.css).toBeGreaterThan(0);
});

test("charts and the analysis are not downloaded until they are used", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") scripts.push(new URL(res.url()).pathname);
  });
  await page.goto("/");
  await expect(page.getByTestId("landing")).toBeVisible();
  const manifest = JSON.parse(
    readFileSync(path.join(WEB, "dist/.vite/manifest.json"), "utf8"),
  ) as Record<string, { file: string }>;
  const onDemand = [
    "src/features/charts/components/price-lines-chart.tsx",
    "src/features/dashboard/components/analysis-dialog.tsx",
    "src/app/routes/dashboard-route.tsx",
  ].map((k) => `/${manifest[k]!.file}`);
  expect(scripts.filter((s) => onDemand.includes(s))).toEqual([]);
  // The reader's language only: its core before the first render, the rest once idle.
  const chunk = (l: string, part: string) =>
    `/${manifest[`src/i18n/bundles/${l}${part}.ts`]!.file}`;
  const languages = ["de", "en", "fr", "es"].flatMap((l) => [chunk(l, "-core"), chunk(l, "")]);
  await expect
    .poll(() => scripts.filter((s) => languages.includes(s)).sort())
    .toEqual([chunk("en", "-core"), chunk("en", "")].sort());
});
