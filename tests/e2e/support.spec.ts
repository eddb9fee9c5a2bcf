// Support in Chromium against `npm start`: a user opens a ticket; an admin, in a second browser
// context, sees it on the desk (and in the header's unanswered count), keeps an internal note,
// saves and inserts a canned reply, replies and closes the ticket; the user sees the reply and
// the closed state arrive live, never the note, and the reply box is disabled. Also: the login
// round trip, /support/:id, "Ticket not found", "Admin access required", and phone screenshots
// in both themes (tests/artifacts/screenshots/).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page } from "@playwright/test";

const PASSWORD = "demo-password-1";
const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(new RegExp(`${redirect.replace(/[/?]/g, "\\$&")}$`));
}

async function openAs(browser: Browser, email: string, redirect: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, email, redirect);
  return { context, page, errors };
}

test("a ticket's thread is live: the admin replies and closes, the user sees it and cannot reply", async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const subject = `Alerts stopped ${unique()}`;
  const note = `Internal: check the mail log ${unique()}`;
  const canned = `Thanks for the report! ${unique()}`;

  // Logged out, /support goes to the login page and comes back after it.
  await page.goto("/support");
  await expect(page).toHaveURL(/\/auth\/login\?redirect=\/support$/);
  await page.getByLabel("Email").fill("free@demo.local");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole("heading", { name: "Support Center" })).toBeVisible();
  await expect(
    page
      .getByRole("navigation", { name: "Main navigation" })
      .getByRole("link", { name: "Support" }),
  ).toBeVisible();
  // Not an admin: no desk link in the header, and the desk says so.
  await expect(page.getByTestId("desk-header-link")).toHaveCount(0);

  // New Ticket: the server rules are the form's rules.
  await page.getByRole("button", { name: "New Ticket" }).click();
  const dialog = page.getByRole("dialog", { name: "New Ticket" });
  await dialog.getByLabel("Subject").fill("Hey");
  await dialog.getByLabel("Details").fill("short");
  await dialog.getByRole("button", { name: "Create Ticket" }).click();
  await expect(dialog.getByText("The subject must be at least 5 characters.")).toBeVisible();
  await expect(dialog.getByText("The details must be at least 10 characters.")).toBeVisible();
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Details").fill("My e-mail alerts stopped arriving yesterday evening.");
  await expect(dialog.getByRole("combobox", { name: "Priority" })).toHaveText("Medium");
  await dialog.getByRole("combobox", { name: "Priority" }).click();
  await page.getByRole("option", { name: "High" }).click();
  await dialog.getByRole("button", { name: "Create Ticket" }).click();
  await expect(page.getByText("Ticket created", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const item = page.getByTestId("ticket-item").filter({ hasText: subject });
  await expect(item).toBeVisible();
  await expect(item).toContainText(/#\d{4,}/);
  await expect(item).toContainText("Open");
  await expect(item).toContainText("High priority");
  await item.click();
  await expect(page).toHaveURL(/\/support\/ticket\/[0-9a-f-]{36}$/);
  const ticketPath = new URL(page.url()).pathname;
  const ticketId = ticketPath.split("/").pop()!;
  await expect(page.getByRole("heading", { name: subject })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Live" })).toBeVisible();
  await expect(page.getByTestId("internal-notes")).toHaveCount(0);

  // The admin, in a second context: the desk lists the ticket, the header counts it.
  const admin = await openAs(browser, "admin@demo.local", "/admin/tickets");
  const desk = admin.page;
  await expect(desk.getByRole("heading", { name: "Support Tickets Management" })).toBeVisible();
  const headerCount = desk.getByTestId("desk-unanswered-count");
  await expect(headerCount).toBeVisible();
  const waitingBefore = Number(await headerCount.textContent());
  expect(waitingBefore).toBeGreaterThanOrEqual(1);
  const row = desk.getByTestId("desk-row").filter({ hasText: subject });
  await expect(row).toContainText("Awaiting reply");
  // Filters: by priority (high keeps it, low drops it), back to all.
  await desk.getByLabel("Priority", { exact: true }).click();
  await desk.getByRole("option", { name: "Low" }).click();
  await expect(desk).toHaveURL(/priority=low/);
  await expect(row).toHaveCount(0);
  await desk.getByLabel("Priority", { exact: true }).click();
  await desk.getByRole("option", { name: "High" }).click();
  await expect(row).toBeVisible();
  await desk.getByLabel("Priority", { exact: true }).click();
  await desk.getByRole("option", { name: "All priorities" }).click();
  // The newest activity comes first.
  await expect(desk.getByTestId("desk-row").first()).toContainText(subject);
  await row.getByRole("link", { name: /^View & Reply/ }).click();
  await expect(desk).toHaveURL(new RegExp(`${ticketPath}$`));
  await expect(desk.getByText("free@demo.local").first()).toBeVisible();

  // An internal note, for admins only.
  const notes = desk.getByTestId("internal-notes");
  await notes.getByPlaceholder("Add a note for the team…").fill(note);
  await notes.getByRole("button", { name: "Add note" }).click();
  await expect(notes.getByTestId("internal-note").filter({ hasText: note })).toBeVisible();

  // A canned reply: saved once, inserted with one click.
  await desk.getByRole("button", { name: "Canned replies" }).click();
  await desk.getByRole("menuitem", { name: "Manage canned replies…" }).click();
  const manage = desk.getByRole("dialog", { name: "Canned replies" });
  const cannedTitle = `Thanks ${unique()}`;
  await manage.getByLabel("Title").fill(cannedTitle);
  await manage.getByLabel("Text").fill(canned);
  await manage.getByRole("button", { name: "Save" }).click();
  await expect(manage.getByText(cannedTitle)).toBeVisible();
  await manage.getByRole("button", { name: "Close" }).click();
  await desk.getByRole("button", { name: "Canned replies" }).click();
  await desk.getByRole("menuitem", { name: new RegExp(cannedTitle) }).click();
  await expect(desk.getByLabel("Your reply")).toHaveValue(canned);
  await desk.getByRole("button", { name: "Send" }).click();
  await expect(desk.getByTestId("thread-message").filter({ hasText: canned })).toBeVisible();

  // The user sees the reply arrive live, with the Admin badge, and never the note.
  const reply = page.getByTestId("thread-message").filter({ hasText: canned });
  await expect(reply).toBeVisible();
  await expect(reply.getByText("Admin", { exact: true })).toBeVisible();
  await expect(reply).toContainText("Support team");
  await expect(page.getByText(note)).toHaveCount(0);

  // The user answers; then the admin closes the ticket from its page.
  await page.getByLabel("Your reply").fill("Thanks, it works again.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(
    desk.getByTestId("thread-message").filter({ hasText: "Thanks, it works again." }),
  ).toBeVisible();
  await desk.getByRole("combobox", { name: /^Status of ticket #/ }).click();
  await desk.getByRole("option", { name: "Closed" }).click();
  await expect(desk.getByText("Status updated", { exact: true })).toBeVisible();

  // Live on the user's page: the status badge, and a disabled reply box and button.
  await expect(page.locator("header [data-status=closed]")).toHaveText("Closed");
  await expect(page.getByLabel("Your reply")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Send" })).toBeDisabled();
  await expect(
    page.getByText("This ticket is closed. Replies are no longer possible."),
  ).toBeVisible();
  // After a reload it is still so (the database closed it), and the note is still not there.
  await page.reload();
  await expect(page.getByLabel("Your reply")).toBeDisabled();
  await expect(page.getByText(note)).toHaveCount(0);

  // The desk: a closed ticket no longer waits.
  await desk.goto("/admin/tickets?waiting=1");
  await expect(desk.getByTestId("desk-row").filter({ hasText: subject })).toHaveCount(0);

  // The old link form /support/{id} lands on the ticket; an unknown ticket is "Ticket not found".
  await page.goto(`/support/${ticketId}`);
  await expect(page).toHaveURL(new RegExp(`${ticketPath}$`));
  await page.goto("/support/ticket/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText("Ticket not found")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to my tickets" })).toBeVisible();
  await page.goto("/admin/tickets");
  await expect(page.getByText("Admin access required")).toBeVisible();

  expect(admin.errors).toEqual([]);
  await admin.context.close();
});

/** WCAG 2 A/AA rules of axe-core on the page as it is now; lists each violation's nodes. */
async function expectNoAxeViolations(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa"])
    .exclude("[data-sonner-toaster]")
    .analyze();
  const found = violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
  expect(found, where).toEqual([]);
}

test("support screens on a phone, light and dark", async ({ browser }) => {
  test.setTimeout(120_000);
  for (const theme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addInitScript((value) => localStorage.setItem("theme", value), theme);
    const page = await context.newPage();
    await logIn(page, "admin@demo.local", "/admin/tickets");
    await expect(page.getByRole("heading", { name: "Support Tickets Management" })).toBeVisible();
    await expect(page.locator("html")).toHaveClass(
      new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"),
    );
    await expect(page.getByTestId("desk-card").first()).toBeVisible();
    await expectNoAxeViolations(page, `desk (${theme})`);
    // Nothing overflows the phone's width.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The desk link with its count lives in the phone menu.
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.getByTestId("desk-menu-link")).toBeVisible();
    await page.getByTestId("desk-menu-link").click();
    await expect(page.getByTestId("desk-menu-link")).toBeHidden();
    await page.screenshot({
      path: `tests/artifacts/screenshots/support-desk-phone-${theme}.png`,
      fullPage: true,
    });
    await page
      .getByTestId("desk-card")
      .first()
      .getByRole("link", { name: /^View & Reply/ })
      .click();
    await expect(page.getByTestId("ticket-thread")).toBeVisible();
    await expect(page.getByTestId("internal-notes")).toBeVisible();
    await expectNoAxeViolations(page, `ticket page (${theme})`);
    await page.screenshot({
      path: `tests/artifacts/screenshots/support-ticket-phone-${theme}.png`,
      fullPage: true,
    });
    await page.goto("/support");
    await expect(page.getByRole("heading", { name: "Support Center" })).toBeVisible();
    await expectNoAxeViolations(page, `support center (${theme})`);
    await page.screenshot({
      path: `tests/artifacts/screenshots/support-center-phone-${theme}.png`,
      fullPage: true,
    });
    await context.close();
  }
});
