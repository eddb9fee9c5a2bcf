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

test("an unknown route shows the 404 page", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByText("404 Page Not Found")).toBeVisible();
});
