import { describe, expect, it } from "vitest";
import { fillShell, prerenderedFile, startScriptsAfterPaint } from "./prerender.config";

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
    expect(code).toContain("requestAnimationFrame");
    expect(() => new Function(code)).not.toThrow();
  });

  it("refuses a shell without the #root or the entry script", () => {
    const page = { html: "", title: "", description: "" };
    expect(() => fillShell(BUILT.replace('<div id="root"></div>', ""), page)).toThrow(/#root|root/);
    expect(() =>
      startScriptsAfterPaint(BUILT.replace(/<script type="module"[^>]*><\/script>/, "")),
    ).toThrow(/entry script/);
  });
});
