// What each plan buys (issue 27) in Chromium against `npm start`: Basic sees upgrade prompts in
// place of Pro's analysis and longer chart spans; Pro sees the historical comparison, the
// analytics and the additional indicators once the cron runner rolled the simulated market's
// backfilled history into candles; the admins' desk orders waiting tickets by plan and shows
// each one's first-response clock.
import { expect, test, type Page } from "@playwright/test";

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function openFirstAnalysis(page: Page) {
  await expect(page).toHaveURL(/\/dashboard$/);
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

test("Basic sees upgrade prompts in place of Pro's analysis and longer chart spans", async ({
  page,
}) => {
  await logIn(page, "basic@demo.local", "/dashboard");
  const dialog = await openFirstAnalysis(page);
  const prompt = dialog.getByTestId("upgrade-prompt");
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  await expect(prompt).toContainText("are Pro features");
  await expect(prompt.getByRole("link", { name: "Upgrade to Pro" })).toHaveAttribute(
    "href",
    "/pricing",
  );
  await expect(dialog.getByTestId("pro-insights")).toHaveCount(0);
  await page.keyboard.press("Escape");

  await page.goto("/charts");
  await page.getByRole("button", { name: "7 days" }).click();
  const chartsPrompt = page.getByTestId("upgrade-prompt");
  await expect(chartsPrompt).toContainText("is a Pro feature");
  await chartsPrompt.getByRole("link", { name: "Upgrade to Pro" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
});

test("Pro sees the comparison, the analytics and the indicators", async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, "pro@demo.local", "/dashboard");
  const dialog = await openFirstAnalysis(page);
  await expect(dialog.getByTestId("upgrade-prompt")).toHaveCount(0);
  // The rollup runs every 10 s here; the simulated market's 3 hours of history become candles.
  const comparison = dialog.getByTestId("comparison");
  await expect(comparison).toBeVisible({ timeout: 30_000 });
  await expect(comparison).toContainText("Against its own history");
  await expect(dialog.getByRole("region", { name: "Volatility regime" })).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Largest drawdown (24 h)" })).toBeVisible();
  await expect(dialog.getByRole("group", { name: "Candle size" })).toBeVisible();
  // 3 hours of 5-minute candles (36) are enough for every indicator.
  await expect
    .poll(
      async () => {
        if ((await dialog.getByTestId("indicator-panes").count()) > 0) return "panes";
        // Reopen to refetch once the rollup has written enough candles.
        await page.keyboard.press("Escape");
        await openFirstAnalysis(page);
        return "waiting";
      },
      { timeout: 90_000, intervals: [5_000] },
    )
    .toBe("panes");
  // One lightweight-charts candle chart: VWAP over the candles, volume, StochRSI, ATR and OBV
  // panes beneath on the same time scale; the legend writes out each value.
  const panes = page.getByRole("dialog").getByTestId("indicator-panes");
  await expect(
    panes.getByRole("group", {
      name: /^Candles of .+ with VWAP, volume, Stochastic RSI, ATR and OBV$/,
    }),
  ).toBeVisible();
  await expect(panes.locator("canvas").first()).toBeVisible();
  const legend = panes.getByTestId("price-chart-legend");
  for (const label of ["VWAP", "StochRSI %K", "%D", "ATR 14", "OBV"]) {
    await expect(legend.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(legend.locator('[data-field="vwap"]')).not.toHaveText("—");
  await expect(legend.locator('[data-field="obv"]')).not.toHaveText("—");
  await page.screenshot({ path: "tests/artifacts/screenshots/pro-analysis.png", fullPage: true });
});

test("the desk serves waiting tickets by plan priority, each with its clock", async ({ page }) => {
  await logIn(page, "admin@demo.local", "/admin/tickets");
  await expect(page).toHaveURL(/\/admin\/tickets$/);
  const rows = page.getByTestId("desk-row");
  await expect(rows.first()).toBeVisible({ timeout: 15_000 });
  const rank = { enterprise: 3, pro: 2, basic: 1, none: 0 } as Record<string, number>;
  const seen = await rows.evaluateAll((trs) =>
    trs.map((tr) => ({
      plan: tr.querySelector('[data-testid="ticket-plan"]')?.getAttribute("data-plan") ?? "",
      clock: tr.querySelector('[data-testid="response-timer"]')?.getAttribute("data-state") ?? "",
    })),
  );
  expect(seen.length).toBeGreaterThan(0);
  for (const row of seen) {
    expect(Object.keys(rank)).toContain(row.plan);
    expect(["waiting", "breached", "answered", "answered-late", "stopped"]).toContain(row.clock);
  }
  // Waiting tickets come first, by plan priority (highest first).
  const waiting = seen.filter((r) => r.clock === "waiting" || r.clock === "breached");
  const ranks = waiting.map((r) => rank[r.plan]!);
  expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
});
