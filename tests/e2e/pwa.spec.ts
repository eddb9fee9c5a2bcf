// The installable app against `npm start`'s build: the manifest, the service worker at /sw.js
// (activates, precaches the shell, keeps its hands off the API), the offline page, and the
// "new version" prompt after a deploy.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { gotoApp } from "./support/pages";

const DIST = path.resolve(import.meta.dirname, "../../web/dist");

// Other specs block service workers (playwright.config.ts); this one is about them.
test.use({ serviceWorkers: "allow" });

function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("the web manifest is linked, valid and its icons are real PNGs of the stated sizes", async ({
  page,
  request,
}) => {
  await gotoApp(page, "/");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const res = await request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await res.json()) as Record<string, unknown> & {
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(manifest).toMatchObject({
    name: "MoverScan",
    short_name: "MoverScan",
    start_url: "/",
    display: "standalone",
  });
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  for (const size of [192, 512]) {
    expect(
      manifest.icons.some((i) => i.sizes === `${size}x${size}` && i.purpose !== "maskable"),
    ).toBe(true);
  }
  expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()["content-type"]).toBe("image/png");
    const [w, h] = icon.sizes.split("x").map(Number);
    expect(pngSize(await file.body())).toEqual({ width: w, height: h });
  }
  // Both themes colour the browser's UI: the page sets theme-color from the chosen theme.
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#0a0a0a");
  await page.getByRole("button", { name: "Switch to light theme" }).first().click();
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#ffffff");
});

test("the service worker activates, goes offline to the offline page, and offers a new version after a deploy", async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await page.goto("/pricing");
  const scriptURL = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return reg.active?.scriptURL ?? null;
  });
  expect(new URL(scriptURL!).pathname).toBe("/sw.js");
  // clientsClaim: the first install controls the open page without a reload.
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toContain("/sw.js");

  // The app shell is precached: scripts, styles and the offline page; nothing of the API.
  const cachedPaths = () =>
    page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) {
        for (const req of await (await caches.open(name)).keys()) {
          urls.push(new URL(req.url).pathname);
        }
      }
      return urls;
    });
  const cached = await cachedPaths();
  expect(cached).toContain("/offline.html");
  expect(cached.some((u) => /^\/assets\/index-.*\.js$/.test(u))).toBe(true);
  expect(cached.some((u) => u.endsWith(".css"))).toBe(true);
  expect(
    cached.filter((u) => /^\/(api|auth|rest|functions|realtime|storage)(\/|$)/.test(u)),
  ).toEqual([]);
  expect(cached).not.toContain("/index.html");

  // API traffic is never stored by the worker, not even /api on the app's own origin.
  await page.evaluate(async () => {
    await fetch("/api/health").then((r) => r.text());
    await fetch("/rest/v1/").then((r) => r.text());
  });
  expect((await cachedPaths()).filter((u) => /^\/(api|rest)(\/|$)/.test(u))).toEqual([]);

  // No network: a page load shows the offline page, in the reader's language.
  await page.evaluate(() => localStorage.setItem("language", "de"));
  await context.setOffline(true);
  await page.goto("/dashboard").catch(() => undefined);
  await expect(page.getByRole("heading", { name: "Sie sind offline" })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page.getByRole("button", { name: "Erneut versuchen" })).toBeVisible();
  // Back online (the offline page reloads by itself on the browser's "online" event, or on
  // "Try again"), the app answers again.
  await context.setOffline(false);
  // The offline page's own reload may abort this navigation: try until one load completes.
  await expect(async () => {
    await page.goto("/pricing");
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("heading", { name: "Sie sind offline" })).toHaveCount(0);
  await page.evaluate(() => localStorage.setItem("language", "en"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // A deploy: the build's service worker changes (as any code change makes it). The next
  // page load finds it; it waits, and the page offers the new version instead of using it.
  const swFile = path.join(DIST, "sw.js");
  const original = readFileSync(swFile);
  try {
    writeFileSync(swFile, Buffer.concat([original, Buffer.from(`\n// deploy ${Date.now()}\n`)]));
    await page.reload();
    const prompt = page.getByTestId("update-prompt");
    await expect(prompt).toBeVisible({ timeout: 30_000 });
    await expect(prompt).toContainText("A new version is available.");
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(before).toContain("/sw.js");
    // Reload: the waiting worker takes over and the page reloads on it.
    await Promise.all([
      page.waitForEvent("load"),
      prompt.getByRole("button", { name: "Reload" }).click(),
    ]);
    await expect(page.getByTestId("update-prompt")).toHaveCount(0);
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration();
      return { waiting: reg?.waiting !== null, active: reg?.active?.state };
    });
    expect(state).toEqual({ waiting: false, active: "activated" });
  } finally {
    writeFileSync(swFile, original);
  }
});
