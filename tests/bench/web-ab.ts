// Paired A/B Lighthouse runs of two builds of the SPA against one running, scanning stack: each
// build's `dist` is served on a port of its own and Lighthouse (mobile, web.ts's `lighthouseRun`)
// measures one page on each in turn, the order alternating every round, with the load average
// printed beside every run. On a shared machine only figures taken in the same minutes compare.
//
//   npx tsx tests/bench/web-ab.ts <api url> <dist A> <dist B> [page=/dashboard] [rounds=5]
//
// Both builds must have been made for that API (`VITE_SUPABASE_URL`, as `npm start` builds
// `web/dist`); a copy of `web/dist` per build is the simplest. BENCH_LIGHTHOUSE_REPORTS keeps the
// reports as in web.ts.
import { loadavg } from "node:os";
import path from "node:path";
import { serveBuiltWeb } from "../../devstack/web.ts";
import { freePort } from "../../devstack/stack.ts";
import { demoSession, lighthouseRun, median, type Run, sessionStorageKey } from "./web.ts";

const [apiUrl, distA, distB, page = "/dashboard", roundsArg = "5"] = process.argv.slice(2);
if (!apiUrl || !distA || !distB) {
  console.error("usage: web-ab.ts <api url> <dist A> <dist B> [page] [rounds]");
  process.exit(2);
}
const rounds = Number(roundsArg);
const signedIn = page.startsWith("/dashboard");
const builds = await Promise.all(
  [distA, distB].map(async (dist, i) => {
    const port = await freePort();
    const server = await serveBuiltWeb(port, "127.0.0.1", path.resolve(dist));
    return { name: i === 0 ? "A" : "B", url: `http://127.0.0.1:${port}${page}`, server };
  }),
);
const runs = new Map<string, Run[]>(builds.map((b) => [b.name, []]));
const load = () => loadavg()[0]!.toFixed(1);
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const session = signedIn
        ? { key: sessionStorageKey(apiUrl), value: await demoSession(apiUrl) }
        : undefined;
      const before = load();
      try {
        const run = await lighthouseRun(build.url, session);
        runs.get(build.name)!.push(run);
        console.log(
          `round ${round + 1} ${build.name}: performance ${run.scores.performance} · TBT ${Math.round(run.tbt)} ms · ` +
            `FCP ${Math.round(run.fcp)} ms · LCP ${Math.round(run.lcp)} ms · CLS ${run.cls.toFixed(3)} · ` +
            `main-thread ${(run.mainThread / 1000).toFixed(2)} s · load ${before} → ${load()}`,
        );
      } catch (err) {
        console.log(`round ${round + 1} ${build.name}: failed: ${(err as Error).message}`);
      }
    }
  }
} finally {
  for (const b of builds) b.server.close();
}
for (const [name, list] of runs) {
  if (list.length === 0) continue;
  const perf = list.map((r) => r.scores.performance);
  const med = (pick: (r: Run) => number) => median(list.map(pick));
  console.log(
    `${name} (${list.length} runs): performance median ${median(perf)} (min ${Math.min(...perf)} · max ${Math.max(...perf)}) · ` +
      `TBT ${Math.round(med((r) => r.tbt))} ms · CLS ${med((r) => r.cls).toFixed(3)} · main-thread ${(med((r) => r.mainThread) / 1000).toFixed(2)} s`,
  );
}
