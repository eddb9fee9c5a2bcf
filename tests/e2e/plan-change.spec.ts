// Changing plans in place (issue 27, decision 0051) in Chromium against `npm start` with the
// local Stripe stand-in: a new user buys Basic through checkout, sees the upgrade prompt in the
// analysis, upgrades to Pro on the pricing page (no second checkout), lands on the dashboard with
// Pro's features, then schedules a downgrade and sees when it takes effect.
import { expect, test, type Page } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function logIn(page: Page, email: string, password: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`${redirect.replace(/[/?]/g, "\\$&")}$`));
}

async function openFirstAnalysis(page: Page) {
  const rows = page.locator("table tbody tr");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  await rows
    .first()
    .getByRole("button", { name: /Open analysis for/ })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  return dialog;
}

test("a Basic subscriber upgrades to Pro on the pricing page and lands on Pro's dashboard", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const email = `upgrader-${unique()}@example.test`;
  const password = "correct-horse-9";

  await page.goto("/auth/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await logIn(page, email, password, "/pricing");

  // Buy Basic through the hosted checkout.
  await page.getByTestId("plan-card-basic").getByRole("button", { name: "Start Now" }).click();
  await expect(page).toHaveURL(/\/stripe\/checkout\/cs_test_/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await expect(page.getByText("Subscription active")).toBeVisible();

  // Basic: the analysis shows the upgrade prompt in place of Pro's parts.
  let dialog = await openFirstAnalysis(page);
  await expect(dialog.getByTestId("upgrade-prompt")).toBeVisible({ timeout: 15_000 });
  await page.keyboard.press("Escape");

  // The pricing page: Current plan on Basic, Upgrade on Pro and Enterprise, no Start Now.
  await page.goto("/pricing");
  const basic = page.getByTestId("plan-card-basic");
  const pro = page.getByTestId("plan-card-pro");
  await expect(basic.getByRole("button", { name: "Current plan" })).toBeDisabled();
  await expect(
    page.getByTestId("plan-card-enterprise").getByRole("button", { name: "Upgrade" }),
  ).toBeEnabled();
  await expect(page.getByRole("button", { name: "Start Now" })).toHaveCount(0);

  await pro.getByRole("button", { name: "Upgrade" }).click();
  // At once, without a second checkout: the dashboard with Pro's features.
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("You are now on Pro")).toBeVisible();
  dialog = await openFirstAnalysis(page);
  await expect(dialog.getByTestId("upgrade-prompt")).toHaveCount(0);
  await expect(dialog.getByTestId("comparison")).toBeVisible({ timeout: 30_000 });
  await page.keyboard.press("Escape");

  // A downgrade waits for the end of the paid period, and the page says when.
  await page.goto("/pricing");
  await expect(pro.getByRole("button", { name: "Current plan" })).toBeDisabled();
  await basic.getByRole("button", { name: "Downgrade" }).click();
  await expect(page.getByText("Plan change scheduled")).toBeVisible();
  const notice = page.getByTestId("pending-plan-notice");
  await expect(notice).toContainText("Your plan changes to Basic on");
  await expect(notice).toContainText("Until then you keep Pro.");
  await expect(basic.getByRole("button", { name: /^Starts / })).toBeDisabled();
  await expect(pro.getByRole("button", { name: "Keep Pro" })).toBeEnabled();
  expect(errors).toEqual([]);
});
