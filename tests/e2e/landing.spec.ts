import { expect, test } from "@playwright/test";

test("the landing page served by npm start renders in Chromium", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await page.goto("/");
  await expect(page.getByTestId("landing")).toBeVisible();
  await expect(page.getByRole("link", { name: /pricing/i }).first()).toBeVisible();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.screenshot({ path: "tests/artifacts/landing.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("a visitor's Live Updates strip follows the scans of the simulated market", async ({
  page,
}) => {
  await page.goto("/");
  const strip = page.getByRole("region", { name: "Live Updates" });
  await expect(strip.getByRole("status").filter({ hasText: "Live" })).toBeVisible({
    timeout: 15_000,
  });
  const cards = strip.getByRole("listitem");
  await expect(cards).toHaveCount(3, { timeout: 30_000 });
  // Each scan (every 10 s) sends the strip again: the cards' times move on without a reload.
  const stamps = () =>
    strip
      .locator("time")
      .evaluateAll((times) => times.map((t) => t.getAttribute("datetime")).join("|"));
  const before = await stamps();
  await expect.poll(stamps, { timeout: 30_000 }).not.toBe(before);
});

test("an unknown route shows the 404 page", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByText("404 Page Not Found")).toBeVisible();
});
