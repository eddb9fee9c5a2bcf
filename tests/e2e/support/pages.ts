// The pages the audits visit (accessibility, titles): every route of web/src/app/router.tsx,
// read from the route table itself so a page added there is audited without touching the
// tests. Redirect routes and the catch-all are skipped; a route with a parameter is visited
// with the sample value below when there is one, else skipped (listed in the test's output).
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { readRouteTable } from "../../../scripts/route-bundles.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Concrete URLs for routes with parameters (the 404 page stands for every unknown path). */
const SAMPLES: Record<string, string> = {
  "*": "/no/such/page",
  // A seeded ticket (admins see every ticket) and a seeded group the demo admin belongs to.
  "/support/ticket/:id": "/support/ticket/20000000-0000-4000-8000-000000000001",
  "/community/chat": "/community/chat?groupId=10000000-0000-4000-8000-000000000003",
};

/** `guarded`: the route sits inside `<RequireAuth />`, so a visitor is sent to the login page. */
export type AuditedPage = { route: string; url: string; guarded: boolean };

/** The paths of the routes inside the route table's `<RequireAuth />` element. */
export function guardedPaths(source: string): Set<string> {
  const at = source.indexOf("element: <RequireAuth />");
  if (at < 0) return new Set();
  const open = source.indexOf("children: [", at) + "children: ".length;
  let depth = 0;
  let end = open;
  for (; end < source.length; end++) {
    if (source[end] === "[") depth++;
    else if (source[end] === "]" && --depth === 0) break;
  }
  return new Set([...source.slice(open, end).matchAll(/path: "([^"]+)"/g)].map((m) => `/${m[1]}`));
}

export function auditedPages(): { pages: AuditedPage[]; skipped: string[] } {
  const source = readFileSync(path.join(ROOT, "web/src/app/router.tsx"), "utf8");
  const guarded = guardedPaths(source);
  const pages: AuditedPage[] = [];
  const skipped: string[] = [];
  for (const route of readRouteTable(source)) {
    if (/Redirect$/.test(route.component)) continue;
    const sample = SAMPLES[route.path.slice(1)] ?? SAMPLES[route.path];
    const isGuarded = guarded.has(route.path);
    if (sample) pages.push({ route: route.path, url: sample, guarded: isGuarded });
    else if (/[:*]/.test(route.path)) skipped.push(route.path);
    else pages.push({ route: route.path, url: route.path, guarded: isGuarded });
  }
  return { pages, skipped };
}

/** The demo admin: an enterprise subscriber and an administrator, so every guard lets it in. */
export const ADMIN = { email: "admin@demo.local", password: "demo-password-1" };

export async function logIn(page: Page, email = ADMIN.email, password = ADMIN.password) {
  await page.goto("/auth/login?redirect=%2Fprofile");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await page.waitForURL(/\/profile$/);
}

/**
 * `page.goto`, then waits until the app has taken over a pre-rendered page (web/prerender.config.ts):
 * before that, its buttons are static HTML.
 */
export async function gotoApp(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator("[data-prerendered]")).toHaveCount(0);
}
