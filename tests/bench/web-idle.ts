// What an open page costs while the reader only watches it (decision 0106): per build, in turn,
// the main thread's busy time over a minute after the page settled (Chromium's task, script,
// layout and style durations, Performance.getMetrics) and the 1-second clock's ticks (each run of
// a 1000 ms interval's callback with the synchronous renders it set off), on a desktop viewport
// without CPU slow-down, signed in as the bench's subscriber for `/dashboard`. The stack's scans
// keep the rows live meanwhile; only figures taken in the same minutes compare.
//
//   npx tsx tests/bench/web-idle.ts <api url> <dist A> [<dist B> …] [--page=/dashboard] [--rounds=3] [--seconds=60]
import { loadavg } from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { serveBuiltWeb } from "../../devstack/web.ts";
import { freePort } from "../../devstack/stack.ts";
import { demoSession, sessionStorageKey } from "./web.ts";

const option = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback;
const [apiUrl, ...dists] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
if (!apiUrl || dists.length === 0) {
  console.error(
    "usage: web-idle.ts <api url> <dist> [<dist> …] [--page=] [--rounds=] [--seconds=]",
  );
  process.exit(2);
}
const page = option("page", "/dashboard");
const rounds = Number(option("rounds", "3"));
const seconds = Number(option("seconds", "60"));
const load = () => loadavg()[0]!.toFixed(1);

/** Installed before the page's scripts: times every run of a 1000 ms interval's callback. */
function timeTicks() {
  const w = window as unknown as { __ticks: number[] };
  w.__ticks = [];
  const setIntervalOf = window.setInterval.bind(window);
  (window as unknown as { setInterval: unknown }).setInterval = (
    fn: () => void,
    ms?: number,
    ...rest: unknown[]
  ) =>
    setIntervalOf(
      () => {
        const start = performance.now();
        fn();
        // useSyncExternalStore's renders run in a microtask queued by the callback: after them.
        if (ms === 1000) queueMicrotask(() => w.__ticks.push(performance.now() - start));
      },
      ms,
      ...rest,
    );
}

const servers = await Promise.all(
  dists.map(async (dist) => {
    const port = await freePort();
    const server = await serveBuiltWeb(port, "127.0.0.1", path.resolve(dist));
    return { dist, origin: `http://127.0.0.1:${port}`, server };
  }),
);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const { dist, origin } of order) {
      const context = await browser.createBrowserContext();
      const p = await context.newPage();
      await p.setViewport({ width: 1280, height: 900 });
      await p.evaluateOnNewDocument(timeTicks);
      if (page.startsWith("/dashboard")) {
        await p.goto(`${origin}/robots.txt`);
        const session = JSON.stringify(await demoSession(apiUrl));
        await p.evaluate((k, v) => localStorage.setItem(k, v), sessionStorageKey(apiUrl), session);
      }
      const cdp = await p.createCDPSession();
      await cdp.send("Performance.enable");
      await p.goto(`${origin}${page}`, { waitUntil: "networkidle2" });
      await new Promise((r) => setTimeout(r, 10_000));
      const metrics = async () =>
        Object.fromEntries(
          (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
        ) as Record<string, number>;
      const before = load();
      await p.evaluate(() => ((window as unknown as { __ticks: number[] }).__ticks = []));
      const m0 = await metrics();
      await new Promise((r) => setTimeout(r, seconds * 1000));
      const m1 = await metrics();
      const ticks = (await p.evaluate(
        () => (window as unknown as { __ticks: number[] }).__ticks,
      )) as number[];
      const ageCells = await p.evaluate(
        () => document.querySelectorAll('[data-testid="data-age"]').length,
      );
      const perMinute = (name: string) =>
        `${(((m1[name]! - m0[name]!) * 1000 * 60) / seconds).toFixed(0)} ms`;
      ticks.sort((a, b) => a - b);
      const tickSum = ticks.reduce((a, b) => a + b, 0);
      console.log(
        `round ${round + 1} ${path.basename(dist)}: a minute open: busy ${perMinute("TaskDuration")} · ` +
          `script ${perMinute("ScriptDuration")} · layout ${perMinute("LayoutDuration")} · ` +
          `style ${perMinute("RecalcStyleDuration")} · 1 s ticks ${ticks.length}: median ` +
          `${(ticks[Math.floor(ticks.length / 2)] ?? 0).toFixed(1)} ms, max ${(ticks.at(-1) ?? 0).toFixed(1)} ms, ` +
          `sum ${tickSum.toFixed(0)} ms · age cells ${ageCells} · load ${before} → ${load()}`,
      );
      await context.close();
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map(({ server }) => new Promise((r) => server.close(r))));
}
