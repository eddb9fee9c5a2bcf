// The SPA's weight and quality: every route's gzipped JavaScript and CSS from the production
// build (scripts/route-bundles.ts, against its budget) and the Lighthouse scores (mobile
// emulation, Debian Chromium) of the landing page, the pricing page and a signed-in dashboard on
// a running, scanning stack: five runs of each page, the median with the lowest and highest.
// Standalone: `npx tsx tests/bench/web.ts http://127.0.0.1:5173 http://127.0.0.1:54321` against
// `npm start` (the SPA's address, then the API's).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { launch } from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import puppeteer from "puppeteer-core";
import { ENV_FILE, ROOT, readEnvFile } from "../../devstack/config.ts";
import { DEMO_PASSWORD } from "../../devstack/demo-accounts.ts";
import { formatRoutes, measureRoutes } from "../../scripts/route-bundles.ts";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
/** The pages measured; `signedIn` pages are opened with a demo subscriber's session. */
export const LIGHTHOUSE_PAGES = [
  { path: "/", signedIn: false },
  { path: "/pricing", signedIn: false },
  { path: "/dashboard", signedIn: true },
] as const;
export const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
/**
 * The pages to measure: all of LIGHTHOUSE_PAGES, or those named in BENCH_LIGHTHOUSE_PAGES
 * (comma-separated paths, e.g. `/dashboard`) to measure one page alone.
 */
export function lighthousePages(only = process.env.BENCH_LIGHTHOUSE_PAGES) {
  if (!only) return LIGHTHOUSE_PAGES;
  const wanted = only.split(",").map((p) => p.trim());
  const unknown = wanted.filter((p) => !LIGHTHOUSE_PAGES.some((page) => page.path === p));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_LIGHTHOUSE_PAGES names pages the bench does not measure: ${unknown.join(", ")}`,
    );
  }
  return LIGHTHOUSE_PAGES.filter((page) => wanted.includes(page.path));
}
/** The subscriber whose dashboard is measured (a plan with every window, demo-accounts.ts). */
const DASHBOARD_ACCOUNT = "pro@demo.local";

export type Scores = Record<(typeof CATEGORIES)[number], number>;

/** One Lighthouse run: the scores and the metrics behind the performance score. */
export interface Run {
  scores: Scores;
  /** First and largest contentful paint, total blocking time (ms); layout shift (unitless). */
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /**
   * Lighthouse's main-thread work (all tasks: script, style, layout, ms), which a busy host
   * moves less than the score: read it beside TBT when the machine is shared.
   */
  mainThread: number;
  /**
   * Lighthouse's measure of the host's CPU at the time (`environment.benchmarkIndex`, higher is
   * faster). The simulated mobile CPU is the host's slowed four times, so a busy host scores lower.
   */
  benchmarkIndex: number;
}

/** A Supabase session as supabase-js keeps it in localStorage (the password grant's answer). */
export type Session = Record<string, unknown>;

/** Signs the demo subscriber in against the stack's Auth: the session the SPA would store. */
export async function demoSession(apiUrl: string, email = DASHBOARD_ACCOUNT): Promise<Session> {
  const key = readEnvFile(ENV_FILE).SUPABASE_PUBLISHABLE_KEY ?? "";
  const res = await fetch(`${apiUrl}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers: { apikey: key, "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!res.ok) throw new Error(`signing in ${email} failed with ${res.status}`);
  const session = (await res.json()) as Session & { expires_in?: number };
  // supabase-js stores expires_at (seconds); the grant answers expires_in.
  return {
    ...session,
    expires_at: Math.floor(Date.now() / 1000) + Number(session.expires_in ?? 3600),
  };
}

/** supabase-js's default storage key for a project URL (`sb-<first host label>-auth-token`). */
export function sessionStorageKey(apiUrl: string): string {
  return `sb-${new URL(apiUrl).hostname.split(".")[0]}-auth-token`;
}

/**
 * Lighthouse's default (mobile) run of one URL in a fresh Chromium: each category's score out of
 * 100 and the paint metrics. With a session, the page's origin gets it in localStorage first (as
 * after signing in) and Lighthouse keeps storage; the run fails if the page still ends elsewhere
 * (the dashboard sends a signed-out visitor to the sign-in page).
 */
export async function lighthouseRun(
  url: string,
  session?: { key: string; value: Session },
): Promise<Run> {
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
    const flags: Flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...CATEGORIES],
    };
    let result: Awaited<ReturnType<typeof lighthouse>>;
    if (session) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      try {
        const page = await browser.newPage();
        // A tiny same-origin file: the storage belongs to the origin, not to the page.
        await page.goto(new URL("/robots.txt", url).href);
        await page.evaluate(
          (key, value) => localStorage.setItem(key, value),
          session.key,
          JSON.stringify(session.value),
        );
        result = await lighthouse(url, { ...flags, disableStorageReset: true }, undefined, page);
      } finally {
        await browser.disconnect();
      }
    } else {
      result = await lighthouse(url, flags);
    }
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    // BENCH_LIGHTHOUSE_REPORTS=<folder> keeps every run's report (open it in Lighthouse's viewer).
    const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
    if (reports) {
      mkdirSync(reports, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, "_")}-${Date.now()}.json`;
      writeFileSync(path.join(reports, name), JSON.stringify(result.lhr));
    }
    const { categories, runtimeError, audits, finalDisplayedUrl, environment } = result.lhr;
    if (runtimeError) throw new Error(`Lighthouse failed on ${url}: ${runtimeError.message}`);
    if (new URL(finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`Lighthouse measured ${finalDisplayedUrl} instead of ${url}`);
    }
    const metric = (id: string) => {
      const value = audits[id]?.numericValue;
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new Error(`Lighthouse measured no ${id} on ${url}`);
      }
      return value;
    };
    return {
      scores: Object.fromEntries(
        CATEGORIES.map((c) => {
          const score = categories[c]?.score;
          if (typeof score !== "number") throw new Error(`Lighthouse scored no ${c} on ${url}`);
          return [c, Math.round(score * 100)];
        }),
      ) as Scores,
      fcp: metric("first-contentful-paint"),
      lcp: metric("largest-contentful-paint"),
      tbt: metric("total-blocking-time"),
      cls: metric("cumulative-layout-shift"),
      mainThread: metric("mainthread-work-breakdown"),
      benchmarkIndex: environment.benchmarkIndex,
    };
  } finally {
    chrome.kill();
  }
}

/** The middle value (the lower middle of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no values");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** One page's line: the median performance with min and max, then the medians of the rest. */
export function formatPage(pagePath: string, runs: readonly Run[]): string {
  const perf = runs.map((r) => r.scores.performance);
  const med = (pick: (r: Run) => number) => median(runs.map(pick));
  return (
    `${pagePath.padEnd(11)} performance median ${median(perf)} (min ${Math.min(...perf)} · max ${Math.max(...perf)}, ${runs.length} runs)` +
    ` · accessibility ${med((r) => r.scores.accessibility)} · best practices ${med((r) => r.scores["best-practices"])} · SEO ${med((r) => r.scores.seo)}` +
    ` · FCP ${seconds(med((r) => r.fcp))} · LCP ${seconds(med((r) => r.lcp))} · TBT ${Math.round(med((r) => r.tbt))} ms · CLS ${med((r) => r.cls).toFixed(3)}` +
    ` · main-thread work ${seconds(med((r) => r.mainThread))}` +
    ` · host benchmark index ${Math.round(med((r) => r.benchmarkIndex))}`
  );
}

/** Every page `runs` times, the pages taking turns so a busy moment of the machine hits all. */
export async function benchLighthouse(
  webUrl: string,
  apiUrl: string,
  runs = LIGHTHOUSE_RUNS,
): Promise<string> {
  const lines = [
    `Lighthouse (mobile emulation, Debian Chromium, ${runs} runs a page, the stack scanning; /dashboard signed in as ${DASHBOARD_ACCOUNT}):`,
  ];
  const pages = lighthousePages();
  const results = new Map<string, Run[]>(pages.map((p) => [p.path, []]));
  const failures = new Map<string, string>();
  for (let i = 0; i < runs; i++) {
    for (const page of pages) {
      if (failures.has(page.path)) continue;
      try {
        const session = page.signedIn
          ? { key: sessionStorageKey(apiUrl), value: await demoSession(apiUrl) }
          : undefined;
        results.get(page.path)!.push(await lighthouseRun(new URL(page.path, webUrl).href, session));
      } catch (err) {
        failures.set(page.path, err instanceof Error ? err.message : String(err));
      }
    }
  }
  for (const page of pages) {
    const failure = failures.get(page.path);
    lines.push(
      failure
        ? `${page.path.padEnd(11)} not measured: ${failure}`
        : formatPage(page.path, results.get(page.path)!),
    );
  }
  return lines.join("\n");
}

export async function benchWeb(webUrl: string, apiUrl: string): Promise<string> {
  const lines = [
    "Route JavaScript and CSS (gzipped, what a first visit downloads before rendering):",
  ];
  lines.push(formatRoutes(measureRoutes(path.join(ROOT, "web"))));
  lines.push(await benchLighthouse(webUrl, apiUrl));
  return lines.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(
    await benchWeb(
      process.argv[2] ?? "http://127.0.0.1:5173",
      process.argv[3] ?? "http://127.0.0.1:54321",
    ),
  );
}
