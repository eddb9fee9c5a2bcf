// Starts the Deno functions host as a child process and forwards requests to it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { parse as parseToml } from "smol-toml";
import { CACHE_COMMAND, DENO_BIN, denoDir, denoEnv, HOST_SCRIPT } from "../deno.ts";
import { StackError } from "../errors.ts";

export interface FunctionsHost {
  port: number;
  names(): string[];
  verifyJwt(name: string): boolean;
  stop(): Promise<void>;
}

/** Reads `[functions.<name>] verify_jwt` from config.toml; Supabase's default is true. */
export function readFunctionSettings(configToml: string): Record<string, { verify_jwt?: boolean }> {
  if (!existsSync(configToml)) return {};
  const conf = parseToml(readFileSync(configToml, "utf8")) as {
    functions?: Record<string, { verify_jwt?: boolean }>;
  };
  return conf.functions ?? {};
}

export function listFunctions(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_") && !d.name.startsWith("."))
    .map((d) => d.name)
    .sort();
}

/** The one line `npm start` ends with when a function cannot load. */
export function loadFailure(
  report: { function?: string; package?: string | null; reason?: string },
  cache = denoDir(),
): StackError {
  const what = report.package
    ? `npm package ${report.package} is not in the Deno cache (${cache})`
    : (report.reason ?? "it failed to load");
  const fix = report.package
    ? `run \`${CACHE_COMMAND}\` (or \`npm install\`) with network access`
    : "fix the error and start again";
  return new StackError(
    `Function "${report.function ?? "?"}" cannot load: ${what}; ${fix}.`,
    "FUNCTION_LOAD_FAILED",
  );
}

export async function startFunctionsHost(opts: {
  functionsDir: string;
  configToml: string;
  env: Record<string, string>;
  watch?: boolean;
  log?: (line: string) => void;
}): Promise<FunctionsHost> {
  const denoJson = path.join(opts.functionsDir, "deno.json");
  const args = [
    "run",
    // Everything was fetched at install time: loading never touches the network.
    "--cached-only",
    "--frozen",
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--no-prompt",
    "--node-modules-dir=none",
    ...(existsSync(denoJson) ? ["--config", denoJson] : ["--no-config"]),
    ...(opts.watch ? [`--watch=${opts.functionsDir}`] : []),
    // FUNCTIONS_HOST_INSPECT=127.0.0.1:<port>: the V8 inspector, for a CPU profile of the
    // functions while a bench runs (decision 0103); off unless asked for.
    ...(process.env.FUNCTIONS_HOST_INSPECT
      ? [`--inspect=${process.env.FUNCTIONS_HOST_INSPECT}`]
      : []),
    // FUNCTIONS_HOST_V8=--prof,--logfile=<file>: V8's own sampling profiler, which, unlike the
    // inspector, adds no network events of its own to what it measures (decision 0114).
    ...(process.env.FUNCTIONS_HOST_V8 ? [`--v8-flags=${process.env.FUNCTIONS_HOST_V8}`] : []),
    HOST_SCRIPT,
  ];
  const child: ChildProcess = spawn(DENO_BIN, args, {
    cwd: opts.functionsDir,
    env: {
      // The machine's certificates and proxy, the project's Deno cache; nothing else of ours.
      ...denoEnv(),
      NO_COLOR: "1",
      FUNCTIONS_DIR: opts.functionsDir,
      ...opts.env,
    },
    // The host watches its stdin: when this process dies, the pipe closes and so does Deno.
    stdio: ["pipe", "pipe", "pipe"],
  });
  const log = opts.log ?? ((l: string) => console.log(l));
  let port = 0;
  let failure: StackError | null = null;
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new StackError(
            "The Deno functions host did not start within 120 s.",
            "FUNCTIONS_TIMEOUT",
          ),
        ),
      120_000,
    );
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const m = /^FUNCTIONS_HOST_READY (\d+)/.exec(line);
      const failed = /^FUNCTIONS_HOST_FAILED (.*)$/.exec(line);
      if (m) {
        port = Number(m[1]);
        clearTimeout(timer);
        resolve(port);
      } else if (failed) {
        let report: Parameters<typeof loadFailure>[0];
        try {
          report = JSON.parse(failed[1]!);
        } catch {
          report = { reason: failed[1] };
        }
        failure = loadFailure(report);
        // Before start-up this ends `npm start`; in watch mode later, it is logged and the
        // host waits for the next change.
        log(`[functions] ${failure.message}`);
        reject(failure);
      } else log(`[functions] ${line}`);
    });
    createInterface({ input: child.stderr! }).on("line", (line) => {
      if (!/^(Watcher|Download|Restarting)/.test(line)) log(`[functions] ${line}`);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        failure ??
          new StackError(`The Deno functions host exited (code ${code}).`, "FUNCTIONS_EXITED"),
      );
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(
        new StackError(
          `Cannot start Deno (${err.message}); run the README's install command.`,
          "DENO_MISSING",
        ),
      );
    });
  });
  try {
    await ready;
  } catch (err) {
    child.kill("SIGKILL");
    throw err;
  }
  // Read once; in watch mode (npm run dev) re-read so new functions and settings apply.
  let settings = readFunctionSettings(opts.configToml);
  let names = listFunctions(opts.functionsDir);
  const fresh = () => {
    if (opts.watch) {
      settings = readFunctionSettings(opts.configToml);
      names = listFunctions(opts.functionsDir);
    }
  };
  return {
    get port() {
      return port;
    },
    names: () => (fresh(), names),
    verifyJwt: (name) => settings[name]?.verify_jwt !== false,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
