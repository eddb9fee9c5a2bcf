// The admin panel in Chromium against `npm start`: an admin makes a fresh user a subscriber, bans
// them (their open dashboard, group chat and live channel stop at once), unbans them and changes their
// plan (their header follows without a reload); the log shows each action with its IP; a user
// promotes themselves with the admin secret and sees the panel.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { createClient } from "@supabase/supabase-js";
import { build } from "esbuild";
import { expect, test, type Page } from "@playwright/test";

const API = `http://127.0.0.1:${process.env.E2E_API_PORT ?? 54351}`;
const SECRET = process.env.ADMIN_SETUP_SECRET ?? "e2e-admin-setup-secret";
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

async function logIn(page: Page, email: string, password: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

let bundle = "";
test.beforeAll(async () => {
  const out = await build({
    stdin: {
      contents: `export { createClient } from "@supabase/supabase-js";`,
      resolveDir: process.cwd(),
      loader: "js",
    },
    bundle: true,
    format: "iife",
    globalName: "SB",
    platform: "browser",
    write: false,
  });
  bundle = out.outputFiles[0]!.text;
});

declare global {
  interface Window {
    SB: { createClient: typeof createClient };
    channelStatuses: string[];
  }
}

function userRow(page: Page, email: string) {
  return page.locator(`[data-testid="admin-user-row"][data-email="${email}"]`);
}

test("an admin bans, unbans and re-plans a user who feels it at once; the log shows each action", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const email = `banned-${Date.now()}@e2e.test`;
  await signUp(email);

  // The admin makes the fresh user a Pro subscriber.
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  const adminErrors: string[] = [];
  admin.on("pageerror", (err) => adminErrors.push(err.message));
  await logIn(admin, "admin@demo.local", "demo-password-1", "/admin");
  await expect(admin).toHaveURL(/\/admin$/);
  await expect(admin.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  for (const label of [
    "Total Users",
    "Active Subscriptions",
    "Online Now",
    "New Signups (7d)",
    "Monthly Revenue",
    "Banned Users",
  ]) {
    await expect(admin.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(admin.getByRole("link", { name: "Admin" })).toBeVisible();
  await admin.getByRole("searchbox").fill(email);
  const row = userRow(admin, email);
  await expect(row).toHaveCount(1);
  await expect(admin.getByTestId("users-total")).toContainText("Total: 1");
  await row.getByRole("combobox", { name: `Plan of ${email}` }).click();
  await admin.getByRole("option", { name: "Pro" }).click();
  await expect(admin.getByText("Plan updated")).toBeVisible();
  await row.getByRole("switch", { name: `Subscription of ${email}` }).click();
  await expect(admin.getByText("Subscription updated")).toBeVisible();
  await expect(row.getByRole("switch")).toHaveAttribute("aria-checked", "true");
  // Admin rows cannot be banned or deleted.
  await admin.getByRole("searchbox").fill("admin@demo.local");
  const adminRow = userRow(admin, "admin@demo.local");
  await expect(adminRow.getByRole("button", { name: "Ban" })).toBeDisabled();
  await expect(adminRow.getByRole("button", { name: "Delete" })).toBeDisabled();
  await admin.getByRole("searchbox").fill(email);

  // The user opens the dashboard, and a live channel of their own in a second page.
  const userContext = await browser.newContext();
  const user = await userContext.newPage();
  await logIn(user, email, PASSWORD, "/dashboard");
  await expect(user).toHaveURL(/\/dashboard$/);
  await expect(user.getByRole("heading", { name: "Top Gainers" })).toBeVisible();
  await expect(user.getByRole("status").filter({ hasText: "Live" })).toBeVisible({
    timeout: 20_000,
  });
  const probe = await userContext.newPage();
  await probe.goto("/");
  await probe.addScriptTag({ content: bundle });
  const joined = await probe.evaluate(
    async ({ api, key, email, password }) => {
      const supabase = window.SB.createClient(api, key, { auth: { persistSession: false } });
      const signIn = await supabase.auth.signInWithPassword({ email, password });
      if (signIn.error) throw signIn.error;
      await supabase.realtime.setAuth();
      window.channelStatuses = [];
      return new Promise<string>((resolve) => {
        supabase.channel("market:movers:30", { config: { private: true } }).subscribe((status) => {
          window.channelStatuses.push(status);
          resolve(status);
        });
      });
    },
    { api: API, key: publishableKey(), email, password: PASSWORD },
  );
  expect(joined).toBe("SUBSCRIBED");

  // And the group chat of a group of their own, in a third page.
  const groupId = await probe.evaluate(
    async ({ api, key, email, password }) => {
      const supabase = window.SB.createClient(api, key, { auth: { persistSession: false } });
      const signIn = await supabase.auth.signInWithPassword({ email, password });
      if (signIn.error) throw signIn.error;
      const created = await supabase
        .from("groups")
        .insert({ name: "Ban watch", created_by: signIn.data.user.id })
        .select("id")
        .single();
      if (created.error) throw created.error;
      return created.data.id as string;
    },
    { api: API, key: publishableKey(), email, password: PASSWORD },
  );
  const chat = await userContext.newPage();
  await chat.goto(`/community/chat?groupId=${groupId}`);
  await expect(chat.getByPlaceholder("Type your message...")).toBeVisible({ timeout: 20_000 });

  // A short reason is refused on screen; a real one bans.
  await userRow(admin, email).getByRole("button", { name: "Ban" }).click();
  const dialog = admin.getByRole("dialog");
  await dialog.getByLabel("Reason").fill("bad");
  await dialog.getByRole("button", { name: "Ban user" }).click();
  await expect(admin.getByText("Ban reason must be at least 5 characters long.")).toBeVisible();
  await dialog.getByLabel("Reason").fill("Spamming pump coins in every group");
  await dialog.getByRole("button", { name: "Ban user" }).click();
  await expect(admin.getByText("User banned")).toBeVisible();
  await expect(userRow(admin, email).getByText("Banned").first()).toBeVisible();
  // Plan and subscription controls are disabled for a banned user.
  await expect(userRow(admin, email).getByRole("combobox")).toBeDisabled();
  await expect(userRow(admin, email).getByRole("switch")).toBeDisabled();

  // The banned user's dashboard and live channel stop at once.
  await expect(user.getByText("Your account has been banned")).toBeVisible({ timeout: 10_000 });
  await expect(user.getByRole("heading", { name: "Top Gainers" })).toHaveCount(0, {
    timeout: 10_000,
  });
  await expect(user.getByRole("link", { name: "Dashboard" })).toHaveCount(0);
  await expect
    .poll(() => probe.evaluate(() => window.channelStatuses.slice(1)), { timeout: 10_000 })
    .toContain("CLOSED");
  // The chat closes too: the composer goes, the ban is explained.
  await expect(chat.getByRole("heading", { name: "Your account has been banned" })).toBeVisible({
    timeout: 10_000,
  });
  await expect(chat.getByPlaceholder("Type your message...")).toHaveCount(0);

  // Unbanned, the user is a subscriber again: the header follows without a reload.
  await userRow(admin, email).getByRole("button", { name: "Unban" }).click();
  await expect(admin.getByText("User unbanned")).toBeVisible();
  await expect(user.getByRole("link", { name: "Dashboard" }).first()).toBeVisible({
    timeout: 10_000,
  });
  // A plan change takes the dashboard away, again without a reload.
  await userRow(admin, email)
    .getByRole("combobox", { name: `Plan of ${email}` })
    .click();
  await admin.getByRole("option", { name: "None" }).click();
  await expect(admin.getByText("Plan updated").first()).toBeVisible();
  await expect(user.getByRole("link", { name: "Dashboard" })).toHaveCount(0, { timeout: 10_000 });

  // The log shows each action with the admin's IP, and filters by target.
  await admin.getByRole("tab", { name: "Activity Logs" }).click();
  await admin.getByLabel("Filter by target email").fill(email);
  const logRows = admin.getByTestId("log-row");
  await expect(logRows).toHaveCount(5, { timeout: 15_000 });
  await expect(logRows.locator("[data-testid=log-ip]").first()).toHaveText("127.0.0.1");
  const actions = await logRows.evaluateAll((rows) =>
    rows.map((r) => r.getAttribute("data-action")),
  );
  expect(actions.sort()).toEqual([
    "ban_user",
    "set_plan",
    "set_plan",
    "set_subscription",
    "unban_user",
  ]);
  await expect(admin.getByText("Spamming pump coins in every group")).toBeVisible();
  const download = admin.waitForEvent("download");
  await admin.getByRole("button", { name: "Export activity log" }).click();
  await admin.getByRole("menuitem", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "Time,Action,Action code,Admin,Target User,Details,IP address,Exported at",
  );
  expect(csv).toContain("Ban user,ban_user,admin@demo.local");
  const jsonDownload = admin.waitForEvent("download");
  await admin.getByRole("button", { name: "Export activity log" }).click();
  await admin.getByRole("menuitem", { name: "Download JSON" }).click();
  const logJson = JSON.parse(readFileSync(await (await jsonDownload).path(), "utf8")) as {
    "Action code": string;
  }[];
  expect(logJson.map((entry) => entry["Action code"]).sort()).toEqual(actions);
  await admin.screenshot({ path: "tests/artifacts/screenshots/admin-logs.png", fullPage: true });

  // Live Visitors lists the user (their tab recorded activity).
  await admin.getByRole("tab", { name: "Live Visitors" }).click();
  await expect(admin.getByTestId("visitor-row").filter({ hasText: email })).toBeVisible();
  await admin.getByRole("tab", { name: "Alerts" }).click();
  await expect(
    admin.getByText("No alerts found").or(admin.getByRole("columnheader", { name: "Symbol" })),
  ).toBeVisible();

  // Phone and light theme.
  await admin.getByRole("tab", { name: "User Management" }).click();
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.screenshot({ path: "tests/artifacts/screenshots/admin-phone.png", fullPage: true });
  expect(adminErrors).toEqual([]);
  await adminContext.close();
  await userContext.close();
});

test("a user promotes themselves with the secret and sees the panel", async ({ page }) => {
  const email = `promote-${Date.now()}@e2e.test`;
  await signUp(email);

  await page.goto("/admin-setup");
  await expect(page.getByText("You must be logged in to use this page.")).toBeVisible();

  await logIn(page, email, PASSWORD, "/admin");
  await expect(page.getByText("Admin access required")).toBeVisible();
  await page.goto("/admin-setup");
  await expect(page.getByTestId("setup-email")).toHaveText(email);
  await expect(page.getByTestId("setup-role")).toHaveText("User");
  await page.getByRole("button", { name: "Activate Admin Rights" }).click();
  await expect(page.getByText("Please enter the admin secret")).toBeVisible();
  await page.getByLabel("Admin secret").fill("not-the-secret");
  await page.getByRole("button", { name: "Activate Admin Rights" }).click();
  await expect(page.getByTestId("setup-result")).toHaveText("Error: Invalid admin secret");
  await page.getByLabel("Admin secret").fill(SECRET);
  await page.getByRole("button", { name: "Activate Admin Rights" }).click();
  await expect(page.getByText("Admin rights successfully activated")).toBeVisible();
  await expect(
    page.getByText("You are an admin with the Enterprise plan.", { exact: false }),
  ).toBeVisible();
  await expect(page.getByTestId("setup-plan")).toHaveText("Enterprise");
  await page.getByRole("link", { name: "Open the Admin Panel" }).click();
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
});

test("the self-promotion rate limit is shown to the user", async ({ page }) => {
  const email = `guesser-${Date.now()}@e2e.test`;
  await signUp(email);
  await logIn(page, email, PASSWORD, "/admin-setup");
  await expect(page.getByRole("button", { name: "Activate Admin Rights" })).toBeVisible();
  for (let i = 1; i <= 5; i++) {
    await page.getByLabel("Admin secret").fill(`guess-${i}`);
    await page.getByRole("button", { name: "Activate Admin Rights" }).click();
    await expect(page.getByTestId("setup-result")).toHaveText("Error: Invalid admin secret");
    await expect(page.getByRole("button", { name: "Activate Admin Rights" })).toBeEnabled();
  }
  await page.getByLabel("Admin secret").fill(SECRET);
  await page.getByRole("button", { name: "Activate Admin Rights" }).click();
  await expect(page.getByTestId("setup-result")).toHaveText(
    "Error: Too many attempts. Try again in 15 minutes.",
  );
  await expect(page.getByTestId("setup-role")).toHaveText("User");
});
