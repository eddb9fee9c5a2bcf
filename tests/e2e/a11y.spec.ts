// Accessibility of every page (axe, WCAG 2.1 A and AA, colour contrast included) in both
// themes and all four languages (RUNS below), plus each page's <html lang>, title and description. The
// pages come from the route table (support/pages.ts); a guarded page is audited as the demo
// admin (an enterprise subscriber and an administrator), the others as a visitor.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { auditedPages, logIn } from "./support/pages";

// Colours come from the theme and words from the language, independently: every page is audited
// in both themes in English (contrast of every colour pair), and in each other language once,
// the three alternating themes (names, labels, <html lang>, title and description of every
// translation). The full 4 × 2 grid took 19 minutes of CI for the same findings. Colour contrast,
// the costliest rule (half of axe's time on a page), runs in the two English runs, which see every
// colour pair; the other languages run every other rule. A theme changes colours only, so the
// second English run (light) runs the rules that read colours (COLOUR_RULES); the first runs all.
//
// One visit per page reads all five, as a reader who changes them on the page would: the theme is
// "system" and follows the emulated colour scheme live, and the language is chosen in the header's
// language menu. Five fresh visits a page cost 80 more page loads a run for the same findings.
//
// This file is its own Playwright project ("a11y", playwright.config.ts): it runs after every
// other spec, two tests at a time. To run it alone: `npx playwright test --project=a11y --no-deps`.
const RUNS = [
  ["en", "dark"],
  ["en", "light"],
  ["de", "dark"],
  ["fr", "light"],
  ["es", "dark"],
] as const;
type Language = (typeof RUNS)[number][0];
type Scheme = (typeof RUNS)[number][1];

/** The header's language button, named in the language on screen (common.json `language.change`). */
const CHANGE_LANGUAGE: Record<Language, RegExp> = {
  en: /^Change language/,
  de: /^Sprache ändern/,
  fr: /^Changer de langue/,
  es: /^Cambiar idioma/,
};
/** The menu's items, each named in its own language. */
const LANGUAGE_NAME: Record<Language, string> = {
  en: "English",
  de: "Deutsch",
  fr: "Français",
  es: "Español",
};

async function contextFor(
  browser: Browser,
  storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>,
) {
  // Reduced motion (index.css shortens every transition to 1 ms), as a reader who asks for it sees
  // the pages; audit() also turns transitions off (NO_MOTION) before axe reads any colour.
  const context = await browser.newContext({
    storageState,
    reducedMotion: "reduce",
    colorScheme: RUNS[0][1],
  });
  await context.addInitScript(
    ([lng]) => {
      localStorage.setItem("language", lng);
      localStorage.setItem("theme", "system");
    },
    [RUNS[0][0]],
  );
  return context;
}

async function settle(page: Page) {
  // Route chunks and guards show a spinner first; audit the page, not the spinner.
  await expect(page.locator("main [role=status] svg.animate-spin")).toHaveCount(0, {
    timeout: 15_000,
  });
  // Queries answer within a moment on the local stack; let their content replace the loaders.
  await page.waitForTimeout(750);
}

/** The colour scheme the "system" theme follows, and the page painted in it. */
async function useScheme(page: Page, scheme: Scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await expect(page.locator("html")).toHaveClass(
    scheme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/,
  );
}

/** Chooses `to` in the header's language menu and waits for the page to be in it. */
async function useLanguage(page: Page, from: Language, to: Language) {
  if (from === to) return;
  await page.getByRole("banner").getByRole("button", { name: CHANGE_LANGUAGE[from] }).click();
  await page.getByRole("menuitemradio", { name: LANGUAGE_NAME[to] }).click();
  // The language's other texts arrive as a chunk of their own, then every row re-renders: on the
  // dashboard under load that took over 5 s.
  await expect(page.locator("html")).toHaveAttribute("lang", to, { timeout: 30_000 });
  await expect(page.getByRole("menu")).toHaveCount(0);
  // Every translated component re-renders in the one commit that renames the menu's button.
  await expect(
    page.getByRole("banner").getByRole("button", { name: CHANGE_LANGUAGE[to] }),
  ).toBeVisible({ timeout: 30_000 });
}

// A transition that starts when data arrives (a button enabled by its rows fades from 50 % opacity)
// holds its start value until the browser's next frame, even at 1 ms under reduced motion: measured
// on /admin under load, the export button read "enabled, opacity 0.5, transition pending" for 225 ms,
// and an axe run in that gap reported its text's contrast (CI, en light). With transitions and
// animations off, a style change takes effect at once, so axe reads every element's final colours.
const NO_MOTION =
  "*, *::before, *::after { transition: none !important; animation: none !important; }";

/** The WCAG 2.1 A/AA rules whose outcome depends on colours. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

async function audit(page: Page, url: string, language: Language, scheme: Scheme, first: boolean) {
  let builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  if (language !== "en") builder = builder.disableRules(["color-contrast"]);
  else if (!first) builder = builder.withRules(COLOUR_RULES);
  const axe = await builder.analyze();
  const run = `${url} (${language}, ${scheme})`;
  const violations = axe.violations.map(
    (v) =>
      `${run}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
        .map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`)
        .slice(0, 3)
        .join(", ")}`,
  );
  const meta = await page.evaluate(() => ({
    lang: document.documentElement.lang,
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
  }));
  const problems = [...violations];
  if (meta.lang !== language) problems.push(`${run}: <html lang="${meta.lang}">, not ${language}`);
  if (!meta.title.includes("MoverScan")) problems.push(`${run}: title "${meta.title}"`);
  if (meta.description.length < 10) problems.push(`${run}: no description`);
  return { problems, meta };
}

const { pages, skipped } = auditedPages();
// Pages inside the route table's <RequireAuth /> go straight to the admin (a visitor's view of them
// is the login page, audited itself); so does a page that sent a visitor there in an earlier run of
// this worker.
const guarded = new Set<string>(pages.filter((p) => p.guarded).map((p) => p.url));
let adminState: Awaited<ReturnType<BrowserContext["storageState"]>> | undefined;

test.beforeAll(async ({ browser }) => {
  if (skipped.length > 0) console.log(`not audited (no sample URL): ${skipped.join(", ")}`);
  const context = await browser.newContext();
  await logIn(await context.newPage());
  adminState = await context.storageState();
  await context.close();
});

for (const { route, url } of pages) {
  test(`${url} is axe-clean, titled and described (${RUNS.map((r) => r.join(" ")).join(", ")})`, async ({
    browser,
  }) => {
    // axe over the dashboard's 100 rows (each with its sparkline) takes long on a shared machine,
    // and each page is audited five times.
    test.setTimeout(360_000);
    // A public page as a visitor; a guarded one as the admin. A visitor sent to the login page
    // by a page not known as guarded is audited again as the admin.
    let context = await contextFor(browser, guarded.has(url) ? adminState : undefined);
    try {
      let page = await context.newPage();
      await page.goto(url);
      await page.waitForLoadState("load");
      if (new URL(page.url()).pathname === "/auth/login" && route !== "/auth/login") {
        guarded.add(url);
        await context.close();
        context = await contextFor(browser, adminState);
        page = await context.newPage();
        await page.goto(url);
        await page.waitForLoadState("load");
      }
      await settle(page);
      await page.addStyleTag({ content: NO_MOTION });
      const problems: string[] = [];
      let language: Language = RUNS[0][0];
      for (const [index, [lng, scheme]] of RUNS.entries()) {
        await useScheme(page, scheme);
        await useLanguage(page, language, lng);
        language = lng;
        problems.push(...(await audit(page, url, lng, scheme, index === 0)).problems);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
