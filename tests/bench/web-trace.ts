// The long tasks of one page load, one by one (decisions 0095, 0101, 0105): a Chromium trace of the
// phone view (412 × 823, CPU slowed 4× by DevTools), signed in as the bench's subscriber for
// `/dashboard`, every main-thread task over 50 ms with its start, its length and what runs in it
// (the trace's top events and, from the sampled CPU profile, the functions with the most self
// time), then the blocking sum (task − 50 ms). Optionally the layout shifts the page had, each with
// its nodes' rects (`--shifts`). A build without minification gives the names
// (`npx vite build --config web/vite.config.ts --minify false`).
//
//   npx tsx tests/bench/web-trace.ts <api url> <dist> [page=/dashboard] [loads=1] [--shifts]
import { loadavg } from "node:os";
import path from "node:path";
import puppeteer, { type Page } from "puppeteer-core";
import { serveBuiltWeb } from "../../devstack/web.ts";
import { freePort } from "../../devstack/stack.ts";
import { demoSession, sessionStorageKey } from "./web.ts";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const shifts = process.argv.includes("--shifts");
const [apiUrl, dist, page = "/dashboard", loadsArg = "1"] = args;
if (!apiUrl || !dist) {
  console.error("usage: web-trace.ts <api url> <dist> [page] [loads] [--shifts]");
  process.exit(2);
}
const TRACE_MS = 9000;
const LONG_MS = 50;

type TraceEvent = {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: Record<string, unknown> & { data?: Record<string, unknown> };
  id?: string;
};
type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url?: string };
  parent?: number;
};

const load = () => loadavg()[0]!.toFixed(1);

/** The renderer main thread: the thread named CrRendererMain that ran the page's navigation. */
function mainThread(events: TraceEvent[]) {
  const names = events.filter((e) => e.ph === "M" && e.name === "thread_name");
  const mains = names.filter((e) => e.args?.name === "CrRendererMain");
  // The one with the most tasks is the page's (the service worker has its own thread).
  let best = mains[0]!;
  let most = -1;
  for (const m of mains) {
    const count = events.filter(
      (e) => e.pid === m.pid && e.tid === m.tid && e.name === "RunTask",
    ).length;
    if (count > most) [best, most] = [m, count];
  }
  return { pid: best.pid, tid: best.tid };
}

/** Self time per function inside [start, end] (µs), from the trace's ProfileChunk samples. */
function profileSelfTimes(events: TraceEvent[], pid: number, tid: number) {
  const nodes = new Map<number, ProfileNode>();
  const samples: { ts: number; node: number }[] = [];
  // The main thread's profile: its chunks carry the Profile event's id, not always its thread.
  const profile = events.find((e) => e.pid === pid && e.tid === tid && e.name === "Profile");
  const startTs = Number(profile?.args?.data?.startTime ?? 0);
  for (const e of events) {
    if (e.pid !== pid || e.name !== "ProfileChunk" || e.id !== profile?.id) continue;
    const data = e.args?.data as
      | { cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] }; timeDeltas?: number[] }
      | undefined;
    for (const n of data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    let t = samples.length ? samples[samples.length - 1]!.ts : startTs;
    (data?.cpuProfile?.samples ?? []).forEach((node, i) => {
      t += data?.timeDeltas?.[i] ?? 0;
      samples.push({ ts: t, node });
    });
  }
  const stackOf = (id: number) => {
    const names: string[] = [];
    for (let n = nodes.get(id); n; n = n.parent === undefined ? undefined : nodes.get(n.parent)) {
      names.push(n.callFrame.functionName);
    }
    return names;
  };
  /** Inclusive time of the components (capitalised functions) and React's entry points. */
  const inclusive = (start: number, end: number) => {
    const total = new Map<string, number>();
    for (let i = 0; i < samples.length - 1; i++) {
      const s = samples[i]!;
      if (s.ts < start || s.ts > end) continue;
      const dt = samples[i + 1]!.ts - s.ts;
      for (const name of new Set(stackOf(s.node))) {
        const react =
          /^(performSyncWorkOnRoot|performWorkOnRootViaSchedulerTask|commitRoot|flushPassiveEffects)$/;
        if (!react.test(name) && !/^[A-Z][A-Za-z0-9]+$/.test(name)) continue;
        total.set(name, (total.get(name) ?? 0) + dt);
      }
    }
    return [...total.entries()].sort((a, b) => b[1] - a[1]);
  };
  const selfTimes = (start: number, end: number) => {
    const self = new Map<string, number>();
    for (let i = 0; i < samples.length - 1; i++) {
      const s = samples[i]!;
      if (s.ts < start || s.ts > end) continue;
      const node = nodes.get(s.node);
      if (!node) continue;
      const fn = node.callFrame.functionName || "(anonymous)";
      if (fn === "(idle)" || fn === "(program)" || fn === "(garbage collector)") continue;
      const file =
        (node.callFrame.url ?? "")
          .split("/")
          .pop()
          ?.replace(/-[\w-]{8}\.js$/, "") ?? "";
      const key = `${fn}${file ? ` (${file})` : ""}`;
      self.set(key, (self.get(key) ?? 0) + (samples[i + 1]!.ts - s.ts));
    }
    return [...self.entries()].sort((a, b) => b[1] - a[1]);
  };
  return { selfTimes, inclusive };
}

function describe(events: TraceEvent[], pid: number, tid: number, task: TraceEvent) {
  const end = task.ts + (task.dur ?? 0);
  const inside = events.filter(
    (e) =>
      e.pid === pid &&
      e.tid === tid &&
      e.ph === "X" &&
      e !== task &&
      e.ts >= task.ts &&
      e.ts + (e.dur ?? 0) <= end &&
      (e.dur ?? 0) >= 3000,
  );
  const tops = new Map<string, number>();
  for (const e of inside) {
    let label = e.name;
    if (e.name === "FunctionCall" || e.name === "EvaluateScript" || e.name === "v8.compile") {
      const data = e.args?.data ?? {};
      const fn = String(data.functionName ?? "");
      const url = String(data.url ?? "")
        .split("/")
        .pop();
      label = `${e.name} ${fn}${url ? ` ${url}` : ""}`.trim();
    }
    if (["RunTask", "ThreadControllerImpl::RunTask", "RunMicrotasks"].includes(e.name)) continue;
    tops.set(label, Math.max(tops.get(label) ?? 0, (e.dur ?? 0) / 1000));
  }
  return [...tops.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(" · ");
}

// Plain JavaScript, not a function: tsx compiles named inner functions with a `__name` helper
// that does not exist in the page, and the observer would silently never start.
const SHIFT_OBSERVER = `
  window.__shifts = [];
  function describeNode(n) {
    if (!(n instanceof Element)) return String(n && n.nodeName);
    const attrs = ["data-testid", "data-mover-row", "id", "class"]
      .map((a) => (n.hasAttribute(a) ? "[" + a + '="' + (n.getAttribute(a) || "").slice(0, 60) + '"]' : ""))
      .join("");
    return n.tagName.toLowerCase() + attrs;
  }
  const rect = (r) => [r.x, r.y, r.width, r.height].map(Math.round);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__shifts.push({
        at: Math.round(e.startTime),
        value: e.value,
        input: e.hadRecentInput,
        sources: (e.sources || []).map((s) => ({
          node: describeNode(s.node),
          from: rect(s.previousRect),
          to: rect(s.currentRect),
        })),
      });
    }
  }).observe({ type: "layout-shift", buffered: true });
`;

async function observeShifts(p: Page) {
  await p.evaluateOnNewDocument(SHIFT_OBSERVER);
}

const port = await freePort();
const server = await serveBuiltWeb(port, "127.0.0.1", path.resolve(dist));
const url = `http://127.0.0.1:${port}${page}`;
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
try {
  for (let i = 0; i < Number(loadsArg); i++) {
    const context = await browser.createBrowserContext();
    const p = await context.newPage();
    await p.setViewport({
      width: 412,
      height: 823,
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    if (page.startsWith("/dashboard")) {
      await p.goto(new URL("/robots.txt", url).href);
      const session = await demoSession(apiUrl);
      await p.evaluate(
        (key, value) => localStorage.setItem(key, value),
        sessionStorageKey(apiUrl),
        JSON.stringify(session),
      );
    }
    if (shifts) await observeShifts(p);
    const cdp = await p.createCDPSession();
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const before = load();
    if (!shifts) {
      await p.tracing.start({
        categories: [
          "devtools.timeline",
          "disabled-by-default-devtools.timeline",
          "v8.execute",
          "disabled-by-default-v8.cpu_profiler",
          "toplevel",
          "blink.user_timing",
          "__metadata",
        ],
      });
    }
    await p.goto(url, { waitUntil: "domcontentloaded" });
    await new Promise((r) => setTimeout(r, TRACE_MS));
    if (shifts) {
      const list = (await p.evaluate(
        () => (window as unknown as { __shifts: unknown[] }).__shifts,
      )) as {
        value: number;
      }[];
      const total = list.reduce((sum, s) => sum + s.value, 0);
      console.log(`load ${i + 1}: CLS ${total.toFixed(3)} · load ${before} → ${load()}`);
      for (const s of list) console.log(`  ${JSON.stringify(s)}`);
    } else {
      const buffer = await p.tracing.stop();
      const events = (JSON.parse(Buffer.from(buffer!).toString()) as { traceEvents: TraceEvent[] })
        .traceEvents;
      const { pid, tid } = mainThread(events);
      const nav = events.find((e) => e.name === "navigationStart" && e.pid === pid);
      const t0 = nav?.ts ?? events.find((e) => e.pid === pid && e.tid === tid)!.ts;
      const { selfTimes, inclusive } = profileSelfTimes(events, pid, tid);
      // The outermost task events only (RunTask and ThreadControllerImpl::RunTask nest).
      const tasks: TraceEvent[] = [];
      for (const e of events
        .filter(
          (e) =>
            e.pid === pid &&
            e.tid === tid &&
            (e.name === "RunTask" || e.name === "ThreadControllerImpl::RunTask") &&
            (e.dur ?? 0) / 1000 > LONG_MS,
        )
        .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
        const last = tasks[tasks.length - 1];
        if (last && e.ts < last.ts + (last.dur ?? 0)) continue;
        tasks.push(e);
      }
      let blocking = 0;
      console.log(
        `load ${i + 1}: ${tasks.length} tasks over ${LONG_MS} ms · load ${before} → ${load()}`,
      );
      for (const task of tasks) {
        const ms = (task.dur ?? 0) / 1000;
        blocking += ms - LONG_MS;
        const self = selfTimes(task.ts, task.ts + (task.dur ?? 0))
          .slice(0, 4)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
          .join(", ");
        console.log(
          `  ${((task.ts - t0) / 1e6).toFixed(2)} s  ${ms.toFixed(0).padStart(4)} ms  ${describe(events, pid, tid, task)}`,
        );
        if (self) console.log(`                  self: ${self}`);
        const parts = inclusive(task.ts, task.ts + (task.dur ?? 0))
          .slice(0, 8)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
          .join(", ");
        if (parts) console.log(`                  in: ${parts}`);
      }
      console.log(`  blocking sum ${blocking.toFixed(0)} ms`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
