// `npm test`: every suite in order, then one summary line `N passed, N failed` over all of them.
// Checks (typecheck, lint, format) count as one test each; test runners count their tests.
// A suite whose tool is missing is skipped loudly locally and fails in CI (CI=true).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ROOT } from "../devstack/config.ts";
import { denoEnv } from "../devstack/deno.ts";
import { postgresAvailable } from "./support/postgres.ts";

interface Result {
  suite: string;
  passed: number;
  failed: number;
  skipped: number;
  note?: string;
  /** Names of the failed tests, printed again under the summary (CI shows only the tail). */
  failures?: string[];
  seconds?: number;
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
const CI = process.env.CI === "true" || process.env.CI === "1";
const only = process.argv.slice(2);
const tmp = mkdtempSync(path.join(tmpdir(), "npm-test-"));
const results: Result[] = [];
/** Output of suites that run beside others, printed whole once their group has ended. */
const held = new Map<string, string>();

/** Runs a command; its output is echoed as it comes unless `echo` is false (then only returned). */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  echo = true,
): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    const tee = (d: Buffer) => {
      out += d;
      if (echo) process.stdout.write(d);
    };
    child.stdout.on("data", tee);
    child.stderr.on("data", tee);
    child.on("close", (code) => resolve({ code: code ?? 1, out: out.replace(ANSI, "") }));
    child.on("error", (err) => resolve({ code: 127, out: String(err) }));
  });
}

const bin = (name: string) => path.join(ROOT, "node_modules/.bin", name);

/** A check that passes or fails as a whole; returns its result and output for `together`. */
async function check(suite: string, cmd: string, args: string[]) {
  const started = performance.now();
  const { code, out } = await run(cmd, args, {}, false);
  const result: Result = {
    suite,
    passed: code === 0 ? 1 : 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    seconds: Math.round((performance.now() - started) / 1000),
  };
  return { result, out };
}

/**
 * Checks that share nothing (typecheck, lint, format: each a single-threaded process that only
 * reads the tree) run at the same time on the two cores; each one's output is printed whole,
 * in order, once all have ended.
 */
async function together(...checks: Array<Promise<{ result: Result; out: string }>>) {
  for (const { result, out } of await Promise.all(checks)) {
    console.log(`\n=== ${result.suite} ===`);
    process.stdout.write(out);
    results.push(result);
  }
}

async function vitest(
  suite: string,
  config: string,
  env: Record<string, string> = {},
  echo = true,
) {
  const report = path.join(tmp, `${suite}.json`);
  const { code, out } = await run(
    bin("vitest"),
    [
      "run",
      "--config",
      config,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
    ],
    env,
    echo,
  );
  if (!echo) held.set(suite, out);
  if (!existsSync(report))
    return results.push({ suite, passed: 0, failed: 1, skipped: 0, note: `runner exited ${code}` });
  const r = JSON.parse(readFileSync(report, "utf8"));
  const failed = r.numFailedTests + (code !== 0 && r.numFailedTests === 0 ? 1 : 0);
  const failures: string[] = [];
  for (const file of r.testResults ?? []) {
    const rel = path.relative(ROOT, String(file.name));
    const failedTests = (file.assertionResults ?? []).filter(
      (t: { status: string }) => t.status === "failed",
    );
    for (const t of failedTests) failures.push(`${rel} > ${t.fullName}`);
    // A file that failed to load has no failed test of its own.
    if (file.status === "failed" && failedTests.length === 0)
      failures.push(`${rel}: ${String(file.message ?? "failed to run").split("\n")[0]}`);
  }
  results.push({
    suite,
    passed: r.numPassedTests,
    failed,
    skipped: r.numPendingTests + r.numTodoTests,
    failures,
  });
}

async function deno(suite: string, echo = true) {
  const { code, out } = await run(
    bin("deno"),
    [
      "test",
      // The packages were fetched by `npm install`; the tests never reach the network for code.
      "--cached-only",
      "--frozen",
      "--node-modules-dir=none",
      "--config",
      "supabase/functions/deno.json",
      "--allow-env",
      "--allow-net",
      "--allow-read",
      "supabase/functions",
    ],
    { ...denoEnv({ full: true }), NO_COLOR: "1" },
    echo,
  );
  if (!echo) held.set(suite, out);
  const m = /(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(out);
  const passed = m ? Number(m[2]) : 0;
  const failed = m ? Number(m[3]) : 1;
  const failures = [...out.matchAll(/^(.+?) \.\.\. FAILED/gm)].map((f) => f[1]!.trim());
  results.push({
    suite,
    passed,
    failed: failed + (code !== 0 && failed === 0 ? 1 : 0),
    skipped: 0,
    failures,
  });
}

async function tap(suite: string, cmd: string, args: string[], echo = true) {
  const { code, out } = await run(cmd, args, {}, echo);
  if (!echo) held.set(suite, out);
  const passed = (out.match(/^\s*ok \d+/gm) ?? []).length;
  const failures = (out.match(/^\s*not ok \d+.*$/gm) ?? []).map((l) => l.trim());
  results.push({
    suite,
    passed,
    failed: failures.length + (code !== 0 && failures.length === 0 ? 1 : 0),
    skipped: 0,
    failures,
  });
}

async function playwright(suite: string) {
  const report = path.join(tmp, "e2e.json");
  const { code } = await run(bin("playwright"), ["test", "--reporter=list,json"], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  if (!existsSync(report))
    return results.push({ suite, passed: 0, failed: 1, skipped: 0, note: `runner exited ${code}` });
  const json = JSON.parse(readFileSync(report, "utf8"));
  const s = json.stats;
  const failed = s.unexpected + s.flaky;
  results.push({
    suite,
    passed: s.expected,
    failed: failed + (code !== 0 && failed === 0 ? 1 : 0),
    skipped: s.skipped,
    failures: playwrightFailures(json.suites ?? []),
  });
}

interface PwSuite {
  suites?: PwSuite[];
  specs?: { title: string; file: string; line: number; tests: { status: string }[] }[];
}
/** `file:line › title` of each spec whose outcome was unexpected or flaky. */
function playwrightFailures(suites: PwSuite[]): string[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => spec.tests.some((t) => t.status === "unexpected" || t.status === "flaky"))
      .map((spec) => `${spec.file}:${spec.line} › ${spec.title}`),
    ...playwrightFailures(suite.suites ?? []),
  ]);
}

async function missing(suite: string, why: string) {
  if (CI) {
    console.error(`\n!!! ${suite}: ${why} — failing because CI=true.`);
    results.push({ suite, passed: 0, failed: 1, skipped: 0, note: why });
  } else {
    console.error(`\n!!! SKIPPED ${suite}: ${why}. Install it (see README) — CI fails without it.`);
    results.push({ suite, passed: 0, failed: 0, skipped: 1, note: why });
  }
}

const suites: Record<string, (echo: boolean) => Promise<unknown>> = {
  checks: () =>
    together(
      ...(["typecheck", "lint", "format"] as const)
        .filter((name) => only.length === 0 || only.includes(name) || only.includes("checks"))
        .map((name) =>
          check(name, "npm", ["run", "--silent", name === "format" ? "format:check" : name]),
        ),
    ),
  unit: (echo) => vitest("unit", "web/vitest.config.ts", {}, echo),
  devstack: (echo) => vitest("devstack", "tests/vitest.devstack.config.ts", {}, echo),
  functions: (echo) => deno("functions", echo),
  "stack-pglite": (echo) =>
    vitest("stack-pglite", "tests/vitest.stack.config.ts", { STACK_DB: "pglite" }, echo),
  "stack-postgres": (echo) =>
    postgresAvailable()
      ? vitest("stack-postgres", "tests/vitest.stack.config.ts", { STACK_DB: "postgres" }, echo)
      : missing("stack-postgres", "PostgreSQL 15 binaries not found in /usr/lib/postgresql/15/bin"),
  security: (echo) => vitest("security", "tests/vitest.security.config.ts", {}, echo),
  // The pinned Supabase CLI (db push, migration list), generated types and schemas, Vault, deploy.
  platform: (echo) =>
    postgresAvailable()
      ? vitest("platform", "tests/vitest.platform.config.ts", {}, echo)
      : missing("platform", "PostgreSQL 15 binaries not found in /usr/lib/postgresql/15/bin"),
  pgtap: (echo) =>
    postgresAvailable() && existsSync("/usr/bin/pg_prove")
      ? tap("pgtap", bin("tsx"), ["tests/pgtap/run.ts"], echo)
      : missing("pgtap", "PostgreSQL 15 or pg_prove (postgresql-15-pgtap) not installed"),
  e2e: () =>
    existsSync("/usr/bin/chromium")
      ? playwright("e2e")
      : missing("e2e", "Debian chromium not installed"),
};

/**
 * The order of the run. A step is one suite, or lanes that run at the same time, each lane its
 * suites one after another. Every suite starts its own stack, database and ports (free ports,
 * temporary folders), so lanes share nothing but the two cores: the short suites pair up. Their
 * output is printed whole, suite by suite, when the step ends.
 */
const STEPS: Array<string | string[][]> = [
  "checks",
  "unit",
  // The two stack suites side by side, the short suites after them. (A delivery-retry test that
  // once waited out its 60 s this way met a failure injected for any webhook, used up by a job
  // left over from an earlier test; the stand-in's failures are now aimed at one webhook or chat.)
  [
    ["stack-pglite", "devstack"],
    ["stack-postgres", "platform", "pgtap", "functions"],
  ],
  // Alone: its rate-limit windows are counted in real seconds.
  "security",
  "e2e",
];

const CHECKS = ["checks", "typecheck", "lint", "format"];
const wanted = (name: string) =>
  only.length === 0 ||
  only.includes(name) ||
  (name === "checks" && only.some((o) => CHECKS.includes(o)));

async function timed(name: string, echo: boolean) {
  if (echo) console.log(`\n=== ${name} ===`);
  const started = performance.now();
  const before = results.length;
  await suites[name]!(echo);
  for (const r of results.slice(before))
    if (r.suite === name) r.seconds = Math.round((performance.now() - started) / 1000);
}

for (const step of STEPS) {
  if (typeof step === "string") {
    if (!wanted(step)) continue;
    if (step === "checks") await suites.checks!(true);
    else await timed(step, true);
    continue;
  }
  const lanes = step.map((lane) => lane.filter(wanted)).filter((lane) => lane.length > 0);
  if (lanes.length === 0) continue;
  const names = lanes.flat();
  console.log(`\n=== ${names.join(", ")}: at the same time, output below as each ends ===`);
  await Promise.all(
    lanes.map(async (lane) => {
      for (const name of lane) await timed(name, lanes.length === 1);
    }),
  );
  for (const name of names) {
    if (!held.has(name)) continue;
    console.log(`\n=== ${name} ===`);
    process.stdout.write(held.get(name)!);
  }
}
// The summary lists the suites in the order of the table above, whatever order they ended in.
const order = Object.keys(suites);
const rank = (suite: string) =>
  CHECKS.includes(suite) ? CHECKS.indexOf(suite) - CHECKS.length : order.indexOf(suite);
results.sort((a, b) => rank(a.suite) - rank(b.suite));
rmSync(tmp, { recursive: true, force: true });

const failures = results.flatMap((r) => (r.failures ?? []).map((f) => `${r.suite}: ${f}`));
if (failures.length) {
  console.log("\n=== failed tests ===");
  for (const f of failures.slice(0, 40)) console.log(f);
  if (failures.length > 40) console.log(`… and ${failures.length - 40} more`);
}
console.log("\n=== summary ===");
for (const r of results) {
  console.log(
    `${r.suite.padEnd(16)} ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ""}${r.seconds !== undefined ? `  (${r.seconds} s)` : ""}${r.note ? `  (${r.note})` : ""}`,
  );
}
const sum = (k: "passed" | "failed" | "skipped") => results.reduce((a, r) => a + r[k], 0);
const skipped = sum("skipped");
console.log(
  `${sum("passed")} passed, ${sum("failed")} failed${skipped ? `, ${skipped} skipped` : ""}`,
);
process.exit(sum("failed") > 0 ? 1 : 0);
