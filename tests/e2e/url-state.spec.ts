// Addresses that keep state (issue 28, decision 0045), in Chromium against `npm start`: the
// dashboard's filters survive a reload, Back returns to the previous window, and a shared
// admin-users address opens with its search, sort and page.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

const API = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 54351}`;
const PASSWORD = "e2e-password-1";

function publishableKey(): string {
  const env = readFileSync(path.join(process.cwd(), ".env.local"), "utf8");
  const m = /^SUPABASE_PUBLISHABLE_KEY=(.+)$/m.exec(env);
  if (!m) throw new Error(".env.local has no SUPABASE_PUBLISHABLE_KEY (npm start writes it)");
  return m[1]!.trim();
}

async function signUp(email: string): Promise<void> {
  const res = await fetch(`${API}/auth/v1/signup`, {
    method: "POST",
    headers: { apikey: publishableKey(), "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("the dashboard keeps its filters over a reload, and Back returns to the previous window", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, "enterprise@demo.local", "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  // Long waits for first paints: the machine is shared while the stack scans.
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 30_000 });
  const minimum = page.getByRole("spinbutton", { name: "Minimum %" }).first();
  const windowSelect = page.getByRole("combobox", { name: "Time Window" });
  const startWindow = await windowSelect.inputValue();
  const otherWindow = startWindow === "25" ? "20" : "25";

  // Filters go into the address (replacing the entry): losses only, at least 0.5 %.
  await page.getByRole("button", { name: "Losses -" }).first().click();
  await minimum.fill("0.5");
  await expect(page).toHaveURL(/\/dashboard\?dir=losses&min=0\.5$/);
  await page.reload();
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Losses -" }).first()).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(page.getByRole("spinbutton", { name: "Minimum %" }).first()).toHaveValue("0.5");
  // Every row shown after the reload is a loss.
  const rows = page.locator("table tbody tr");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  for (const p of await page.locator("table tbody tr td:nth-child(2)").allTextContents()) {
    expect(p.trim().startsWith("-") || p.trim().startsWith("−")).toBe(true);
  }

  // A window change adds an entry; Back shows the window before it, filters intact.
  await windowSelect.selectOption(otherWindow);
  await expect(page).toHaveURL(new RegExp(`[?&]window=${otherWindow}(&|$)`));
  await expect(page).toHaveURL(/dir=losses/);
  await expect(page.getByText(/Filter set to/)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`[?&]window=${startWindow}(&|$)`));
  await expect(windowSelect).toHaveValue(startWindow);
  await expect(page.getByRole("button", { name: "Losses -" }).first()).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // An address with invalid values shows the defaults, without an error.
  await page.goto("/dashboard?dir=sideways&min=abc&window=7");
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 30_000 });
  await expect(
    page.getByRole("group", { name: "Direction" }).first().getByRole("button", { name: "All" }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("alert")).toHaveCount(0);

  // Leave the stored window as it was for the other tests.
  await page.goto("/dashboard");
  await expect(windowSelect).toBeVisible({ timeout: 30_000 });
  if ((await windowSelect.inputValue()) !== startWindow) {
    await windowSelect.selectOption(startWindow);
    await expect(windowSelect).toHaveValue(startWindow);
  }
  expect(errors).toEqual([]);
});

test("a shared admin-users address opens with its search, sort and page", async ({ page }) => {
  test.setTimeout(120_000);
  const tag = `url${Date.now()}`;
  // 27 users match the search: page 2 (25 a page) holds the last two by e-mail.
  for (let i = 1; i <= 27; i++) {
    await signUp(`${tag}-${String(i).padStart(2, "0")}@e2e.test`);
  }
  await logIn(page, "admin@demo.local", "/admin");
  await expect(page).toHaveURL(/\/admin$/, { timeout: 30_000 });
  await page.goto(`/admin?q=${tag}&sort=email&order=asc&page=2`);
  await expect(page.getByRole("searchbox")).toHaveValue(tag, { timeout: 30_000 });
  const rows = page.locator('[data-testid="admin-user-row"]');
  await expect(rows).toHaveCount(2, { timeout: 20_000 });
  await expect(rows.nth(0)).toHaveAttribute("data-email", `${tag}-26@e2e.test`);
  await expect(rows.nth(1)).toHaveAttribute("data-email", `${tag}-27@e2e.test`);
  await expect(page.getByTestId("users-total")).toContainText("Total: 27");

  // Previous page, then a reload: page 1 of the same search and sort.
  await page.getByRole("button", { name: "Previous" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin\\?q=${tag}&sort=email&order=asc$`));
  await page.reload();
  await expect(rows).toHaveCount(25, { timeout: 20_000 });
  await expect(rows.nth(0)).toHaveAttribute("data-email", `${tag}-01@e2e.test`);

  // The reports tab is in the address too, and the users' view waits behind it.
  await page.getByRole("tab", { name: "Reports" }).click();
  await expect(page).toHaveURL(/[?&]tab=reports(&|$)/);
  await page.reload();
  await expect(page.getByRole("tab", { name: "Reports" })).toHaveAttribute(
    "aria-selected",
    "true",
    {
      timeout: 20_000,
    },
  );
});
