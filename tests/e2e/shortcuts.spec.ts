// Issue 28: keyboard shortcuts (1–7, /, j/k, Enter/a on the dashboard; g d / g c / g s and ? on
// every page), each announced in the live region and quiet while typing; and a first visit in
// the browser's language, a picked language kept. Chromium against `npm start`.
import { expect, test, type Page } from "@playwright/test";
import { gotoApp, logIn } from "./support/pages";

const PASSWORD = "demo-password-1";
const WINDOWS = [
  "10 seconds",
  "5 minutes",
  "10 minutes",
  "15 minutes",
  "20 minutes",
  "25 minutes",
  "30 minutes",
];
const WINDOW_VALUES = ["0", "5", "10", "15", "20", "25", "30"];

async function openDashboard(page: Page, email = "enterprise@demo.local") {
  await logIn(page, email, PASSWORD);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("table tbody tr").first()).toBeVisible({ timeout: 30_000 });
  await leaveFields(page);
}

/** Takes the focus off any field, as a reader who clicks the page's background. */
async function leaveFields(page: Page) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

const announcer = (page: Page) => page.getByTestId("live-announcer");

test("keys 1–7 choose the time window, as the plan allows, and say so", async ({ page }) => {
  // Each window is saved to the profile and the feed switches to it: slow on a busy machine.
  test.setTimeout(300_000);
  await openDashboard(page);
  const select = page.getByLabel("Time Window", { exact: true });
  const before = await select.inputValue();
  for (const [i, label] of WINDOWS.entries()) {
    await page.keyboard.press(String(i + 1));
    await expect(announcer(page)).toHaveText(`Window: ${label}`);
    await expect(select).toHaveValue(WINDOW_VALUES[i]!, { timeout: 30_000 });
    await expect(select).toBeEnabled({ timeout: 30_000 });
    await leaveFields(page);
  }
  // Back to the window the account had.
  await page.keyboard.press(String(WINDOW_VALUES.indexOf(before) + 1));
  await expect(select).toHaveValue(before, { timeout: 30_000 });
});

test("a window the plan does not include is not chosen, and the reader hears why", async ({
  page,
}) => {
  await openDashboard(page, "pro@demo.local");
  const select = page.getByLabel("Time Window", { exact: true });
  const before = await select.inputValue();
  await page.keyboard.press("1");
  await expect(announcer(page)).toHaveText("10 seconds is not in your plan");
  await expect(select).toHaveValue(before);
});

test("/ focuses the minimum-% filter, and no shortcut fires while typing there", async ({
  page,
}) => {
  await openDashboard(page);
  const select = page.getByLabel("Time Window", { exact: true });
  const before = await select.inputValue();
  await page.keyboard.press("/");
  const field = page.getByRole("spinbutton", { name: "Minimum %" });
  await expect(field).toBeFocused();
  // Digits and j are the field's, not the window's or the rows'.
  await page.keyboard.press("Control+a");
  await page.keyboard.type("3");
  await page.keyboard.press("j");
  await expect(field).toHaveValue("3");
  await expect(select).toHaveValue(before);
  await expect(page.locator("table tbody tr[aria-current]")).toHaveCount(0);
  await expect(announcer(page)).toHaveText("");
});

test("j and k move through the movers rows, Enter and a open the selected one's analysis", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openDashboard(page);
  const selected = page.locator("table tbody tr[aria-current='true']");
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  /**
   * The row marked after a press (not `previous`) is focused, in view, and what the live region
   * says ("Row 3 of 100: BTC/USDT"). A scan may move rows between presses: positions are read.
   */
  const selection = async (previous: string | null) => {
    await expect(selected).toHaveCount(1);
    if (previous !== null) await expect(selected).not.toHaveAttribute("data-mover-row", previous);
    const id = (await selected.getAttribute("data-mover-row"))!;
    const symbol = (await selected.locator("th").textContent())!.trim();
    await expect(announcer(page)).toHaveText(new RegExp(`^Row \\d+ of \\d+: ${escape(symbol)}$`));
    await expect(selected.locator("th button")).toBeFocused();
    await expect(selected).toBeInViewport();
    return { id, symbol };
  };

  await page.keyboard.press("j");
  const first = await selection(null);
  await expect(announcer(page)).toHaveText(/^Row 1 of \d+: /);
  await page.keyboard.press("j");
  const second = await selection(first.id);
  await page.keyboard.press("j");
  const third = await selection(second.id);
  await page.keyboard.press("k");
  const selectedRow = await selection(third.id);
  const back = selectedRow.symbol;

  // `a` opens the analysis of the selected row.
  await leaveFields(page);
  await page.keyboard.press("a");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole("heading").first()).toContainText(back);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // So does Enter (here with the focus on the page, not on the row's button).
  await leaveFields(page);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await expect(dialog.getByRole("heading").first()).toContainText(back);
  // Inside the dialog the dashboard's keys are quiet.
  await page.keyboard.press("j");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(selected).toHaveAttribute("data-mover-row", selectedRow.id);
});

test("g d, g c and g s go to the dashboard, the charts and support", async ({ page }) => {
  await logIn(page, "enterprise@demo.local", PASSWORD);
  await leaveFields(page);
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await page.waitForURL(/\/charts$/);
  await expect(announcer(page)).toHaveText("Opening Charts");
  await leaveFields(page);
  await page.keyboard.press("g");
  await page.keyboard.press("s");
  await page.waitForURL(/\/support$/);
  await leaveFields(page);
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await page.waitForURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 20_000 });
});

test("a visitor's g d goes where the route guard sends them: the login", async ({ page }) => {
  await gotoApp(page, "/pricing");
  // The keys are the app's once it has taken over the pre-rendered page: press until then.
  await expect(async () => {
    await page.keyboard.press("g");
    await page.keyboard.press("d");
    await page.waitForURL(/\/auth\/login/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
});

test("? opens a help overlay listing every shortcut in the reader's language", async ({ page }) => {
  await gotoApp(page, "/pricing");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  // The keys are the app's once it has taken over the pre-rendered page: press until then.
  await expect(async () => {
    await page.keyboard.press("?");
    await expect(help).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  for (const text of [
    "Go to the dashboard",
    "Go to the charts",
    "Go to support",
    "Show this list",
    "Jump to the minimum % filter",
    "Select the next mover",
    "Select the previous mover",
    "Open the selected mover's analysis",
  ]) {
    await expect(help.getByText(text, { exact: true })).toBeVisible();
  }
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  await page.evaluate(() => localStorage.setItem("language", "de"));
  await gotoApp(page, "/pricing");
  const hilfe = page.getByRole("dialog", { name: "Tastenkürzel" });
  await expect(async () => {
    await page.keyboard.press("?");
    await expect(hilfe).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(hilfe.getByText("Zu den Charts", { exact: true })).toBeVisible();
});

test.describe("a German browser", () => {
  test.use({ locale: "de-DE" });

  test("sees its first visit in German, with <html lang=de>", async ({ page }) => {
    await gotoApp(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Krypto-Mover erkennen, sobald sie sich bewegen",
    );
    // Nothing was saved: the language follows the browser until the reader picks one.
    expect(await page.evaluate(() => localStorage.getItem("language"))).toBeNull();
  });

  test("keeps English once the reader picked it", async ({ page }) => {
    await gotoApp(page, "/");
    await page.getByRole("button", { name: "Sprache ändern (aktuell: Deutsch)" }).click();
    await page.getByRole("menuitemradio", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await gotoApp(page, "/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(
      "Krypto-Mover erkennen, sobald sie sich bewegen",
    );
    await expect(
      page.getByRole("button", { name: "Change language (current: English)" }),
    ).toBeVisible();
  });
});
