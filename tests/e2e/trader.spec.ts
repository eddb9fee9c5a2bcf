// Issue 28, a trader-grade interface, in Chromium against `npm start` (the simulated market is
// scanned every 10 s and backfilled 3 hours on the first scan): the price chart's crosshair
// values are those of the data, each movers row has its sparkline, tiny prices keep their digits.
import { expect, test, type Page } from "@playwright/test";
import { toCandles } from "../../supabase/functions/_shared/domain/candles.ts";
import { gotoApp, logIn } from "./support/pages";

const ENTERPRISE = "enterprise@demo.local";

async function openDashboard(page: Page) {
  await logIn(page, ENTERPRISE, "demo-password-1");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Top Gainers" })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator("table tbody tr").first()).toBeVisible({ timeout: 30_000 });
}

test("the analysis chart's crosshair shows the values of the candle under the pointer", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chartScripts: string[] = [];
  page.on("response", (res) => {
    if (res.request().resourceType() === "script" && /price-chart/.test(res.url())) {
      chartScripts.push(res.url());
    }
  });
  await openDashboard(page);
  // The chart library is not part of the dashboard: it comes with the analysis.
  expect(chartScripts).toEqual([]);

  const history = page.waitForResponse((res) => res.url().includes("/rpc/price_history_for"));
  await page
    .locator("table tbody tr")
    .first()
    .getByRole("button", { name: /Open analysis for/ })
    .click();
  const rows = (await (await history).json()) as { ts: string; price: number | string }[];
  const candles = toCandles(rows.map((row) => ({ ts: row.ts, price: Number(row.price) })));
  expect(candles.length).toBeGreaterThan(10);
  const byStart = new Map(candles.map((c) => [c.start, c]));

  const dialog = page.getByRole("dialog");
  // The analysis' own chart comes first; Pro's indicator chart (a second one) follows it.
  const chart = dialog.getByTestId("price-chart").first();
  await expect(chart.locator("canvas").first()).toBeVisible({ timeout: 15_000 });
  expect(chartScripts.length).toBeGreaterThan(0);
  const legend = dialog.getByTestId("price-chart-legend").first();
  await expect(dialog.getByText("EMA 9")).toBeVisible();
  await expect(dialog.getByText("BB upper")).toBeVisible();

  const box = (await chart.boundingBox())!;
  const seen = new Set<string>();
  for (const share of [0.2, 0.4, 0.6, 0.75]) {
    await page.mouse.move(box.x + box.width * share, box.y + box.height * 0.35);
    await expect(legend).not.toHaveAttribute("data-time", "");
    const time = Number(await legend.getAttribute("data-time"));
    seen.add(String(time));
    const candle = byStart.get(time);
    // The live quote may have opened a newer candle than the history; hover over history only.
    expect(candle, `a candle starts at ${new Date(time).toISOString()}`).toBeDefined();
    for (const field of ["open", "high", "low", "close"] as const) {
      const cell = legend.locator(`[data-field="${field}"]`);
      expect(Number(await cell.getAttribute("data-value"))).toBeCloseTo(candle![field], 12);
    }
    // The shown text is the formatted value.
    await expect(legend.locator('[data-field="close"]')).not.toHaveText("");
  }
  // Different pointer positions showed different candles.
  expect(seen.size).toBeGreaterThan(2);

  // Keyboard: Home shows the first candle, End the newest.
  await chart.focus();
  await page.keyboard.press("Home");
  await expect(legend).toHaveAttribute("data-time", String(candles[0].start));
  await page.keyboard.press("ArrowRight");
  await expect(legend).toHaveAttribute("data-time", String(candles[1].start));

  // Both themes: switching repaints without losing the chart.
  await page.screenshot({ path: "tests/artifacts/screenshots/price-chart-dark.png" });
  await page.keyboard.press("Escape");
});

test("each movers row has its sparkline of the last 30 minutes, named by the row's change", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const sparklineCalls: string[] = [];
  page.on("request", (req) => {
    if (req.url().includes("/rpc/movers_sparklines")) sparklineCalls.push(req.url());
  });
  await openDashboard(page);
  const rows = page.locator("table tbody tr");
  // The simulated market backfilled 3 hours: every row's line has points.
  const allDrawn = () =>
    rows.evaluateAll((trs) =>
      trs.every(
        (tr) =>
          Number(tr.querySelector("[data-testid=sparkline]")?.getAttribute("data-points")) >= 2,
      ),
    );
  await expect.poll(allDrawn, { timeout: 30_000 }).toBe(true);
  // Rows and lines counted at one moment: a live scan may add rows between two reads.
  const { count, lines } = await rows.evaluateAll((trs) => ({
    count: trs.length,
    lines: document.querySelectorAll("table tbody [data-testid=sparkline]").length,
  }));
  expect(count).toBeGreaterThan(5);
  expect(lines).toBe(count);
  // Each row's percent, its line's name and colour, read at one moment (scans reorder rows).
  const named = await rows.evaluateAll((trs) =>
    trs.slice(0, 10).map((tr) => {
      const line = tr.querySelector("[data-testid=sparkline]")!;
      return {
        pct: tr.querySelector("td")!.textContent!.trim(),
        name: line.getAttribute("aria-label"),
        role: line.getAttribute("role"),
        colour: line.classList.contains("text-success") ? "green" : "red",
      };
    }),
  );
  for (const row of named) {
    expect(row).toEqual({
      pct: row.pct,
      name: `Last 30 minutes: ${row.pct}`,
      role: "img",
      colour: row.pct.startsWith("+") ? "green" : "red",
    });
  }
  // One request for all rows, not one per row.
  expect(sparklineCalls.length).toBeGreaterThan(0);
  expect(sparklineCalls.length).toBeLessThan(count);
});

test("on a 390 px phone the movers start on the first screen, filters fold into a sheet", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, ENTERPRISE, "demo-password-1");
  await page.goto("/dashboard");
  const list = page.getByRole("list", { name: "Strongest movers of the selected time window" });
  await expect(list.getByRole("listitem").first()).toBeVisible({ timeout: 30_000 });
  // The first mover is on the first screen.
  const first = (await list.getByRole("listitem").first().boundingBox())!;
  expect(first.y + first.height / 2).toBeLessThan(844);
  // 20 cards, then more on demand.
  await expect(list.locator(":scope > li")).toHaveCount(20);
  await expect(page.getByText(/^Showing 20 of \d+$/)).toBeVisible();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole("button", { name: "Filters", exact: true }).click();
  const sheet = page.getByRole("dialog", { name: "Filters" });
  await sheet.getByRole("button", { name: "Gains +" }).click();
  await sheet.getByRole("button", { name: "Show movers" }).click();
  await expect(page.getByRole("button", { name: "Filters (1 active)" })).toBeVisible();
  await page.screenshot({ path: "tests/artifacts/screenshots/dashboard-phone-first-screen.png" });
});

test("a CSV export of the dashboard holds the rows of the table on screen", async ({ page }) => {
  test.setTimeout(120_000);
  await openDashboard(page);
  const rows = page.locator("table tbody tr");
  const onScreen = () =>
    rows.evaluateAll((trs) =>
      trs.map((tr) => [
        tr.querySelector("th")!.textContent!.trim(),
        tr.querySelector("td")!.textContent!.trim(),
      ]),
    );
  // A scan may land between reading the table and exporting: try again then.
  let matched = false;
  for (let attempt = 0; attempt < 3 && !matched; attempt++) {
    const before = await onScreen();
    await page.getByRole("button", { name: "Export the movers on screen" }).click();
    const download = page.waitForEvent("download");
    await page.getByRole("menuitem", { name: "Download CSV" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^movers-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.csv$/);
    const text = await (
      await file.createReadStream()
    )
      .toArray()
      .then((c) => Buffer.concat(c).toString());
    const after = await onScreen();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "Symbol,% (30 min),Price (3h) (USD),Price (Live) (USD),Exchange,Time,Exported at",
    );
    // Symbol and percent of each row (the guard puts a ' before a leading + or -).
    const csvRows = lines.slice(1).map((line) => {
      const [symbol, pct] = line.split(",");
      return [symbol, pct.replace(/^'/, "")];
    });
    if (JSON.stringify(before) !== JSON.stringify(after)) continue;
    expect(csvRows).toEqual(before);
    matched = true;
  }
  expect(matched).toBe(true);
});

test("the system theme follows an emulated colour-scheme change live", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  // The landing page is pre-rendered: its theme button works once the app has taken it over.
  await gotoApp(page, "/");
  await expect(page.getByTestId("landing")).toBeVisible();
  const html = page.locator("html");
  // Dark (the default) → light → the system's.
  await page.getByRole("button", { name: "Switch to light theme" }).first().click();
  await page.getByRole("button", { name: "Follow the system's theme" }).first().click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).not.toHaveClass(/\bdark\b/);
  // A reload keeps following the system from the first paint on.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(page.getByRole("button", { name: "Switch to dark theme" }).first()).toBeVisible();
});
