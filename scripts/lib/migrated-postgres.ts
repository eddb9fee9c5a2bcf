// A temporary PostgreSQL 15 prepared as hosted Supabase is before a project's first migration
// (Auth and Storage schemas, roles, Realtime, Vault: the local stack's platform SQL), then
// migrated by the pinned Supabase CLI's `db push`, which records every migration in
// supabase_migrations.schema_migrations as on a hosted project. Used by `npm run gen:types`,
// `npm run gen:schemas` and the platform tests.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultOptions, ROOT } from "../../devstack/config.ts";
import { freePort, startStack } from "../../devstack/stack.ts";
import {
  postgresAvailable,
  startTempPostgres,
  type TempPostgres,
} from "../../tests/support/postgres.ts";

export const SUPABASE_CLI = path.join(ROOT, "node_modules/.bin/supabase");

export interface CliResult {
  code: number;
  output: string;
}

/** Runs the pinned Supabase CLI (never prompting, no telemetry prompt, plain output). */
export function supabaseCli(args: string[], opts: { cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(SUPABASE_CLI, args, {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: "1", SUPABASE_YES: "1", DO_NOT_TRACK: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
    child.on("error", (err) => resolve({ code: 127, output: String(err) }));
  });
}

/**
 * Gives a plain PostgreSQL what hosted Supabase already has before any migration: the stack's
 * Auth/Storage schemas and devstack/platform.sql, and no migration (an empty folder).
 */
export async function preparePlatform(databaseUrl: string): Promise<void> {
  const tmp = mkdtempSync(path.join(tmpdir(), "platform-"));
  try {
    const empty = path.join(tmp, "migrations");
    mkdirSync(empty);
    const stack = await startStack({
      ...defaultOptions({}),
      apiPort: await freePort(),
      dataDir: path.join(tmp, "data"),
      envFile: path.join(tmp, ".env.local"),
      databaseUrl,
      migrationsDir: empty,
      seedFile: undefined,
      functions: false,
      cron: false,
      quiet: true,
    });
    await stack.stop();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * A working folder for the CLI: the repository itself, or (for another migrations folder) a
 * temporary copy of supabase/config.toml beside those migrations.
 */
export function cliWorkdir(migrationsDir?: string): { dir: string; cleanup(): void } {
  const own = path.join(ROOT, "supabase/migrations");
  if (!migrationsDir || path.resolve(migrationsDir) === own) return { dir: ROOT, cleanup() {} };
  const dir = mkdtempSync(path.join(tmpdir(), "cli-workdir-"));
  mkdirSync(path.join(dir, "supabase"));
  cpSync(path.join(ROOT, "supabase/config.toml"), path.join(dir, "supabase/config.toml"));
  cpSync(migrationsDir, path.join(dir, "supabase/migrations"), { recursive: true });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `supabase db push` of a migrations folder onto the database at `url`. */
export async function dbPush(url: string, migrationsDir?: string): Promise<CliResult> {
  const work = cliWorkdir(migrationsDir);
  try {
    return await supabaseCli([
      "db",
      "push",
      `--remote=${url}`,
      "--include-all",
      "--yes",
      "--workdir",
      work.dir,
    ]);
  } finally {
    work.cleanup();
  }
}

/** `supabase migration list` against the database at `url`. */
export async function migrationList(url: string, migrationsDir?: string): Promise<CliResult> {
  const work = cliWorkdir(migrationsDir);
  try {
    return await supabaseCli(["migration", "list", `--remote=${url}`, "--workdir", work.dir]);
  } finally {
    work.cleanup();
  }
}

export function migrationCount(migrationsDir = path.join(ROOT, "supabase/migrations")): number {
  return readdirSync(migrationsDir).filter((f) => /^\d{14}_.+\.sql$/.test(f)).length;
}

/**
 * Runs `fn` on a temporary PostgreSQL 15 prepared like hosted Supabase and migrated by the
 * CLI's `db push`; stops the cluster afterwards. Throws with the CLI's output when a
 * migration fails.
 */
export async function withMigratedPostgres<T>(
  fn: (pg: TempPostgres) => Promise<T>,
  opts: { migrationsDir?: string; beforeMigrations?: (pg: TempPostgres) => Promise<void> } = {},
): Promise<T> {
  if (!postgresAvailable()) {
    throw new Error(
      "PostgreSQL 15 binaries are missing (apt-get install postgresql-15): the generators run the migrations on a real PostgreSQL.",
    );
  }
  const pg = await startTempPostgres();
  try {
    await preparePlatform(pg.url);
    await opts.beforeMigrations?.(pg);
    const push = await dbPush(pg.url, opts.migrationsDir);
    if (push.code !== 0) throw new Error(`supabase db push failed:\n${push.output}`);
    return await fn(pg);
  } finally {
    await pg.stop();
  }
}
