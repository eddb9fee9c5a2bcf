// The dashboard in Chromium against `npm start`, whose cron runner scans the simulated market
// every 10 s: a subscriber sees movers arrive live, filters them and opens an analysis; a free
// user is turned away.
import { expect, test, type Page } from "@playwright/test";

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("a subscriber sees movers arrive live, filters them and opens an analysis", async ({
  page,
}) => {
  // Long on a shared machine: the analysis now loads the chart library on demand.
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, "enterprise@demo.local", "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText("Simulated market data (offline mode)")).toBeVisible({
    timeout: 30_000,
  });

  // Scans every 10 s: rows appear and their times are fresh.
  const rows = page.locator("table tbody tr");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  // Each venue's state, in words.
  await expect(page.getByTestId("source-health")).toContainText(
    /Simulated market\s*Live · \d+ quotes/,
  );
  // The list is full (the window's top 100) from the first scan on: live scans change its prices.
  const livePrices = () =>
    page
      .locator("table tbody tr td:nth-child(5)")
      .allTextContents()
      .then((prices) => prices.join(" "));
  const before = await livePrices();
  await expect.poll(livePrices, { timeout: 30_000 }).not.toBe(before);

  // Gains only: every shown percent is positive.
  await page.getByRole("button", { name: "Gains +" }).click();
  const percents = await page.locator("table tbody tr td:nth-child(2)").allTextContents();
  expect(percents.length).toBeGreaterThan(0);
  for (const p of percents) expect(p.trim().startsWith("-")).toBe(false);
  await page.getByRole("button", { name: "All" }).first().click();

  // The analysis of the first symbol.
  await rows
    .first()
    .getByRole("button", { name: /Open analysis for/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText("Not financial advice").first()).toBeVisible();
  await expect(dialog.getByText("Price chart")).toBeVisible({ timeout: 15_000 });
  // The simulated market backfilled 3 hours on the stack's first scan: the analysis has its data.
  await expect(dialog.getByText("Forecast").first()).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByText("Not enough data for analysis")).toHaveCount(0);
  await page.screenshot({ path: "tests/artifacts/screenshots/dashboard-analysis.png" });
  await page.keyboard.press("Escape");

  // Each strategy's track record opens from the signals card.
  await page.getByRole("link", { name: "Track record" }).click();
  await expect(page).toHaveURL(/\/dashboard\/track-record$/);
  await expect(page.getByRole("heading", { name: "Strategy track record" })).toBeVisible();
  // The stack's first scan replayed the strategies' signals of the last 3 hours and their
  // outcomes (decision 0090): the page has a table from the first minutes.
  await expect(page.getByRole("table")).toBeVisible();
  await expect(page.getByText("No outcomes in this period yet.", { exact: false })).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({
    path: "tests/artifacts/screenshots/dashboard-phone.png",
    fullPage: true,
  });
  expect(errors).toEqual([]);
});

test("the charts page opens with the strongest movers drawn", async ({ page }) => {
  await logIn(page, "enterprise@demo.local", "/charts");
  await expect(page.getByRole("button", { name: "Symbols: 3 selected" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(
    page.getByRole("figure", { name: /^Price lines of the last 3 hours: / }),
  ).toBeVisible({
    timeout: 15_000,
  });
  await page.screenshot({ path: "tests/artifacts/screenshots/charts.png" });
});

test("a free user is turned away to pricing", async ({ page }) => {
  await logIn(page, "free@demo.local", "/dashboard");
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByText("Active subscription required")).toBeVisible();
});
