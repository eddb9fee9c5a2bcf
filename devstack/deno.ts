// Deno for the project: one binary (the `deno` npm package), one project-local cache, and the
// environment Deno needs to reach the npm registry from this machine (decision 0013).
//
//   tsx devstack/deno.ts cache        fetch and lock every npm package the functions, the
//                                     functions host and the Deno tests import (postinstall)
//   tsx devstack/deno.ts <args...>    run Deno with the project's cache (npm scripts use this)
//
// After `npm install` the functions load with `--cached-only`: start-up and tests need no network.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const DENO_BIN = path.join(ROOT, "node_modules/.bin/deno");
export const FUNCTIONS_DIR = path.join(ROOT, "supabase/functions");
export const DENO_CONFIG = path.join(FUNCTIONS_DIR, "deno.json");
export const HOST_SCRIPT = path.join(ROOT, "devstack/functions/deno-host.ts");
/** The command that fills the cache; every "cannot load" message names it. */
export const CACHE_COMMAND = "npm run deno:cache";

/** The project-local Deno cache (git-ignored), unless DENO_DIR names another. */
export function denoDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.DENO_DIR ? path.resolve(env.DENO_DIR) : path.join(ROOT, ".deno");
}

const PROXIES = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
];

/** Certificate, proxy and registry settings Deno must see to reach the npm registry. */
const PASS_THROUGH = [
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "DENO_CERT",
  "DENO_TLS_CA_STORE",
  ...PROXIES,
  "NO_PROXY",
  "no_proxy",
  "NPM_CONFIG_REGISTRY",
  "DENO_AUTH_TOKENS",
];

const LOOPBACK = ["127.0.0.1", "localhost", "::1"];

/**
 * The environment for a Deno process: the machine's certificate and proxy settings (Node's
 * NODE_EXTRA_CA_CERTS becomes DENO_CERT; npm's registry setting becomes NPM_CONFIG_REGISTRY),
 * loopback exempt from any proxy (functions call the local stack), and the project's cache.
 * With `full`, the whole parent environment is kept (CLI use); without, only these variables,
 * PATH and HOME (the functions host: functions see only what the stack gives them).
 */
export function denoEnv(
  opts: { full?: boolean; from?: NodeJS.ProcessEnv } = {},
): Record<string, string> {
  const from = opts.from ?? process.env;
  const env: Record<string, string> = {};
  if (opts.full) {
    for (const [k, v] of Object.entries(from)) if (v !== undefined) env[k] = v;
  } else {
    env.PATH = from.PATH ?? "";
    env.HOME = from.HOME ?? "";
    for (const k of PASS_THROUGH) if (from[k]) env[k] = from[k]!;
  }
  if (!env.DENO_CERT && from.NODE_EXTRA_CA_CERTS && existsSync(from.NODE_EXTRA_CA_CERTS)) {
    env.DENO_CERT = from.NODE_EXTRA_CA_CERTS;
  }
  const registry = from.NPM_CONFIG_REGISTRY ?? from.npm_config_registry;
  if (registry && !env.NPM_CONFIG_REGISTRY) env.NPM_CONFIG_REGISTRY = registry;
  const proxied = PROXIES.some((k) => env[k]);
  if (proxied) {
    const list = (env.NO_PROXY ?? env.no_proxy ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const merged = [...list, ...LOOPBACK.filter((h) => !list.includes(h))].join(",");
    env.NO_PROXY = merged;
    env.no_proxy = merged;
  }
  env.DENO_DIR = denoDir(from);
  env.DENO_NO_UPDATE_CHECK = "1";
  return env;
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) walk(p, out);
    else if (d.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Every module Deno runs: the functions and their tests, test fixtures, the host. */
export function denoEntrypoints(): string[] {
  const domain = path.join(FUNCTIONS_DIR, "_shared/domain");
  return [
    // The domain's own tests run under vitest, not Deno.
    ...walk(FUNCTIONS_DIR).filter((f) => !(f.startsWith(domain) && f.endsWith(".test.ts"))),
    ...walk(path.join(ROOT, "tests/fixtures/functions")),
    HOST_SCRIPT,
  ].sort();
}

function runDeno(args: string[], env: Record<string, string>) {
  return spawnSync(DENO_BIN, args, { cwd: ROOT, env, encoding: "utf8" });
}

/** Loads every function with `--cached-only` and reports the first that cannot load. */
export function verifyCache(
  env: Record<string, string>,
): { ok: true } | { ok: false; message: string } {
  const r = runDeno(
    [
      "run",
      "--cached-only",
      "--frozen",
      "--node-modules-dir=none",
      "--allow-env",
      "--allow-read",
      "--allow-net",
      "--no-prompt",
      "--config",
      DENO_CONFIG,
      HOST_SCRIPT,
    ],
    { ...env, FUNCTIONS_DIR, FUNCTIONS_HOST_CHECK: "1", NO_COLOR: "1" },
  );
  if (r.status === 0) return { ok: true };
  const failed = /^FUNCTIONS_HOST_FAILED (.*)$/m.exec(r.stdout ?? "");
  return { ok: false, message: failed ? failed[1]! : (r.stderr || r.stdout || "").trim() };
}

/** Fetches and locks the functions' npm packages, then proves every function loads offline. */
export function cacheDeno(log: (line: string) => void = console.log): boolean {
  const env = denoEnv({ full: true });
  const install = () =>
    runDeno(
      [
        "install",
        "--frozen",
        "--node-modules-dir=none",
        "--config",
        DENO_CONFIG,
        "--entrypoint",
        ...denoEntrypoints(),
      ],
      { ...env, NO_COLOR: "1" },
    );
  for (let attempt = 1; attempt <= 2; attempt++) {
    const r = install();
    if (r.status === 0) {
      const check = verifyCache(env);
      if (check.ok) {
        log(`Deno cache ready in ${path.relative(ROOT, env.DENO_DIR!) || env.DENO_DIR}`);
        return true;
      }
      log(`Deno cache incomplete (${check.message}).`);
    } else {
      log(
        `deno install failed:\n${(r.stderr || r.stdout || "").trim().split("\n").slice(0, 8).join("\n")}`,
      );
    }
    if (attempt === 1) {
      // A download cut half-way can leave a package folder that never loads: start that cache over.
      log("Clearing the npm part of the Deno cache and trying once more.");
      rmSync(path.join(env.DENO_DIR!, "npm"), { recursive: true, force: true });
    }
  }
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "cache" && args.length === 1) {
    if (!existsSync(DENO_BIN)) {
      console.error("error: node_modules/.bin/deno is missing; run npm install first.");
      process.exit(1);
    }
    if (!cacheDeno()) {
      console.error(
        `error: the edge functions' npm packages could not be cached in ${denoDir()}. ` +
          `Check the network (proxy, certificates: SSL_CERT_FILE, NODE_EXTRA_CA_CERTS) and run \`${CACHE_COMMAND}\`.`,
      );
      process.exit(1);
    }
  } else {
    const child = spawn(DENO_BIN, args, {
      cwd: process.cwd(),
      env: denoEnv({ full: true }),
      stdio: "inherit",
    });
    child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  }
}
