// Keyboard use: the language menu, the analysis dialog (focus moves in, stays in, and returns
// to the button that opened it), the group chat (send, edit, delete) and a visible focus
// indicator, with no mouse.
import { expect, test, type Page } from "@playwright/test";
import { gotoApp, logIn } from "./support/pages";

const focusedInside = (page: Page, selector: string) =>
  page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);

/** The focus moves into `selector` and stays there for `tabs` presses of Tab. */
async function expectFocusTrapped(page: Page, selector: string, tabs: number) {
  await expect.poll(() => focusedInside(page, selector)).toBe(true);
  for (let i = 0; i < tabs; i++) {
    await page.keyboard.press("Tab");
    expect(await focusedInside(page, selector)).toBe(true);
  }
}

test("the language menu works from the keyboard and sets <html lang>", async ({ page }) => {
  await gotoApp(page, "/pricing");
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
  // Its chart and analysis load after it opens: a control replaced by its content while focused
  // drops the focus to the page, so the trap is checked on the loaded dialog.
  await expect(dialog.locator(".animate-spin")).toHaveCount(0, { timeout: 30_000 });
  await expectFocusTrapped(page, "[role=dialog]", 8);
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

test("the group chat works from the keyboard: send, edit, and delete with a confirmation", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await logIn(page);
  await page.goto("/community/chat?groupId=10000000-0000-4000-8000-000000000003");
  const input = page.getByLabel("Message", { exact: true });
  await expect(input).toBeEnabled({ timeout: 30_000 });

  // The message box is reached with Tab from the top of the page.
  await page.locator("body").focus();
  for (let i = 0; i < 60 && !(await input.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press("Tab");
  }
  await expect(input).toBeFocused();
  const text = `Typed without a mouse ${Date.now()}`;
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
  const mine = page
    .getByTestId("chat-message")
    .filter({ has: page.getByText(text, { exact: true }) });
  await expect(mine).toBeVisible();
  await expect(input).toHaveValue("");

  // Its actions menu: opened with Enter, items chosen with the arrows.
  const actions = mine.getByRole("button", { name: "Message actions" });
  await actions.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menu")).toBeVisible();
  expect(await focusedInside(page, "[role=menu]")).toBe(true);
  await expect(page.getByRole("menuitem", { name: "Edit" })).toBeFocused();
  await page.keyboard.press("Enter");
  const editor = mine.getByLabel("Edit message");
  await expect(editor).toBeFocused();
  await page.keyboard.press("End");
  await page.keyboard.type(" (fixed)");
  await page.keyboard.press("Enter");
  const edited = page
    .getByTestId("chat-message")
    .filter({ has: page.getByText(`${text} (fixed)`, { exact: true }) });
  await expect(edited.getByTestId("chat-edited")).toBeVisible();
  // Leaving the editor puts the focus back on the message's menu button.
  await expect(edited.getByRole("button", { name: "Message actions" })).toBeFocused();

  // Delete: the confirmation traps focus, Escape backs out to the menu's button.
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Edit" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toBeVisible();
  await expectFocusTrapped(page, "[role=alertdialog]", 4);
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(edited).toBeVisible();
  await expect(edited.getByRole("button", { name: "Message actions" })).toBeFocused();

  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Edit" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).focus();
  await page.keyboard.press("Enter");
  await expect(edited).toHaveCount(0);
});
