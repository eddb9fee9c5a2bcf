// The SPA's weight and quality: every route's gzipped JavaScript and CSS from the production
// build (scripts/route-bundles.ts, against its budget) and the Lighthouse scores (mobile
// emulation, Debian Chromium) of the landing and pricing pages on a running stack.
// Standalone: `npx tsx tests/bench/web.ts http://127.0.0.1:5173` against `npm start`.
import path from "node:path";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT } from "../../devstack/config.ts";
import { formatRoutes, measureRoutes } from "../../scripts/route-bundles.ts";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export const LIGHTHOUSE_PAGES = ["/", "/pricing"];

export type Scores = Record<(typeof CATEGORIES)[number], number>;

/** Lighthouse's default (mobile) run of one URL: each category's score out of 100. */
export async function lighthouseScores(url: string): Promise<Scores> {
  const chrome = await launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
    ],
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { categories, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`Lighthouse failed on ${url}: ${runtimeError.message}`);
    return Object.fromEntries(
      CATEGORIES.map((c) => [c, Math.round((categories[c]?.score ?? 0) * 100)]),
    ) as Scores;
  } finally {
    chrome.kill();
  }
}

export async function benchWeb(webUrl: string): Promise<string> {
  const lines = [
    "Route JavaScript and CSS (gzipped, what a first visit downloads before rendering):",
  ];
  lines.push(formatRoutes(measureRoutes(path.join(ROOT, "web"))));
  lines.push("Lighthouse (mobile emulation, Debian Chromium):");
  for (const page of LIGHTHOUSE_PAGES) {
    const s = await lighthouseScores(new URL(page, webUrl).href);
    lines.push(
      `${page.padEnd(10)} performance ${s.performance} · accessibility ${s.accessibility} · best practices ${s["best-practices"]} · SEO ${s.seo}`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchWeb(process.argv[2] ?? "http://127.0.0.1:5173"));
}
