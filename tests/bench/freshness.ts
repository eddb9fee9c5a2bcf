// Freshness: how old a quote is when its row is rendered on a subscriber's dashboard, in Debian
// Chromium against a running `npm start` (its cron runner scans each source at its cadence; the
// simulated market every SCAN_INTERVAL_SECONDS). The quote's venue time (decision 0033; for the
// simulated market, the scan's) travels scan → ingest → broadcast → render; each row carries it
// as `data-ts`, and a MutationObserver records `Date.now() - ts` whenever a row appears or its
// time changes. One line per venue and backend: `freshness PostgreSQL 15 binance: p50 0.9 s,
// p95 2.1 s`. The real venues need the fake venue servers, which devstack does not have yet: their
// lines say so in words.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { percentile } from "./stats.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The real venues: not measurable until devstack serves fake Binance, Coinbase and GeckoTerminal. */
function unmeasured(label: string): string {
  return ["binance", "coinbase", "dex"]
    .map(
      (venue) =>
        `freshness ${label} ${venue}: not measured (no fake ${venue} server in devstack yet; decision 0033)`,
    )
    .join("\n");
}

export async function benchFreshness(label: string, webUrl: string, seconds = 60): Promise<string> {
  if (!existsSync(CHROMIUM)) {
    return `freshness ${label} simulated: not measured (${CHROMIUM} not found)\n${unmeasured(label)}`;
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${webUrl}/auth/login?redirect=%2Fdashboard`);
    await page.getByLabel("Email").fill("enterprise@demo.local");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.locator("table tbody tr").first().waitFor({ timeout: 120_000 });
    // A string, not a function: tsx's transform would add helpers the page does not have.
    await page.evaluate(`(() => {
      const ages = (window.__ages = []);
      const record = (el) => {
        const ts = el.getAttribute("data-ts");
        if (ts) ages.push(Date.now() - Date.parse(ts));
      };
      new MutationObserver((mutations) => {
        for (const m of mutations) {
          if (m.type === "attributes") record(m.target);
          else m.addedNodes.forEach((n) => n instanceof Element && n.matches("tr[data-ts]") && record(n));
        }
      }).observe(document.querySelector("table tbody"), {
        subtree: true, childList: true, attributes: true, attributeFilter: ["data-ts"],
      });
    })()`);
    await page.waitForTimeout(seconds * 1000);
    const ages = ((await page.evaluate("window.__ages")) as number[])
      .filter((a) => Number.isFinite(a))
      .sort((a, b) => a - b);
    if (ages.length === 0) {
      return `freshness ${label} simulated: not measured (no row was updated in ${seconds} s)\n${unmeasured(label)}`;
    }
    const p95 = percentile(ages, 95);
    return (
      `freshness ${label} simulated: p50 ${(percentile(ages, 50) / 1000).toFixed(1)} s, p95 ${(p95 / 1000).toFixed(1)} s\n` +
      `  (${ages.length} row updates in ${seconds} s, max ${(ages.at(-1)! / 1000).toFixed(1)} s; aim ≤ 10 s at the simulated market's 10 s cadence: ${p95 <= 10_000 ? "ok" : "over"})\n` +
      unmeasured(label)
    );
  } finally {
    await browser.close();
  }
}
