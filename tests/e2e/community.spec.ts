// Community groups and live group chat in Chromium against `npm start`, with two (then three)
// browser contexts: a group is created and joined, messages cross both ways live, edits and
// deletes show live, a GIF is sent through the private bucket, a block hides the blocked user's
// messages, and a private group is joined through its invite link after logging in.
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";

/** A 1×1 GIF89a. */
const GIF = Buffer.from(
  "47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b",
  "hex",
);

/** Messages must cross between the two browsers within this time (the bar). */
const LIVE_MS = 2000;

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function user(browser: Browser, email: string, redirect = "/community/groups") {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  await logIn(page, email, redirect);
  return { context, page, errors };
}

/** The card of the group `name` in a section ("your-groups" or "public-groups"). */
const groupCard = (page: Page, section: string, name: string) =>
  page
    .getByTestId(section)
    .getByTestId("group-card")
    .filter({ has: page.getByText(name, { exact: true }) });

const message = (page: Page, text: string) =>
  page.getByTestId("chat-message").filter({ has: page.getByText(text, { exact: true }) });

async function send(page: Page, text: string) {
  await page.getByLabel("Message", { exact: true }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
}

async function openMenu(page: Page, text: string) {
  const item = message(page, text);
  await item.hover();
  await item.getByRole("button", { name: "Message actions" }).click();
}

async function createGroup(page: Page, name: string, isPublic: boolean) {
  await page.getByRole("button", { name: "Create Group" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByLabel("Description").fill(`Room ${name}`);
  if (!isPublic) await dialog.getByLabel("Public group").uncheck();
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(page.getByText("Group created", { exact: true })).toBeVisible();
  await expect(groupCard(page, "your-groups", name)).toBeVisible();
}

let contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  contexts = [];
});

test("two users chat live: create, join, both ways, edit, delete, GIF, block", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const name = `E2E Room ${Date.now().toString(36)}`;
  const a = await user(browser, "free@demo.local");
  const b = await user(browser, "basic@demo.local");
  contexts = [a.context, b.context];

  // A creates a public group; B finds it among the public groups and joins.
  await expect(a.page).toHaveURL(/\/community\/groups$/);
  await createGroup(a.page, name, true);
  await expect(b.page).toHaveURL(/\/community\/groups$/);
  await b.page.reload();
  const publicCard = groupCard(b.page, "public-groups", name);
  await publicCard.getByRole("button", { name: "Join" }).click();
  await expect(b.page.getByText("Joined group", { exact: true })).toBeVisible();
  const bCard = groupCard(b.page, "your-groups", name);
  await expect(bCard.getByText("2 members")).toBeVisible();

  // Both open the chat and are live.
  await groupCard(a.page, "your-groups", name).getByRole("link", { name: "Open Chat" }).click();
  await bCard.getByRole("link", { name: "Open Chat" }).click();
  for (const p of [a.page, b.page]) {
    await expect(p.getByText("Group Chat", { exact: true })).toBeVisible();
    await expect(p.getByText("No messages yet. Start the conversation!")).toBeVisible();
    await expect(p.getByRole("status").filter({ hasText: "Live" })).toBeVisible({
      timeout: 15_000,
    });
  }
  // Presence: each sees two people online.
  await expect(a.page.getByTestId("online-count")).toHaveText("2 online", { timeout: 10_000 });

  // A → B and B → A, each within 2 s.
  await send(a.page, "hello from A");
  await expect(message(a.page, "hello from A")).toBeVisible();
  await expect(message(b.page, "hello from A")).toBeVisible({ timeout: LIVE_MS });
  await expect(message(b.page, "hello from A").getByTestId("chat-sender")).toHaveText("free");

  // Typing shows on the other side.
  await b.page.getByLabel("Message", { exact: true }).fill("hi");
  await expect(a.page.getByTestId("typing")).toContainText("is typing", { timeout: 5_000 });
  await send(b.page, "hi from B");
  await expect(message(a.page, "hi from B")).toBeVisible({ timeout: LIVE_MS });
  await expect(message(a.page, "hi from B").getByText("Basic", { exact: true })).toBeVisible();

  // A edits (Enter saves); B sees the new text and "(edited)".
  await openMenu(a.page, "hello from A");
  await a.page.getByRole("menuitem", { name: "Edit" }).click();
  const editor = a.page.getByLabel("Edit message");
  await editor.fill("hello from A, edited");
  await editor.press("Enter");
  await expect(a.page.getByText("Message updated", { exact: true })).toBeVisible();
  const edited = message(b.page, "hello from A, edited");
  await expect(edited).toBeVisible({ timeout: LIVE_MS });
  await expect(edited.getByTestId("chat-edited")).toHaveText("(edited)");

  // A deletes it after confirming; it disappears for B.
  await openMenu(a.page, "hello from A, edited");
  await a.page.getByRole("menuitem", { name: "Delete" }).click();
  const confirm = a.page.getByRole("alertdialog");
  await expect(confirm).toContainText(
    "Are you sure you want to delete this message? This action cannot be undone.",
  );
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(a.page.getByText("Message deleted", { exact: true })).toBeVisible();
  await expect(message(b.page, "hello from A, edited")).toHaveCount(0, { timeout: LIVE_MS });

  // A non-GIF is refused before upload; a GIF is uploaded, previewed and sent; B sees it.
  await a.page
    .getByTestId("gif-input")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(a.page.getByText("Only GIF files are allowed")).toBeVisible();
  await a.page
    .getByTestId("gif-input")
    .setInputFiles({ name: "dot.gif", mimeType: "image/gif", buffer: GIF });
  await expect(a.page.getByText("GIF ready to send!")).toBeVisible();
  await expect(a.page.getByTestId("gif-preview")).toBeVisible();
  await expect(a.page.getByRole("button", { name: "Upload GIF" })).toBeDisabled();
  await send(a.page, "look at this");
  await expect(a.page.getByTestId("gif-preview")).toHaveCount(0);
  const gifMessage = message(b.page, "look at this");
  await expect(gifMessage).toBeVisible({ timeout: LIVE_MS });
  const img = gifMessage.getByTestId("chat-gif");
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);
  expect(await img.getAttribute("src")).toMatch(/^blob:/);

  // B blocks A: A's messages disappear for B, also new ones; A still sees B's.
  await openMenu(b.page, "look at this");
  await b.page.getByRole("menuitem", { name: "Block User" }).click();
  await expect(b.page.getByText("User blocked", { exact: true })).toBeVisible();
  await expect(message(b.page, "look at this")).toHaveCount(0);
  await send(a.page, "after the block");
  await expect(message(a.page, "after the block")).toBeVisible();
  await send(b.page, "still here");
  await expect(message(a.page, "still here")).toBeVisible({ timeout: LIVE_MS });
  await expect(message(b.page, "still here")).toBeVisible();
  await expect(message(b.page, "after the block")).toHaveCount(0);

  // B lifts the block from the profile; A's messages are back.
  await b.page.goto("/profile");
  const blocks = b.page.getByTestId("blocked-users");
  await expect(blocks).toContainText("free");
  await blocks.getByRole("button", { name: "Unblock free" }).click();
  await expect(blocks).toContainText("You have not blocked anyone.");
  await b.page.goBack();
  await expect(message(b.page, "after the block")).toBeVisible();

  // B reports A: the report is recorded (a second one for the same reason is refused).
  await openMenu(b.page, "after the block");
  await b.page.getByRole("menuitem", { name: "Report" }).click();
  const report = b.page.getByRole("dialog");
  await report.getByLabel("Details (optional)").fill("Sells courses in every group");
  await report.getByRole("button", { name: "Send report" }).click();
  await expect(b.page.getByText("Report sent", { exact: true })).toBeVisible();
  await openMenu(b.page, "after the block");
  await b.page.getByRole("menuitem", { name: "Report" }).click();
  await b.page.getByRole("dialog").getByRole("button", { name: "Send report" }).click();
  await expect(
    b.page.getByText("You have already reported this user for this reason."),
  ).toBeVisible();
  await b.page.keyboard.press("Escape");

  // The admins see the report with the reported message, in the admin panel's Reports tab.
  const admin = await user(browser, "admin@demo.local", "/admin");
  await admin.page.getByRole("tab", { name: "Reports" }).click();
  const filed = admin.page
    .getByRole("tabpanel")
    .locator("li, tr, article, [data-testid]")
    .filter({ hasText: "Sells courses in every group" })
    .first();
  await expect(filed).toBeVisible({ timeout: 15_000 });
  await expect(filed).toContainText("after the block");
  await admin.context.close();

  // A, the group's admin, removes B: B's chat loses the live channel at once.
  await a.page.getByRole("button", { name: "Members" }).click();
  await a.page.getByRole("button", { name: "Remove basic from the group" }).click();
  await expect(a.page.getByText("Member removed", { exact: true })).toBeVisible();
  await expect(b.page.getByText("You are no longer a member of this group.")).toBeVisible({
    timeout: 15_000,
  });

  expect(a.errors).toEqual([]);
  expect(b.errors).toEqual([]);
});

test("a private group is joined through its invite link after logging in", async ({ browser }) => {
  test.setTimeout(90_000);
  const name = `E2E Private ${Date.now().toString(36)}`;
  const a = await user(browser, "free@demo.local");
  contexts = [a.context];
  await a.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await createGroup(a.page, name, false);
  const card = groupCard(a.page, "your-groups", name);
  await expect(card.getByText("Private", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: "Copy invite link" }).click();
  await expect(a.page.getByText("Invite link copied")).toBeVisible();
  const link = await a.page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/community\/join\/[0-9a-f-]{36}$/);

  // Another user, logged out, opens the link: login first, then the group's chat.
  const c = await browser.newContext();
  contexts.push(c);
  const page = await c.newPage();
  await page.goto(new URL(link).pathname);
  await expect(page).toHaveURL(/\/auth\/login/);
  await page.getByLabel("Email").fill("pro@demo.local");
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/community\/chat\?groupId=/);
  await expect(page.getByText("Group Chat", { exact: true })).toBeVisible();
  await send(page, "joined by invite");
  await a.page.goto(`/community/chat?${new URL(page.url()).searchParams}`);
  await expect(message(a.page, "joined by invite")).toBeVisible();

  // Without a group the chat says so.
  await page.goto("/community/chat");
  await expect(page.getByText("No group selected")).toBeVisible();
  await page.getByRole("link", { name: "Go to Groups" }).click();
  await expect(groupCard(page, "your-groups", name)).toBeVisible();
});

test("sending faster than the limit says how long to wait and keeps the unsent text", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const name = `E2E Fast ${Date.now().toString(36)}`;
  const a = await user(browser, "enterprise@demo.local");
  contexts = [a.context];
  await createGroup(a.page, name, true);
  // The SPA's own REST headers (publishable key and the user's token), read off its requests.
  const restCall = a.page.waitForRequest(
    (r) => r.url().includes("/rest/v1/") && Boolean(r.headers()["authorization"]),
  );
  await groupCard(a.page, "your-groups", name).getByRole("link", { name: "Open Chat" }).click();
  await expect(a.page.getByLabel("Message", { exact: true })).toBeEnabled();
  const request = await restCall;
  const headers = await request.allHeaders();
  const groupId = new URL(a.page.url()).searchParams.get("groupId") ?? "";
  expect(groupId).not.toBe("");

  // The database takes 10 messages per 10 s per user and group: 10 go out at once through REST
  // (a loaded machine types too slowly to beat the window), the 11th is typed and refused.
  const sent = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      a.page.request.post(new URL("/rest/v1/messages", request.url()).toString(), {
        headers: {
          apikey: headers.apikey!,
          authorization: headers.authorization!,
          "content-type": "application/json",
        },
        data: { group_id: groupId, content: `quick ${i + 1}` },
      }),
    ),
  );
  expect(sent.map((r) => r.status())).toEqual(Array(10).fill(201));
  await send(a.page, "one too many");
  const failed = message(a.page, "one too many").getByTestId("chat-failed");
  await expect(failed).toContainText(/You're sending messages too fast — try again in \d+ s/);
  // The unsent text stays in the list; once the window has passed, Retry sends it.
  await expect(message(a.page, "one too many")).toBeVisible();
  await a.page.waitForTimeout(10_500);
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(message(a.page, "one too many").getByTestId("chat-failed")).toHaveCount(0);
  await expect(message(a.page, "one too many")).toHaveCount(1);
  expect(a.errors).toEqual([]);
});
