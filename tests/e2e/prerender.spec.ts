// The pre-rendered landing and pricing pages (web/prerender.config.ts): their HTML is there before
// any script runs, the app renders over it, and visitors it does not fit (another language, a
// session) do not see it.
import { expect, test, type Page } from "@playwright/test";

const HERO = "Catch crypto movers the moment they move";

/** Keeps the app's entry script from running, so what shows is the HTML as served. */
async function withoutTheApp(page: Page) {
  await page.route(/\/assets\/index-[\w-]+\.js$/, (route) => route.abort());
}

test("/ and /pricing are served with their content and titles; other addresses with the app shell", async ({
  request,
}) => {
  const landing = await (await request.get("/")).text();
  expect(landing).toContain('<div data-prerendered="">');
  expect(landing).toContain(HERO);
  expect(landing).toContain("<title>MoverScan — live crypto movers</title>");

  const pricing = await (await request.get("/pricing")).text();
  expect(pricing).toContain("Choose your plan");
  expect(pricing).toContain("<title>Pricing · MoverScan</title>");

  // The app shell (the header's bar, web/src/app/layout/app-shell.tsx), which the app replaces.
  for (const other of ["/dashboard", "/auth/login", "/no/such/page"]) {
    const shell = await (await request.get(other)).text();
    expect(shell, other).toMatch(/<div id="root"><div [^>]*data-app-shell="">/);
    expect(shell, other).toContain("<span>MoverScan</span>");
    expect(shell, other).not.toContain("<div data-prerendered");
  }
  // The dashboard's frame is in its shell (English, for English readers only).
  const dashboard = await (await request.get("/dashboard")).text();
  expect(dashboard).toContain('data-english-only=""');
  expect(dashboard).toContain("The strongest price moves across centralized");
  const login = await (await request.get("/auth/login")).text();
  expect(login).not.toContain('data-english-only=""');
});

test("before the app has loaded, other addresses show the header's bar, the dashboard its frame", async ({
  page,
}) => {
  await withoutTheApp(page);
  await page.goto("/auth/login");
  await expect(page.getByRole("banner").getByText("MoverScan")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  await expect(page.getByText("The strongest price moves across centralized")).toBeVisible();
  // A reader of another language does not see the English frame; the bar stays.
  await page.evaluate(() => localStorage.setItem("language", "fr"));
  await page.reload();
  await expect(page.getByText("The strongest price moves across centralized")).toBeHidden();
});

test("without the app's scripts a first-time visitor already reads the landing and pricing pages", async ({
  page,
}) => {
  await withoutTheApp(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: HERO })).toBeVisible();
  await expect(page.getByRole("link", { name: "Get started" })).toBeVisible();
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { name: "Choose your plan" })).toBeVisible();
  await expect(page.getByText("€69")).toBeVisible();
});

test("the app renders over the pre-rendered page and works, without errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  // The heading as served, remembered before the app starts (it starts after the first paint).
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { served: Element | null }).served = document.querySelector("h1");
    });
  });
  await page.goto("/");
  // The app takes the served page over (hydration: the same elements, now live) and it works:
  // the teaser goes live, the menus open. A difference would be a console error.
  await expect(page.locator("[data-prerendered]")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1, name: HERO })).toBeVisible();
  expect(
    await page.evaluate(
      () =>
        (window as unknown as { served: Element | null }).served === document.querySelector("h1"),
    ),
  ).toBe(true);
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  const strip = page.getByRole("region", { name: "Live Updates" });
  await expect(strip.getByRole("status").filter({ hasText: "Live" })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByRole("button", { name: /language/i }).click();
  await page.getByRole("menuitemradio", { name: /Deutsch/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Krypto-Mover erkennen, sobald sie sich bewegen",
  );
  expect(errors).toEqual([]);
});

test("a reader of another language or a signed-in visitor does not see the English page flash", async ({
  page,
}) => {
  await withoutTheApp(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: HERO })).toBeVisible();

  await page.evaluate(() => localStorage.setItem("language", "de"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-prerender", "stale");
  await expect(page.getByRole("heading", { level: 1, name: HERO })).toBeHidden();

  await page.evaluate(() => {
    localStorage.removeItem("language");
    localStorage.setItem("sb-127-auth-token", "{}");
  });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: HERO })).toBeHidden();

  // With the app, the German reader gets the German page.
  await page.unrouteAll();
  await page.evaluate(() => {
    localStorage.clear();
    localStorage.setItem("language", "de");
  });
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Krypto-Mover erkennen, sobald sie sich bewegen",
  );
});
