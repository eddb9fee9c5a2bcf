// Starts a throw-away PostgreSQL 15 cluster from the system binaries in a temporary folder.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../devstack/stack.ts";

export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export function postgresAvailable(): boolean {
  return existsSync(path.join(PG_BIN, "initdb")) && existsSync(path.join(PG_BIN, "pg_ctl"));
}

/** The folder of the server's loadable modules (pg_cron.so sits there when installed). */
export const PG_LIB = process.env.PG_LIB ?? path.join(path.dirname(PG_BIN), "lib");

/** Whether pg_cron (Debian's postgresql-15-cron) is installed beside the server. */
export function pgCronAvailable(): boolean {
  return existsSync(path.join(PG_LIB, "pg_cron.so"));
}

/**
 * The libraries a test cluster preloads: pg_cron when installed, so the migrations' schedule
 * branches run as on a hosted project (jobs in `cron.job` of the `postgres` database). Without
 * it, CI fails (`.ci/run` installs postgresql-15-cron) and a local run says loudly what it skips.
 */
function defaultPreload(): string[] {
  // BENCH_PG_STATEMENTS=1: pg_stat_statements too (nested statements), for a bench's profile.
  const statements = process.env.BENCH_PG_STATEMENTS === "1" ? ["pg_stat_statements"] : [];
  if (pgCronAvailable()) return ["pg_cron", ...statements];
  const why =
    "pg_cron is not installed (apt-get install postgresql-15-cron): the migrations' pg_cron " +
    "branches and their pgTAP assertions will not run";
  if (process.env.CI) throw new Error(`CI needs ${why.replace(": the", "; the")}`);
  console.warn(`\n*** SKIPPING: ${why}. ***\n`);
  return [];
}

export interface TempPostgres {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** initdb refuses to run as root; run the server as the `postgres` system user then. */
function asPostgresUser(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ["runuser", ["-u", "postgres", "--", cmd, ...args]]
    : [cmd, args];
}

export async function startTempPostgres(opts: { preload?: string[] } = {}): Promise<TempPostgres> {
  const preload = opts.preload ?? defaultPreload();
  const dir = mkdtempSync(path.join(tmpdir(), "pg15-"));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  const port = await freePort();
  const pwfile = path.join(dir, "pw");
  writeFileSync(pwfile, "postgres\n", { mode: 0o644 });
  const [c1, a1] = asPostgresUser(path.join(PG_BIN, "initdb"), [
    "-D",
    data,
    "-U",
    "postgres",
    "--pwfile",
    pwfile,
    "-A",
    "scram-sha-256",
    "-E",
    "UTF8",
    "--no-sync",
  ]);
  execFileSync(c1, a1, { stdio: "pipe" });
  const conf = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    `unix_socket_directories = '${dir}'`,
    "fsync = off",
    "synchronous_commit = off",
    "full_page_writes = off",
    "max_connections = 200",
    ...(preload.length
      ? [`shared_preload_libraries = '${preload.join(",")}'`, "cron.database_name = 'postgres'"]
      : []),
    ...(preload.includes("pg_stat_statements") ? ["pg_stat_statements.track = all"] : []),
    // BENCH_PG_EXPLAIN=<file>: every statement of 20 ms or more (nested ones too) with its
    // plan and buffers (auto_explain), the cluster's log copied to <file> when it stops.
    ...(process.env.BENCH_PG_EXPLAIN
      ? [
          "session_preload_libraries = 'auto_explain'",
          "auto_explain.log_min_duration = '20ms'",
          "auto_explain.log_analyze = on",
          "auto_explain.log_buffers = on",
          "auto_explain.log_nested_statements = on",
        ]
      : []),
    // BENCH_PG_SHARED_BUFFERS=256MB: a bench's cluster with a hosted project's buffers (decision
    // 0099: a Micro compute, the smallest paid size, has 1 GB and 256 MB of shared buffers);
    // unset, the server's default (128 MB).
    ...(process.env.BENCH_PG_SHARED_BUFFERS
      ? [`shared_buffers = '${process.env.BENCH_PG_SHARED_BUFFERS.replace(/[^0-9A-Za-z]/g, "")}'`]
      : []),
  ].join("\n");
  execFileSync("bash", ["-c", `cat >> '${data}/postgresql.conf' <<'EOF'\n${conf}\nEOF`]);
  const [c2, a2] = asPostgresUser(path.join(PG_BIN, "pg_ctl"), [
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-w",
    "start",
  ]);
  await new Promise<void>((resolve, reject) => {
    const p = spawn(c2, a2, { stdio: "pipe" });
    let err = "";
    p.stderr.on("data", (d) => (err += d));
    p.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`pg_ctl start failed: ${err}`)),
    );
  });
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    async stop() {
      const [c3, a3] = asPostgresUser(path.join(PG_BIN, "pg_ctl"), [
        "-D",
        data,
        "-m",
        "immediate",
        "-w",
        "stop",
      ]);
      try {
        execFileSync(c3, a3, { stdio: "pipe" });
      } finally {
        if (process.env.BENCH_PG_EXPLAIN) {
          copyFileSync(path.join(dir, "log"), process.env.BENCH_PG_EXPLAIN);
        }
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * On the Postgres suite (the cluster's URL given), a fresh database `name` of the temporary
 * cluster for a suite that starts a stack of its own; on PGlite (no URL), undefined.
 */
export async function freshDatabase(
  clusterUrl: string | null,
  name: string,
): Promise<string | undefined> {
  if (!clusterUrl) return undefined;
  const { default: postgres } = await import("postgres");
  const admin = postgres(clusterUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
