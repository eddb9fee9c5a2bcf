// Issue 26, "Moves you can trust", in Chromium against `npm start` (the simulated market, which
// has thin pools, a pulled pool, a wash-traded pair and moves confirmed on several venues): a new
// subscriber with the default settings sees no thin move among the first 20 rows, is told how many
// were hidden, and reads a flagged move's reasons in its row, on its badge and in its analysis.
// The market is random and the default 10 % threshold leaves few rows, so the feed's answer gets
// two known rows besides the market's: a thin move and a flagged one, both above the threshold.
import { expect, test } from "@playwright/test";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("a new subscriber sees no thin move in the first 20 rows and the reasons of a flagged one", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on("pageerror", (err) => errors.push(err.message));
  const email = `trust-${unique()}@example.test`;
  const password = "correct-horse-9";

  // A new account, subscribed through the checkout stand-in: every setting at its default.
  await page.goto("/auth/register");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/, { timeout: 30_000 });
  await page.goto(`/auth/login?redirect=${encodeURIComponent("/pricing")}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/pricing$/, { timeout: 30_000 });
  await page.getByTestId("plan-card-pro").getByRole("button", { name: "Start Now" }).click();
  await expect(page).toHaveURL(/\/stripe\/checkout\/cs_test_/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/dashboard/, { timeout: 30_000 });

  await page.route(/\/rest\/v1\/rpc\/movers_feed/, async (route) => {
    const res = await route.fetch();
    const rows = (await res.json()) as Record<string, unknown>[];
    const template = rows[0] ?? {};
    // In place of the last two entries, so the list keeps its 100.
    rows.splice(Math.max(0, rows.length - 2));
    const known = { ...template, confirmed_on: [], pool_name: null, exchange_type: "dex" };
    rows.unshift(
      {
        ...known,
        id: 987_654_321,
        instrument_id: 987_654_321,
        symbol: "THINNED/WBNB",
        asset: "THINNED",
        pct: 99,
        thin: true,
        flags: [],
        trust_score: 30,
      },
      {
        ...known,
        id: 987_654_322,
        instrument_id: 987_654_322,
        symbol: "RUGGED/WBNB",
        asset: "RUGGED",
        pct: 98,
        thin: false,
        flags: ["pulled_pool", "wash_volume"],
        trust_score: 20,
        liquidity_usd: 40_000,
      },
    );
    await route.fulfill({ response: res, json: rows });
  });
  // Live scans re-rank the list every few seconds: hold the movers broadcasts back so the rows
  // checked are the rows read (the feed's answer stays on screen).
  await page.routeWebSocket(/\/realtime\/v1\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      const text = typeof message === "string" ? message : message.toString("latin1");
      if (text.includes("market:movers:")) return;
      ws.send(message);
    });
  });
  await page.reload();

  const table = page.getByRole("table");
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toBeVisible({ timeout: 60_000 });
  // The default hides thin moves, and says how many: nothing is hidden silently.
  const hidden = page.getByTestId("trust-hidden");
  await expect(hidden).toContainText(/\d+ thin moves? hidden\./);
  const first20 = Math.min(20, await rows.count());
  for (let i = 0; i < first20; i++) {
    await expect(rows.nth(i).getByTestId("thin-mark")).toHaveCount(0);
  }
  await expect(table).not.toContainText("THINNED/WBNB");
  await expect(page.getByRole("checkbox", { name: "Show thin moves" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Group by asset" })).toBeChecked();

  // A flagged move keeps its row (ranked first here, above the threshold); its short reasons are
  // in the row.
  const flagged = rows.filter({ hasText: "RUGGED/WBNB" });
  await expect(flagged).toBeVisible();
  const symbol = "RUGGED/WBNB";
  await expect(flagged.getByTestId("flag-notes")).toHaveText(/liquidity pulled · wash volume\?$/);
  // Its badge spells the reasons out on focus, as full sentences.
  const badge = flagged.getByRole("button", { name: /^Trust score \d+ of 100/ });
  await badge.focus();
  const card = page.locator(`[id="${await badge.getAttribute("aria-describedby")}"]`);
  await expect(card).toBeVisible();
  await expect(card).toContainText("Why this score");
  await expect(card).toContainText("The pool's liquidity fell by half or more within the window.");
  await expect(card).toContainText("possibly wash trading");
  await expect(card).toContainText("Not confirmed on another venue.");
  await page.keyboard.press("Escape");
  await expect(card).toBeHidden();

  // The analysis names the score and every reason.
  await flagged.getByRole("button", { name: symbol, exact: true }).click();
  // The analysis loads on the first click (its own chunk).
  const dialog = page.getByRole("dialog", { name: symbol });
  const trust = dialog.getByTestId("analysis-trust");
  await expect(trust).toContainText(/Trust score \d+ of 100/, { timeout: 20_000 });
  await expect(trust).toContainText("Trust score 20 of 100 (low)");
  await expect(trust).toContainText("The pool's liquidity fell by half or more within the window.");
  await expect(trust).toContainText("possibly wash trading");
  await page.keyboard.press("Escape");

  // "Show them" brings the thin moves back, marked.
  await hidden.getByRole("button", { name: "Show them" }).click();
  await expect(page).toHaveURL(/[?&]thin=1/);
  const thin = rows.filter({ hasText: "THINNED/WBNB" });
  await expect(thin.getByTestId("thin-mark")).toBeVisible();
  expect(errors).toEqual([]);
});
