// Applies platform SQL, then supabase/migrations in file order (one transaction per file,
// recorded in supabase_migrations.schema_migrations as the Supabase CLI does), then seed.sql
// (recorded by hash in supabase_migrations.seed_files, so applying twice changes nothing).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { splitSqlStatements } from "@supabase/lite";
import { ROOT } from "./config.ts";
import type { Db, Tx } from "./database.ts";
import { StackError } from "./errors.ts";

const PLATFORM_SQL = path.join(path.dirname(fileURLToPath(import.meta.url)), "platform.sql");
const MIGRATION_FILE = /^(\d{14})_(.+)\.sql$/;

/** The history table in the Supabase CLI's shape (created before lite's, so this one wins). */
const HISTORY_SQL = `
create schema if not exists supabase_migrations;
create table if not exists supabase_migrations.schema_migrations (
  version text not null primary key,
  statements text[],
  name text,
  created_by text,
  idempotency_key text unique,
  rollback text[]
);
create table if not exists supabase_migrations.seed_files (
  path text not null primary key,
  hash text not null
);`;

export interface MigrationFile {
  version: string;
  name: string;
  file: string;
}

export function listMigrations(dir: string): MigrationFile[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => {
      const m = MIGRATION_FILE.exec(f);
      if (!m) {
        throw new StackError(
          `Migration file ${f} is not named <14-digit timestamp>_<name>.sql as the Supabase CLI requires.`,
          "MIGRATION_NAME",
        );
      }
      return { version: m[1]!, name: m[2]!, file: path.join(dir, f) };
    });
}

async function runStatements(tx: Tx, label: string, statements: string[]) {
  for (const stmt of statements) {
    try {
      await tx.query(stmt);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      const short = stmt.replace(/^(\s*--[^\n]*\n)+/, "").trim();
      throw new StackError(
        `${label} failed, nothing of it was applied.\n  statement: ${short.length > 300 ? `${short.slice(0, 300)}…` : short}\n  error: ${msg}`,
        "MIGRATION_FAILED",
      );
    }
  }
}

export async function applyPlatformSql(db: Db): Promise<void> {
  const statements = splitSqlStatements(readFileSync(PLATFORM_SQL, "utf8"));
  await db.transaction((tx) =>
    runStatements(tx, "Platform SQL (devstack/platform.sql)", statements),
  );
}

export async function ensureHistoryTables(db: Db): Promise<void> {
  await db.transaction((tx) =>
    runStatements(tx, "Migration history tables", splitSqlStatements(HISTORY_SQL)),
  );
}

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
}

export async function applyMigrations(
  db: Db,
  opts: { migrationsDir: string; seedFile?: string },
): Promise<MigrateResult> {
  const files = listMigrations(opts.migrationsDir);
  const done = new Set(
    (
      await db.query<{ version: string }>(
        "select version from supabase_migrations.schema_migrations",
      )
    ).map((r) => r.version),
  );
  const applied: string[] = [];
  for (const m of files) {
    if (done.has(m.version)) continue;
    const statements = splitSqlStatements(readFileSync(m.file, "utf8"));
    const rel = path.relative(process.cwd(), m.file) || m.file;
    await db.transaction(async (tx) => {
      await runStatements(tx, `Migration ${rel}`, statements);
      await tx.query(
        "insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)",
        [m.version, m.name, statements],
      );
    });
    applied.push(path.basename(m.file));
  }

  let seeded = false;
  if (opts.seedFile && existsSync(opts.seedFile)) {
    const text = readFileSync(opts.seedFile, "utf8");
    const hash = createHash("sha256").update(text).digest("hex");
    const rel = path.relative(ROOT, opts.seedFile);
    const prior = await db.query<{ hash: string }>(
      "select hash from supabase_migrations.seed_files where path = $1",
      [rel],
    );
    if (prior.length === 0) {
      await db.transaction(async (tx) => {
        await runStatements(tx, `Seed ${rel}`, splitSqlStatements(text));
        await tx.query("insert into supabase_migrations.seed_files (path, hash) values ($1, $2)", [
          rel,
          hash,
        ]);
      });
      seeded = true;
    } else if (prior[0]!.hash !== hash) {
      // Like `supabase start`: a changed seed is not re-run over existing data.
      console.warn(`! ${rel} changed since it was applied; run \`npm run db:reset\` to apply it.`);
    }
  }
  return { applied, seeded };
}
