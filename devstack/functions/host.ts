// Starts the Deno functions host as a child process and forwards requests to it.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";
import { ROOT } from "../config.ts";
import { StackError } from "../errors.ts";

const HOST_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "deno-host.ts");
const DENO = path.join(ROOT, "node_modules/.bin/deno");

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
    "--allow-net",
    "--allow-env",
    "--allow-read",
    "--no-prompt",
    "--node-modules-dir=none",
    ...(existsSync(denoJson) ? ["--config", denoJson] : ["--no-config"]),
    ...(opts.watch ? [`--watch=${opts.functionsDir}`] : []),
    HOST_SCRIPT,
  ];
  const child: ChildProcess = spawn(DENO, args, {
    cwd: opts.functionsDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      ...(process.env.DENO_DIR ? { DENO_DIR: process.env.DENO_DIR } : {}),
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      FUNCTIONS_DIR: opts.functionsDir,
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = opts.log ?? ((l: string) => console.log(l));
  let port = 0;
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
      if (m) {
        port = Number(m[1]);
        clearTimeout(timer);
        resolve(port);
      } else log(`[functions] ${line}`);
    });
    createInterface({ input: child.stderr! }).on("line", (line) => {
      if (!/^(Watcher|Download|Restarting)/.test(line)) log(`[functions] ${line}`);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new StackError(`The Deno functions host exited (code ${code}).`, "FUNCTIONS_EXITED"));
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
  await ready;
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
