import { afterEach, describe, expect, it, vi } from "vitest";
import {
  fillAppShell,
  fillShell,
  PAINT_WAIT_MS,
  PRELOADS_PER_TASK,
  prerenderedFile,
  startScriptsAfterPaint,
} from "./prerender.config";

const BUILT = `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta
      name="description"
      content="Old description"
    />
    <title>MoverScan — live crypto movers</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="modulepreload" crossorigin href="/assets/i18n-2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-3.css">
    <script>(function(){var f={"en":"/assets/en-core-4.js"},l;k.href=f[l]||f.en})()</script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe("prerender", () => {
  it("writes / to index.html and other paths to their folder's index.html", () => {
    expect(prerenderedFile("/")).toBe("index.html");
    expect(prerenderedFile("/pricing")).toBe("pricing/index.html");
  });

  it("puts the page, its title and its description (escaped) into the shell", () => {
    const html = fillShell(BUILT, {
      html: "<main><h1>Plans</h1></main>",
      title: "Pricing · MoverScan",
      description: 'Plans "for" <every> trader & more',
    });
    expect(html).toContain(
      '<div id="root"><div data-prerendered=""><main><h1>Plans</h1></main></div></div>',
    );
    expect(html).toContain("<title>Pricing · MoverScan</title>");
    expect(html).toContain(
      '<meta name="description" content="Plans &quot;for&quot; &lt;every&gt; trader &amp; more" />',
    );
    // The stylesheet stays in the head: it is what the first paint needs.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-3.css">');
  });

  it("starts the scripts after the first paint, all of them, in one loader at the end", () => {
    const html = startScriptsAfterPaint(BUILT);
    expect(html).not.toContain('<script type="module"');
    expect(html).not.toContain('<link rel="modulepreload"');
    const loader = /<script>(\(function\(\)\{function start[^<]*)<\/script>\s*<\/body>/.exec(html);
    expect(loader).not.toBeNull();
    const code = loader![1]!;
    for (const file of [
      "/assets/index-abc.js",
      "/assets/react-1.js",
      "/assets/i18n-2.js",
      "/assets/en-core-4.js",
    ]) {
      expect(code).toContain(file);
    }
    expect(() => new Function(code)).not.toThrow();
  });

  describe("the loader", () => {
    const loaderCode = () =>
      /<script>(\(function\(\)\{function start[^<]*)<\/script>/.exec(
        startScriptsAfterPaint(
          BUILT.replace(
            "l;k.href=f[l]||f.en",
            'k=document.createElement("link");k.href=f.en;document.head.appendChild(k)',
          ),
        ),
      )![1]!;
    type Entry = { name: string; entryType: string };
    /** Runs the loader in a fake window whose observer reports the entries handed to `report`. */
    function runLoader(supported: string[], visibility = "visible") {
      const appended: string[] = [];
      let callback: ((list: { getEntries(): Entry[] }) => void) | null = null;
      const observed: string[] = [];
      const fakeDocument = {
        visibilityState: visibility,
        createElement: () => ({}) as Record<string, string>,
        head: {
          appendChild: (el: { href?: string; src?: string }) => appended.push(el.src ?? el.href!),
        },
      };
      function Observer(cb: typeof callback) {
        callback = cb;
        return { observe: (o: { type: string }) => observed.push(o.type), disconnect() {} };
      }
      Observer.supportedEntryTypes = supported;
      const frames: (() => void)[] = [];
      new Function(
        "window",
        "document",
        "localStorage",
        "navigator",
        "requestAnimationFrame",
        loaderCode(),
      )(
        { PerformanceObserver: supported.length ? Observer : undefined },
        fakeDocument,
        { getItem: () => null },
        { languages: ["en"] },
        (f: () => void) => frames.push(f),
      );
      return {
        appended,
        observed,
        frames,
        report: (entries: Entry[]) => callback!({ getEntries: () => entries }),
      };
    }
    const entry = "/assets/index-abc.js";

    afterEach(() => {
      vi.useRealTimers();
    });

    it("waits for the first and the largest contentful paint", () => {
      vi.useFakeTimers();
      const page = runLoader(["paint", "largest-contentful-paint"]);
      expect(page.observed).toEqual(["paint", "largest-contentful-paint"]);
      vi.advanceTimersByTime(100);
      expect(page.appended).toEqual([]);
      page.report([{ name: "first-paint", entryType: "paint" }]);
      page.report([{ name: "first-contentful-paint", entryType: "paint" }]);
      vi.advanceTimersByTime(100);
      expect(page.appended).toEqual([]);
      page.report([{ name: "", entryType: "largest-contentful-paint" }]);
      vi.advanceTimersByTime(0);
      expect(page.appended).toContain(entry);
      expect(page.appended.filter((f) => f === entry)).toHaveLength(1);
      // The time-out that follows does not start the app a second time.
      vi.advanceTimersByTime(PAINT_WAIT_MS);
      expect(page.appended.filter((f) => f === entry)).toHaveLength(1);
    });

    it("appends the entry first, then the preloads a few per task (decision 0095)", () => {
      vi.useFakeTimers();
      const page = runLoader(["paint"]);
      page.report([{ name: "first-contentful-paint", entryType: "paint" }]);
      vi.advanceTimersByTime(0);
      const scripts = page.appended.filter((f) => f.endsWith(".js") && !f.includes("en-core"));
      expect(scripts[0]).toBe(entry);
      // The fixture has two preloads: both in the first task after the entry.
      expect(scripts).toEqual([entry, "/assets/react-1.js", "/assets/i18n-2.js"]);
    });

    it("yields between groups of preloads", () => {
      vi.useFakeTimers();
      const many = Array.from({ length: 2 * PRELOADS_PER_TASK + 1 }, (_, i) => `/assets/m-${i}.js`);
      const code = /<script>(\(function\(\)\{function start[^<]*)<\/script>/.exec(
        startScriptsAfterPaint(
          BUILT.replace(
            '<link rel="modulepreload" crossorigin href="/assets/react-1.js">',
            many.map((h) => `<link rel="modulepreload" crossorigin href="${h}">`).join("\n"),
          ).replace(
            "l;k.href=f[l]||f.en",
            'k=document.createElement("link");k.href=f.en;document.head.appendChild(k)',
          ),
        ),
      )![1]!;
      const appended: string[] = [];
      const doc = {
        visibilityState: "hidden",
        createElement: () => ({}) as Record<string, string>,
        head: {
          appendChild: (el: { href?: string; src?: string }) => appended.push(el.src ?? el.href!),
        },
      };
      new Function("window", "document", "localStorage", "navigator", code)(
        {},
        doc,
        { getItem: () => null },
        { languages: ["en"] },
      );
      const preloaded = () => appended.filter((f) => f.startsWith("/assets/m-"));
      // One group per task: each run of the pending timers appends the next group only.
      expect(preloaded()).toHaveLength(PRELOADS_PER_TASK);
      vi.runOnlyPendingTimers();
      expect(preloaded()).toHaveLength(2 * PRELOADS_PER_TASK);
      vi.runOnlyPendingTimers();
      expect(preloaded()).toEqual(many);
    });

    it("waits for the first paint alone where the largest is not reported", () => {
      vi.useFakeTimers();
      const page = runLoader(["paint"]);
      expect(page.observed).toEqual(["paint"]);
      page.report([{ name: "first-contentful-paint", entryType: "paint" }]);
      vi.advanceTimersByTime(0);
      expect(page.appended).toContain(entry);
    });

    it("starts after PAINT_WAIT_MS when no paint is reported", () => {
      vi.useFakeTimers();
      const page = runLoader(["paint", "largest-contentful-paint"]);
      vi.advanceTimersByTime(PAINT_WAIT_MS - 1);
      expect(page.appended).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(page.appended).toContain(entry);
    });

    it("waits one frame without an observer, and not at all in a hidden tab", () => {
      vi.useFakeTimers();
      const old = runLoader([]);
      expect(old.frames).toHaveLength(1);
      old.frames[0]!();
      vi.advanceTimersByTime(0);
      expect(old.appended).toContain(entry);
      const hidden = runLoader(["paint", "largest-contentful-paint"], "hidden");
      expect(hidden.appended).toContain(entry);
      expect(hidden.observed).toEqual([]);
    });
  });

  it("writes the app shell into app.html's #root, its scripts after the paint", () => {
    const html = fillAppShell(BUILT, '<div data-app-shell=""><header>MoverScan</header></div>');
    expect(html).toContain(
      '<div id="root"><div data-app-shell=""><header>MoverScan</header></div></div>',
    );
    // Not marked pre-rendered: main.tsx renders the app over it (no hydration).
    expect(html).not.toContain("data-prerendered");
    expect(html).not.toContain('<script type="module"');
    expect(html).toMatch(/<script>\(function\(\)\{function start[^<]*<\/script>\s*<\/body>/);
    expect(() => fillAppShell(BUILT.replace('<div id="root"></div>', ""), "")).toThrow(/root/);
  });

  it("refuses a shell without the #root or the entry script", () => {
    const page = { html: "", title: "", description: "" };
    expect(() => fillShell(BUILT.replace('<div id="root"></div>', ""), page)).toThrow(/#root|root/);
    expect(() =>
      startScriptsAfterPaint(BUILT.replace(/<script type="module"[^>]*><\/script>/, "")),
    ).toThrow(/entry script/);
  });
});
