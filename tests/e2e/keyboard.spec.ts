// Keyboard use: the language menu, the analysis dialog (focus moves in, stays in, and returns
// to the button that opened it) and a visible focus indicator, with no mouse.
import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./support/pages";

const focusedInside = (page: Page, selector: string) =>
  page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);

test("the language menu works from the keyboard and sets <html lang>", async ({ page }) => {
  await page.goto("/pricing");
  const trigger = page.getByRole("button", { name: "Change language (current: English)" });
  await trigger.focus();
  // The focus ring is visible (a box-shadow ring or an outline) when reached by keyboard.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Tab");
  await expect(trigger).toBeFocused();
  const ring = await trigger.evaluate((el) => {
    const s = getComputedStyle(el);
    return s.boxShadow !== "none" || (s.outlineStyle !== "none" && s.outlineWidth !== "0px");
  });
  expect(ring).toBe(true);

  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await expect(menu).toBeVisible();
  expect(await focusedInside(page, "[role=menu]")).toBe(true);
  // Move to "Deutsch" and choose it.
  for (let i = 0; i < 4; i++) {
    const label = await page.evaluate(() => document.activeElement?.textContent ?? "");
    if (label.includes("Deutsch")) break;
    await page.keyboard.press("ArrowDown");
  }
  await page.keyboard.press("Enter");
  await expect(menu).toBeHidden();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await expect(page).toHaveTitle("Preise · MoverScan");
  // Focus returns to the menu's button.
  await expect(page.getByRole("button", { name: /Sprache ändern|Deutsch/ })).toBeFocused();
});

test("the analysis dialog traps focus and returns it to its button", async ({ page }) => {
  test.setTimeout(90_000);
  await logIn(page);
  await page.goto("/dashboard");
  const open = page.getByRole("button", { name: /^Open analysis for / }).first();
  await expect(open).toBeVisible({ timeout: 45_000 });
  await open.focus();
  const name = await open.getAttribute("aria-label");
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect.poll(() => focusedInside(page, "[role=dialog]")).toBe(true);
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(await focusedInside(page, "[role=dialog]")).toBe(true);
  }
  await page.keyboard.press("Shift+Tab");
  expect(await focusedInside(page, "[role=dialog]")).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect
    .poll(() =>
      page.evaluate(() => {
        const el = document.activeElement;
        return `${el?.tagName} ${el?.getAttribute("aria-label") ?? el?.textContent?.slice(0, 40)}`;
      }),
    )
    .toBe(`BUTTON ${name}`);
  // A second opening works the same (the dialog stays loaded).
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close" }).press("Enter");
  await expect(dialog).toBeHidden();
});
