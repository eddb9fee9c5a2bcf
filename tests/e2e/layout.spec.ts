// Issue 28, "Layouts": beside the trading-signals panel (from 1280 px) the movers table has
// about 56 rem; its last column (Buy) must stay on screen in all four languages — German put it
// out of the table's box at 1280 × 800 while English fitted. Chromium against `npm start`.
import { expect, test, type Page } from "@playwright/test";

const LANGUAGES = [
  { locale: "en-US", buy: "Buy", signals: "Trading Signals" },
  { locale: "de-DE", buy: "Kaufen", signals: "Handelssignale" },
  { locale: "fr-FR", buy: "Acheter", signals: "Signaux de trading" },
  { locale: "es-ES", buy: "Comprar", signals: "Señales de trading" },
] as const;
const WIDTHS = [1280, 1366, 1440, 1920, 1200, 1024];

/** Signs in through the form in whatever language the browser gave the page. */
async function openDashboard(page: Page) {
  await page.goto("/auth/login?redirect=%2Fdashboard");
  await page.locator("input[type=email]").fill("pro@demo.local");
  await page.locator("input[type=password]").fill("demo-password-1");
  await page.locator("form button[type=submit]").click();
  await page.waitForURL(/\/dashboard$/);
  await expect(page.locator("table tbody tr").first()).toBeVisible({ timeout: 30_000 });
}

for (const language of LANGUAGES) {
  test.describe(`the movers table in ${language.locale}`, () => {
    test.use({ locale: language.locale, viewport: { width: 1280, height: 800 } });

    test("keeps its last column inside its box from 1024 to 1920 px", async ({ page }) => {
      test.setTimeout(180_000);
      await openDashboard(page);
      // The signals panel is beside the table at 1280 px (what made the room short).
      await expect(page.getByRole("heading", { name: language.signals })).toBeVisible();
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        const table = page.locator("table").first();
        // The header is read in the page's language: the column is the Buy column.
        const buyHeader = table.getByRole("columnheader", { name: language.buy, exact: true });
        await expect(buyHeader).toHaveCount(1);
        // On failure, the message names each column's widest cell (what pushed the table out).
        const widest = await table.evaluate((element) => {
          const rows = [...element.querySelectorAll("tbody tr")];
          return [...element.querySelectorAll("thead th")]
            .map((header, column) => {
              let best = 0;
              let text = "";
              for (const row of rows) {
                const cell = row.children[column] as HTMLElement | undefined;
                if (!cell || cell.offsetParent === null) continue;
                const probe = document.createElement("div");
                probe.style.cssText = "position:absolute;width:min-content;visibility:hidden";
                probe.className = cell.className;
                probe.innerHTML = cell.innerHTML;
                document.body.append(probe);
                const width = probe.getBoundingClientRect().width;
                probe.remove();
                if (width > best) [best, text] = [width, cell.innerText.replace(/\s+/g, " ")];
              }
              return `${(header as HTMLElement).innerText}: ${Math.round(best)} px (${text})`;
            })
            .join("; ");
        });
        await expect
          .poll(
            () =>
              table.evaluate((element) => {
                const box = element.parentElement!;
                return box.scrollWidth - box.clientWidth;
              }),
            { message: `no sideways scrolling at ${width} px; widest cells: ${widest}` },
          )
          .toBe(0);
        // The first row's Buy link ends inside the table's box and the window.
        // Scrolls the page (not the table's box) so the first rows are on screen.
        await table.evaluate((element) =>
          window.scrollTo(0, element.getBoundingClientRect().top + window.scrollY - 100),
        );
        const box = (await table.locator("..").boundingBox())!;
        const lastCell = table.locator("tbody tr").first().locator("td").last();
        const cell = (await lastCell.boundingBox())!;
        expect(cell.x + cell.width, `last column at ${width} px`).toBeLessThanOrEqual(
          box.x + box.width + 0.5,
        );
        expect(cell.x + cell.width).toBeLessThanOrEqual(width);
        await expect(lastCell).toBeInViewport({ ratio: 1 });
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth),
          `page width at ${width} px`,
        ).toBeLessThanOrEqual(width);
      }
    });
  });
}
