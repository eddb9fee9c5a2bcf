// Issue 25 (decision 0033): every dashboard row shows its quote's age on the venue's clock,
// counting seconds, and a row whose quote is older than its window is marked stale in words.
// Against `npm start` (the simulated market, scanned every 10 s by the cron runner).
import { expect, test, type Page } from "@playwright/test";

async function logIn(page: Page, email: string, redirect: string) {
  await page.goto(`/auth/login?redirect=${encodeURIComponent(redirect)}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("demo-password-1");
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("each row shows its data age in seconds, and a quote older than its window is marked stale", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const quotedAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
  // One extra entry in the first feed answer: a quote two hours old (older than every window).
  await page.route(/\/rest\/v1\/rpc\/movers_feed/, async (route) => {
    const res = await route.fetch();
    const rows = (await res.json()) as Record<string, unknown>[];
    const template = rows[0] ?? {};
    // In place of the 100th entry, so the list keeps its 100.
    if (rows.length >= 100) rows.pop();
    rows.unshift({
      ...template,
      id: 987_654_321,
      instrument_id: 987_654_321,
      symbol: "OLDQUOTE/USDT",
      // Its own asset, not thin (issue 26): neither grouped behind the template's venue nor
      // hidden by the dashboard's default.
      asset: "OLDQUOTE",
      thin: false,
      pct: 99,
      ts: quotedAt,
      quoted_at: quotedAt,
    });
    await route.fulfill({ response: res, json: rows });
  });
  // Live scans would replace the list (the window's top 100) within seconds: this test keeps the
  // Realtime connection but holds back the movers broadcasts, so the first answer stays on screen.
  await page.routeWebSocket(/\/realtime\/v1\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((message) => server.send(message));
    server.onMessage((message) => {
      // realtime-js 2 gets broadcasts as binary frames (kind 4: topic, event, JSON payload).
      const text = typeof message === "string" ? message : message.toString("latin1");
      if (text.includes("market:movers:")) return;
      ws.send(message);
    });
  });
  await logIn(page, "enterprise@demo.local", "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);

  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Data age" })).toBeVisible({
    timeout: 30_000,
  });
  const old = table.locator("tbody tr", { hasText: "OLDQUOTE/USDT" });
  await expect(old.getByTestId("data-age")).toHaveText(/^2 h\s*stale/i);
  await expect(old).toHaveAttribute("data-stale", "true");

  // The simulated market's rows: quotes seconds old, on the venue's clock, counting up.
  const live = table.locator("tbody tr:not([data-stale])").first();
  await expect(live.getByTestId("data-age")).toHaveText(/^\d{1,2} s$/, { timeout: 30_000 });
  const first = await live.getByTestId("data-age").textContent();
  await expect
    .poll(async () => live.getByTestId("data-age").textContent(), { timeout: 5_000 })
    .not.toBe(first);
  const dataTs = await live.getAttribute("data-ts");
  expect(Date.now() - Date.parse(dataTs!)).toBeLessThan(60_000);

  // The Sources line names the simulated market's cadence and its last quote's age.
  await expect(page.getByTestId("source-health")).toContainText(
    /Simulated market\s*Live · \d+ quotes · every 10 s · last quote: \d+ s old/,
    { timeout: 30_000 },
  );
});
