// `npm run db:backup [file]` and `npm run db:restore <file>`: a backup of the local stack's data.
// PGlite (the default): the data folder's database as PGlite's own tarball (`dumpDataDir`), read
// while the stack is stopped; restored into an empty DATA_DIR. DATABASE_URL: `pg_dump --format
// custom` and `pg_restore --clean --if-exists` (PostgreSQL's own tools, from PG_BIN).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { READY_MARKER } from "./database.ts";
import { StackError } from "./errors.ts";

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export interface BackupTarget {
  dataDir: string;
  databaseUrl?: string;
}

function run(tool: string, args: string[]) {
  const bin = existsSync(path.join(PG_BIN, tool)) ? path.join(PG_BIN, tool) : tool;
  const res = spawnSync(bin, args, { encoding: "utf8" });
  if (res.error || res.status !== 0) {
    throw new StackError(
      `${tool} failed: ${res.error?.message ?? res.stderr.trim().split("\n").slice(-3).join(" ")}`,
      "BACKUP_FAILED",
    );
  }
}

/** Writes a backup of the stack's database to `file`; returns the file's size in bytes. */
export async function backupDatabase(target: BackupTarget, file: string): Promise<number> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (target.databaseUrl) {
    run("pg_dump", ["--format=custom", "--no-owner", `--file=${file}`, target.databaseUrl]);
  } else {
    const dir = path.join(target.dataDir, "pglite");
    if (!existsSync(path.join(target.dataDir, READY_MARKER))) {
      throw new StackError(`There is no database in ${target.dataDir} to back up.`, "NO_DATA");
    }
    const pg = await PGlite.create(dir, { extensions: { pgcrypto, pg_trgm } });
    try {
      const tarball = await pg.dumpDataDir("gzip");
      writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    } finally {
      await pg.close();
    }
  }
  return readFileSync(file).byteLength;
}

/** Restores `file` into the stack's database: an empty DATA_DIR, or the DATABASE_URL's database. */
export async function restoreDatabase(target: BackupTarget, file: string): Promise<void> {
  if (!existsSync(file)) throw new StackError(`No backup at ${file}.`, "NO_BACKUP");
  if (target.databaseUrl) {
    run("pg_restore", [
      "--clean",
      "--if-exists",
      "--no-owner",
      `--dbname=${target.databaseUrl}`,
      file,
    ]);
    return;
  }
  const dir = path.join(target.dataDir, "pglite");
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new StackError(
      `${dir} is not empty: restore into a new DATA_DIR, or run \`npm run db:reset\` first.`,
      "DATA_NOT_EMPTY",
    );
  }
  mkdirSync(dir, { recursive: true });
  const pg = await PGlite.create(dir, {
    extensions: { pgcrypto, pg_trgm },
    loadDataDir: new Blob([readFileSync(file)]),
  });
  await pg.query("select 1");
  await pg.close();
  writeFileSync(path.join(target.dataDir, READY_MARKER), new Date().toISOString());
}
